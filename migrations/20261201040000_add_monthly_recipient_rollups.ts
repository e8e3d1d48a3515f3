import type { Knex } from 'knex';
import { addTo, FAIL_FAST_ON_LOCKS, statementTriggers, TRANSACTION_SHARD, type Columns } from './rollup-sql';

/**
 * A year of the daily rollup by recipient is recipients × days rows, filling as the ledger grows: the figures by
 * recipient read whole months from a monthly rollup instead, as those by product do (20261130010200), and only a
 * few days around them from the daily one. Kept like the others: statement-level triggers on split_lines, shard rows,
 * exact on insert, update and delete, emptied with the ledger by a TRUNCATE.
 */

const LINE_MONTH = `date_trunc('month', l.created_at AT TIME ZONE 'UTC')::date`;
const MONTH = `date_trunc('month', created_at AT TIME ZONE 'UTC')::date`;

const AMOUNTS: Columns = {
  lines: 'count(*)',
  sales: `coalesce(sum(l.amount) FILTER (WHERE l.kind = 'sale'), 0)`,
  refunds: `coalesce(sum(l.amount) FILTER (WHERE l.kind = 'refund'), 0)`,
  disputes: `coalesce(sum(l.amount) FILTER (WHERE l.kind IN ('dispute', 'dispute-won')), 0)`,
  total: 'sum(l.amount)',
};

const addLines = (from: string) =>
  addTo(
    'finance_monthly_ledger_recipients',
    { month: LINE_MONTH, currency: 'l.currency', recipient_type: 'l.recipient_type', user_id: 'l.user_id' },
    AMOUNTS,
    from,
    undefined,
    TRANSACTION_SHARD,
  );

/** A correction (split_lines is append-only, so only one with its guard lifted) counts its months again. */
const recount = (touched: string) => `
  DELETE FROM finance_monthly_ledger_recipients WHERE month IN (${touched});
  ${addLines(`split_lines AS l WHERE ${LINE_MONTH} IN (${touched})`)}`;

const monthlyRecipients = `
  CREATE FUNCTION finance_monthly_ledger_recipients_add() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP = 'INSERT' THEN ${addLines('new_rows AS l')}
    ELSIF TG_OP = 'DELETE' THEN ${recount(`SELECT ${MONTH} FROM old_rows`)}
    ELSE ${recount(`SELECT ${MONTH} FROM old_rows UNION SELECT ${MONTH} FROM new_rows`)}
    END IF;
    RETURN NULL;
  END $$;
  ${statementTriggers('split_lines', 'finance_monthly_ledger_recipients_add')}
  CREATE TRIGGER split_lines_monthly_recipients_emptied AFTER TRUNCATE ON split_lines
    FOR EACH STATEMENT EXECUTE FUNCTION rollups_emptied('finance_monthly_ledger_recipients');
  ${addLines('split_lines AS l')}`;

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
