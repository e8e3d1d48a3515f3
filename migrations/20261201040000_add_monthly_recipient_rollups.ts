import type { Knex } from 'knex';
import { FAIL_FAST_ON_LOCKS, ledgerAmountsRollup, TRANSACTION_SHARD } from './rollup-sql';

/**
 * A year of the daily rollup by recipient is recipients × days rows, filling as the ledger grows: the figures by
 * recipient read whole months from a monthly rollup instead, as those by product do (20261130010200), and only a
 * few days around them from the daily one. Kept like the others: statement-level triggers on split_lines, shard rows,
 * exact on insert, update and delete, emptied with the ledger by a TRUNCATE.
 */

/** A correction (split_lines is append-only, so only one with its guard lifted) counts its months again. */
const monthlyRecipients = ledgerAmountsRollup(
  'finance_monthly_ledger_recipients',
  'month',
  { currency: 'l.currency', recipient_type: 'l.recipient_type', user_id: 'l.user_id' },
  {
    shard: TRANSACTION_SHARD,
    alsoCreate: `CREATE TRIGGER split_lines_monthly_recipients_emptied AFTER TRUNCATE ON split_lines
    FOR EACH STATEMENT EXECUTE FUNCTION rollups_emptied('finance_monthly_ledger_recipients');`,
  },
);

export async function up(knex: Knex): Promise<void> {
  await knex.raw(FAIL_FAST_ON_LOCKS);
  await knex.schema.createTable('finance_monthly_ledger_recipients', (t) => {
    t.date('month').notNullable();
    t.text('currency').notNullable();
    t.text('recipient_type').notNullable();
    t.uuid('user_id'); // null: the platform
    t.smallint('shard').notNullable();
    t.integer('lines').notNullable();
    for (const c of ['sales', 'refunds', 'disputes', 'total']) t.bigInteger(c).notNullable();
  });
  await knex.raw(`ALTER TABLE finance_monthly_ledger_recipients ADD CONSTRAINT finance_monthly_ledger_recipients_key
    UNIQUE NULLS NOT DISTINCT (month, currency, recipient_type, user_id, shard)`);
  await knex.raw(monthlyRecipients);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER split_lines_monthly_recipients_emptied ON split_lines');
  await knex.raw('DROP FUNCTION finance_monthly_ledger_recipients_add() CASCADE');
  await knex.schema.dropTable('finance_monthly_ledger_recipients');
}
