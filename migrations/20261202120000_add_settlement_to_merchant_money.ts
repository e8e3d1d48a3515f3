import type { Knex } from 'knex';

/**
 * What the processor settled for each movement of money, in its settlement currency (docs/domain.md §20): a charge's
 * balance transaction (amount, fee, currency, rate), a refund's, a dispute's withdrawal and its won reversal. Null
 * where the processor did not tell it (rows recorded before, the built-in test provider): those settle in the
 * charge's own currency or are told apart. Magnitudes, as the rows' own amounts; the three facts come together.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE merchant_charges
      ADD COLUMN settlement_identifier text,
      ADD COLUMN settlement_amount integer,
      ADD COLUMN settlement_fee integer,
      ADD COLUMN settlement_currency text,
      ADD COLUMN settlement_exchange_rate double precision,
      ADD CONSTRAINT merchant_charges_settlement_whole CHECK (
        (settlement_amount IS NULL) = (settlement_currency IS NULL)
        AND (settlement_amount IS NULL) = (settlement_fee IS NULL)),
      ADD CONSTRAINT merchant_charges_settlement_range CHECK (settlement_amount >= 0 AND settlement_fee >= 0)`);
  await knex.raw(`ALTER TABLE merchant_refunds
      ADD COLUMN settlement_identifier text,
      ADD COLUMN settlement_amount integer,
      ADD COLUMN settlement_currency text,
      ADD COLUMN settlement_exchange_rate double precision,
      ADD CONSTRAINT merchant_refunds_settlement_whole CHECK ((settlement_amount IS NULL) = (settlement_currency IS NULL)),
      ADD CONSTRAINT merchant_refunds_settlement_range CHECK (settlement_amount >= 0)`);
  await knex.raw(`ALTER TABLE merchant_disputes
      ADD COLUMN settlement_amount integer,
      ADD COLUMN settlement_currency text,
      ADD COLUMN settlement_exchange_rate double precision,
      ADD COLUMN reversal_settlement_amount integer,
      ADD CONSTRAINT merchant_disputes_settlement_whole CHECK (
        (settlement_amount IS NULL) = (settlement_currency IS NULL)
        AND (reversal_settlement_amount IS NULL OR settlement_currency IS NOT NULL)),
      ADD CONSTRAINT merchant_disputes_settlement_range CHECK (
        settlement_amount >= 0 AND reversal_settlement_amount >= 0)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE merchant_disputes DROP COLUMN settlement_amount, DROP COLUMN settlement_currency,
      DROP COLUMN settlement_exchange_rate, DROP COLUMN reversal_settlement_amount`);
  await knex.raw(`ALTER TABLE merchant_refunds DROP COLUMN settlement_identifier, DROP COLUMN settlement_amount,
      DROP COLUMN settlement_currency, DROP COLUMN settlement_exchange_rate`);
  await knex.raw(`ALTER TABLE merchant_charges DROP COLUMN settlement_identifier, DROP COLUMN settlement_amount,
      DROP COLUMN settlement_fee, DROP COLUMN settlement_currency, DROP COLUMN settlement_exchange_rate`);
}
