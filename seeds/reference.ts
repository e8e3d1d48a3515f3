import type { Knex } from 'knex';
import referenceRates from '../api/src/tax/data/digital-services-rates.json';

/** The built-in test payment provider's merchant account: the zero-configuration default. */
export const TEST_MERCHANT_ACCOUNT = { label: 'test', identifier: 'test-provider', status: 'active' } as const;

/** The standard rates for digital services the rate table starts with (api/src/tax/data/), as of their date. */
export const REFERENCE_TAX_RATES = {
  asOf: referenceRates.asOf,
  rates: referenceRates.rates.map(({ country, region, rateBp, name }) => ({ country, region, rateBp, name })),
};

/**
 * The reference rates, once per edition of the data: each place gets its row when it has none, so the school's own
 * edits stand, and a row it deleted is not put back until the data's date moves on (a school stops taxing a place for
 * good with a rate of 0 %, which the engine reads as not taxed). The seed_runs row is claimed in the same
 * transaction, so two starts at once load it once.
 */
async function seedTaxRates(db: Knex | Knex.Transaction): Promise<void> {
  await db.transaction(async (trx) => {
    const run = `tax-rates ${REFERENCE_TAX_RATES.asOf}`;
    const claimed = await trx('seedRuns').insert({ name: run }).onConflict('name').ignore().returning('name');
    if (!claimed.length) return;
    await trx.raw(
      `INSERT INTO tax_rates (country, region, rate_bp, name)
       SELECT country, region, rate_bp, name
         FROM jsonb_to_recordset(?::jsonb) AS r(country text, region text, rate_bp numeric, name text)
       ON CONFLICT (country, coalesce(region, '')) DO NOTHING`,
      [JSON.stringify(REFERENCE_TAX_RATES.rates.map(({ rateBp, ...rate }) => ({ ...rate, rate_bp: rateBp })))],
    );
  });
}

/** Reference data every installation needs. Safe to run on every start. */
export async function seedReferenceData(db: Knex | Knex.Transaction): Promise<void> {
  // Any conflict: two starts at once race on the label and the identifier alike.
  await db('merchantAccounts').insert(TEST_MERCHANT_ACCOUNT).onConflict().ignore();
  await seedTaxRates(db);
}
