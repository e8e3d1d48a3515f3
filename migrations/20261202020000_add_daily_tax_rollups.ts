import type { Knex } from 'knex';
import { addTo, FAIL_FAST_ON_LOCKS, TRANSACTION_SHARD, UTC_DAY } from './rollup-sql';

/**
 * The tax report (docs/domain.md §18.7) summed a period's invoices and credit notes before its first line: a year is
 * a million documents. It reads their sums per UTC day instead, kept by the documents' own inserts: per day of supply,
 * currency, kind, scheme, place (the tax's, or the buyer's where no tax applied), tax and rate, and for a credit note
 * the day of its sale (a credit note of a sale before the period corrects that sale's quarter). Corrected invoices are
 * left out, as the report leaves them out: a sale counts by its first invoice.
 *
 * Invoices are never rewritten nor deleted (their own trigger refuses it; numbering at commit changes no figure), so
 * a statement-level trigger on insert keeps the rollup exact; a TRUNCATE empties it. Shard rows per key, as the finance
 * rollups have (20261201010100), summed on read.
 */

const KEYS = {
  day: UTC_DAY('i.supplied_at'),
  currency: 'i.currency',
  kind: 'i.kind',
  tax_scheme: 'i.tax_scheme',
  tax_country: 'i.tax_country',
  tax_region: 'i.tax_region',
  // Where no tax applied, the report names the buyer's place: kept only then, so taxed sales share their rows.
  buyer_country: `CASE WHEN i.tax_country IS NULL THEN i.buyer->>'country' END`,
  buyer_region: `CASE WHEN i.tax_country IS NULL THEN i.buyer->>'region' END`,
  tax_name: 'i.tax_name',
  tax_rate_bp: 'i.tax_rate_bp',
  sold_day: `CASE WHEN i.kind = 'credit-note' THEN (COALESCE(sale.supplied_at, i.supplied_at) AT TIME ZONE 'UTC')::date END`,
};

const addDocuments = (invoices: string) =>
  addTo(
    'tax_daily_documents',
    KEYS,
    { documents: 'count(*)', taxable: 'sum(i.taxable)', tax: 'sum(i.tax_amount)' },
    `${invoices} AS i LEFT JOIN invoices sale ON sale.id = i.invoice_id
      WHERE i.kind = 'credit-note' OR i.corrects_id IS NULL`,
    undefined,
    TRANSACTION_SHARD,
  );

export async function up(knex: Knex): Promise<void> {
  await knex.raw(FAIL_FAST_ON_LOCKS);
  await knex.schema.createTable('tax_daily_documents', (t) => {
    t.date('day').notNullable();
    t.text('currency').notNullable();
    t.text('kind').notNullable();
    t.text('tax_scheme').notNullable();
    t.text('tax_country');
    t.text('tax_region');
    t.text('buyer_country');
    t.text('buyer_region');
    t.text('tax_name');
    t.decimal('tax_rate_bp', 5, 1);
    t.date('sold_day'); // credit notes only
    t.smallint('shard').notNullable();
    t.integer('documents').notNullable();
    t.bigInteger('taxable').notNullable();
    t.bigInteger('tax').notNullable();
  });
  await knex.raw(`ALTER TABLE tax_daily_documents ADD CONSTRAINT tax_daily_documents_key
    UNIQUE NULLS NOT DISTINCT (${[...Object.keys(KEYS), 'shard'].join(', ')})`);
  await knex.raw(`
    CREATE FUNCTION tax_daily_documents_add() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      ${addDocuments('new_rows')}
      RETURN NULL;
    END $$;
    CREATE TRIGGER tax_daily_documents_add_inserted AFTER INSERT ON invoices REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION tax_daily_documents_add();
    CREATE TRIGGER invoices_rollups_emptied AFTER TRUNCATE ON invoices
      FOR EACH STATEMENT EXECUTE FUNCTION rollups_emptied('tax_daily_documents');
    ${addDocuments('invoices')}`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER invoices_rollups_emptied ON invoices');
  await knex.raw('DROP FUNCTION tax_daily_documents_add() CASCADE');
  await knex.schema.dropTable('tax_daily_documents');
}
