import type { Knex } from 'knex';

/** A registration where the school collects tax: a country, or a US state or Canadian province. */
export interface Registration {
  country: string;
  region: string | null;
}

/** A rate the built-in engine charges, in basis points, under its name on invoices. */
export interface Rate extends Registration {
  rateBp: number;
  name: string;
}

/** The rates the tax tests charge: Germany's and France's VAT, the UK's, Washington's and California's sales tax. */
export const TEST_RATES: Rate[] = [
  { country: 'DE', region: null, rateBp: 1900, name: 'VAT' },
  { country: 'FR', region: null, rateBp: 2000, name: 'VAT' },
  { country: 'GB', region: null, rateBp: 2000, name: 'VAT' },
  { country: 'US', region: 'WA', rateBp: 650, name: 'Sales tax' },
  { country: 'US', region: 'CA', rateBp: 725, name: 'Sales tax' },
];

/**
 * Sets the school's tax up as the tax tests need it (docs/domain.md §18): established in `country` (Germany unless
 * said), registered for the EU's One-Stop Shop and wherever `registrations` name (those before kept when not said), euro
 * prices including tax and others not, charging `rates` (TEST_RATES unless said; the rates before are replaced).
 */
export async function setSchoolTax(
  db: Knex,
  {
    country = 'DE',
    taxId = 'DE123456789',
    registrations,
    rates = TEST_RATES,
  }: { country?: string; taxId?: string; registrations?: Registration[]; rates?: Rate[] } = {},
): Promise<void> {
  await db('schoolSettings').update({ taxCountry: country, taxId, taxEuOss: true, taxInclusiveCurrencies: ['eur'] });
  if (registrations) {
    await db('taxRegistrations').delete();
    if (registrations.length) await db('taxRegistrations').insert(registrations);
  }
  await db('taxRates').delete();
  await db('taxRates').insert(rates);
}
