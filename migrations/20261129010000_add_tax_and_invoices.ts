import type { Knex } from 'knex';
import { addUpdatedAtTrigger, inList, timestamps } from './helpers';

const INVOICE_KINDS = ['invoice', 'credit-note'];
const TAX_SCHEMES = ['domestic', 'eu-oss', 'reverse-charge', 'registration', 'not-taxed'];

/**
 * A sale's tax as columns (the tax report groups by them): where it was due, at what rate, inside the price or on top,
 * reverse-charged, and how much. No tax: tax_country null and tax_amount 0.
 */
function taxColumns(t: Knex.AlterTableBuilder | Knex.CreateTableBuilder, table: string): void {
  t.text('tax_country');
  t.text('tax_region');
  // Basis points to a tenth: Quebec's GST and QST together are 14.975 %, 1497.5 bp.
  t.decimal('tax_rate_bp', 5, 1);
  t.text('tax_name');
  t.boolean('tax_inclusive');
  t.boolean('tax_reverse_charge').notNullable().defaultTo(false);
  t.integer('tax_amount').notNullable().defaultTo(0);
  t.check(
    `(tax_country IS NULL) = (tax_rate_bp IS NULL) AND (tax_country IS NULL) = (tax_inclusive IS NULL)
     AND (tax_country IS NULL) = (tax_name IS NULL) AND (tax_country IS NOT NULL OR tax_amount = 0)
     AND (NOT tax_reverse_charge OR (tax_rate_bp = 0 AND tax_amount = 0)) AND tax_amount >= 0`,
    [],
    `${table}_tax_consistent`,
  );
}

/**
 * Tax and the documents a finance team files (docs/domain.md §18): where the school is registered, the rate table the
 * built-in tax engine reads, the buyer's billing details, the tax each checkout quoted and each charge and refund
 * carried, and invoices and credit notes numbered without gaps, one sequence per kind and year, never rewritten.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('school_settings', (t) => {
    // Where the school is established (ISO 3166-1 alpha-2); null: no tax is charged anywhere.
    t.text('tax_country');
    // The school's own VAT or tax number, printed on every invoice.
    t.text('tax_id').notNullable().defaultTo('');
    // Registered for the EU's One-Stop Shop: consumers in every member state pay their own country's rate.
    t.boolean('tax_eu_oss').notNullable().defaultTo(false);
    // Currencies whose prices already include tax (the buyer pays the price shown, tax inside it).
    t.specificType('tax_inclusive_currencies', 'text[]').notNullable().defaultTo('{}');
    t.check(`tax_country IS NULL OR tax_country ~ '^[A-Z]{2}$'`, [], 'school_settings_tax_country_code');
  });

  // Where else the school is registered to collect tax: a country (every region of it), or one region (a US state).
  await knex.schema.createTable('tax_registrations', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('country').notNullable();
    t.text('region');
    timestamps(knex, t);
    t.check(`country ~ '^[A-Z]{2}$'`, [], 'tax_registrations_country_code');
    t.check(`region IS NULL OR region ~ '^[A-Z0-9]{1,3}$'`, [], 'tax_registrations_region_code');
  });
  await knex.raw(
    `CREATE UNIQUE INDEX tax_registrations_place_unique ON tax_registrations (country, coalesce(region, ''))`,
  );

  // The built-in engine's rates for digital services, per country or region, in basis points (1900 = 19 %).
  await knex.schema.createTable('tax_rates', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('country').notNullable();
    t.text('region');
    t.decimal('rate_bp', 5, 1).notNullable();
    // What the tax is called on the invoice: VAT, GST, HST, Sales tax.
    t.text('name').notNullable();
    timestamps(knex, t);
    t.check(`country ~ '^[A-Z]{2}$'`, [], 'tax_rates_country_code');
    t.check(`region IS NULL OR region ~ '^[A-Z0-9]{1,3}$'`, [], 'tax_rates_region_code');
    t.check(`rate_bp BETWEEN 0 AND 5000`, [], 'tax_rates_rate_range');
    t.check(`char_length(name) BETWEEN 1 AND 30`, [], 'tax_rates_name_length');
  });
  await knex.raw(`CREATE UNIQUE INDEX tax_rates_place_unique ON tax_rates (country, coalesce(region, ''))`);
  await addUpdatedAtTrigger(knex, 'tax_rates');

  // The buyer's billing details, remembered for the next checkout and for correcting an invoice.
  await knex.schema.createTable('billing_profiles', (t) => {
    t.uuid('user_id').primary().references('users.id').onDelete('CASCADE');
    t.text('company').notNullable().defaultTo('');
    t.text('address').notNullable().defaultTo('');
    t.text('country');
    t.text('region');
    t.text('vat_id').notNullable().defaultTo('');
    timestamps(knex, t);
    t.check(`country IS NULL OR country ~ '^[A-Z]{2}$'`, [], 'billing_profiles_country_code');
  });
  await addUpdatedAtTrigger(knex, 'billing_profiles');

  await knex.schema.alterTable('checkouts', (t) => {
    // The billing details given before paying (copied to the invoice); the tax follows billing_country.
    t.text('billing_company');
    t.text('billing_address');
    t.text('billing_country');
    t.text('billing_region');
    t.text('billing_vat_id');
    // The one percentage discount as the invoice names it (its coupon is coupon_id): kind, rate and amount.
    t.text('discount_kind');
    t.integer('discount_bp');
    t.integer('discount_amount').notNullable().defaultTo(0);
    t.check(
      `discount_kind IS NULL OR discount_kind IN ('ppp', 'team', 'coupon', 'default-coupon')`,
      [],
      'checkouts_discount_kind_known',
    );
    // The tax quoted, inside amount_total (inclusive) or added to it (exclusive): amount_total is what is charged.
    taxColumns(t, 'checkouts');
    t.check(`tax_amount <= amount_total`, [], 'checkouts_tax_within_total');
  });

  await knex.schema.alterTable('merchant_charges', (t) => {
    // The tax the charge carried, as the provider computed it (Stripe Tax) or as quoted (built-in): never revenue.
    taxColumns(t, 'merchant_charges');
    // The tax given back by refunds so far: in proportion to the refunded total, all of it once refunded in full.
    t.integer('refunded_tax').notNullable().defaultTo(0);
    t.check(`tax_amount <= amount`, [], 'merchant_charges_tax_within_amount');
    t.check(`refunded_tax >= 0 AND refunded_tax <= tax_amount`, [], 'merchant_charges_refunded_tax_range');
  });

  // The tax part of a disputed amount (in the charge's proportion): the revenue the ledger takes back is the rest.
  await knex.schema.alterTable('merchant_disputes', (t) => {
    t.integer('tax_amount').notNullable().defaultTo(0);
    t.check(`tax_amount >= 0`, [], 'merchant_disputes_tax_amount_positive');
  });

  await knex.schema.createTable('invoice_counters', (t) => {
    t.text('kind').notNullable();
    t.integer('year').notNullable();
    t.integer('last').notNullable();
    t.primary(['kind', 'year']);
    t.check(`kind IN (${inList(INVOICE_KINDS)})`, [], 'invoice_counters_kind_known');
  });

  await knex.schema.createTable('invoices', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('kind').notNullable();
    t.text('number').notNullable().unique();
    t.integer('year').notNullable();
    t.integer('sequence').notNullable();
    t.timestamp('issued_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // The date of supply (the sale's payment; a credit note's refund): the tax report's period follows it.
    t.timestamp('supplied_at', { useTz: true }).notNullable();
    // How the tax return treats it: at home, through the EU OSS, reverse-charged, under another registration, or
    // not taxed; decided when issued from the school's registrations then.
    t.text('tax_scheme').notNullable();
    t.uuid('merchant_charge_id').notNullable().references('merchant_charges.id').onDelete('RESTRICT');
    t.uuid('purchase_id').references('purchases.id').onDelete('RESTRICT');
    // Who paid: theirs for ever, whoever holds the purchase later (a transfer, a seat).
    t.uuid('payer_user_id').notNullable().references('users.id').onDelete('RESTRICT');
    // A corrected invoice: the one it replaces (which stays as it was).
    t.uuid('corrects_id').references('invoices.id').onDelete('RESTRICT');
    // A credit note: the invoice it credits, and the charge's refunded total it brought about (one note each).
    t.uuid('invoice_id').references('invoices.id').onDelete('RESTRICT');
    t.integer('refunded_to');
    t.jsonb('seller').notNullable();
    t.jsonb('buyer').notNullable();
    t.jsonb('lines').notNullable();
    // Amounts in the currency's minor unit, positive for both kinds (a credit note's kind says it takes back).
    t.integer('subtotal').notNullable();
    t.integer('discount').notNullable().defaultTo(0);
    t.integer('taxable').notNullable();
    taxColumns(t, 'invoices');
    t.integer('total').notNullable();
    t.text('currency').notNullable();
    t.check(`kind IN (${inList(INVOICE_KINDS)})`, [], 'invoices_kind_known');
    t.check(`sequence > 0`, [], 'invoices_sequence_positive');
    t.check(`tax_scheme IN (${inList(TAX_SCHEMES)})`, [], 'invoices_tax_scheme_known');
    t.check(`total >= 0 AND tax_amount >= 0 AND taxable >= 0 AND taxable + tax_amount = total`, [], 'invoices_sums');
    t.check(
      `(kind = 'credit-note') = (invoice_id IS NOT NULL AND refunded_to IS NOT NULL)`,
      [],
      'invoices_credit_note_refers',
    );
    t.check(`kind = 'invoice' OR corrects_id IS NULL`, [], 'invoices_only_invoices_corrected');
    t.unique(['kind', 'year', 'sequence']);
    t.index(['payer_user_id', 'issued_at']);
    t.index('merchant_charge_id');
    t.index('issued_at');
    t.index('supplied_at');
  });
  await knex.raw(
    `CREATE UNIQUE INDEX invoices_credit_note_once ON invoices (merchant_charge_id, refunded_to) WHERE kind = 'credit-note'`,
  );
  await knex.raw(`
    CREATE FUNCTION invoices_never_rewritten() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'invoices are never rewritten: issue a corrected invoice or a credit note'
      USING ERRCODE = 'check_violation'; END $$;
    CREATE TRIGGER invoices_never_rewritten BEFORE UPDATE OR DELETE ON invoices
      FOR EACH ROW EXECUTE FUNCTION invoices_never_rewritten();
  `);
}

const TAX_COLUMNS = [
  'tax_country',
  'tax_region',
  'tax_rate_bp',
  'tax_name',
  'tax_inclusive',
  'tax_reverse_charge',
  'tax_amount',
];

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('invoices');
  await knex.raw('DROP FUNCTION invoices_never_rewritten()');
  await knex.schema.dropTable('invoice_counters');
  await knex.schema.alterTable('merchant_disputes', (t) => {
    t.dropChecks(['merchant_disputes_tax_amount_positive']);
    t.dropColumn('tax_amount');
  });
  await knex.schema.alterTable('merchant_charges', (t) => {
    t.dropChecks([
      'merchant_charges_tax_within_amount',
      'merchant_charges_refunded_tax_range',
      'merchant_charges_tax_consistent',
    ]);
    t.dropColumns(...TAX_COLUMNS, 'refunded_tax');
  });
  await knex.schema.alterTable('checkouts', (t) => {
    t.dropChecks(['checkouts_tax_within_total', 'checkouts_tax_consistent', 'checkouts_discount_kind_known']);
    t.dropColumns(
      ...['billing_company', 'billing_address', 'billing_country', 'billing_region', 'billing_vat_id'],
      ...['discount_kind', 'discount_bp', 'discount_amount'],
      ...TAX_COLUMNS,
    );
  });
  await knex.schema.dropTable('billing_profiles');
  await knex.schema.dropTable('tax_rates');
  await knex.schema.dropTable('tax_registrations');
  await knex.schema.alterTable('school_settings', (t) => {
    t.dropChecks(['school_settings_tax_country_code']);
    t.dropColumns('tax_country', 'tax_id', 'tax_eu_oss', 'tax_inclusive_currencies');
  });
}
