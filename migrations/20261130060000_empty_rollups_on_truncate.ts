import type { Knex } from 'knex';

/**
 * A TRUNCATE fires no row or statement trigger of its table, so the rollups kept by those (20261130010000,
 * 20261130010100, 20261130010200) would go on showing money and activity that no longer exists. A TRUNCATE of a
 * source table (directly or by CASCADE) now empties the rollups counted from it, in the same transaction.
 */
const ROLLUPS_OF: Record<string, string[]> = {
  merchant_charges: ['finance_daily_charges'],
  purchases: ['finance_daily_purchases', 'finance_daily_purchase_totals', 'finance_monthly_purchases'],
  split_lines: [
    'finance_daily_ledger',
    'finance_daily_ledger_products',
    'finance_daily_ledger_recipients',
    'finance_monthly_ledger_products',
  ],
  lesson_progress: ['learner_last_active'],
};

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION rollups_emptied() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE rollup text;
    BEGIN
      FOREACH rollup IN ARRAY TG_ARGV LOOP EXECUTE format('DELETE FROM %I', rollup); END LOOP;
      RETURN NULL;
    END $$;`);
  for (const [source, rollups] of Object.entries(ROLLUPS_OF))
    await knex.raw(
      `CREATE TRIGGER ${source}_rollups_emptied AFTER TRUNCATE ON ${source}
        FOR EACH STATEMENT EXECUTE FUNCTION rollups_emptied(${rollups.map((r) => `'${r}'`).join(', ')})`,
    );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP FUNCTION rollups_emptied() CASCADE');
}
