import type { Knex } from 'knex';
import type { ReadCaches } from '../cache/read-cache';
import { taxInside, taxOnTop } from './amounts';
import { taxPlace, type TaxPlace } from './rules';
import type { TaxAnswer, TaxCalculator, TaxQuestion, TaxSetup } from './types';

export type { TaxSetup } from './types';

export async function readTaxSetup(conn: Knex): Promise<TaxSetup> {
  const [school, registrations, rates] = await Promise.all([
    conn('schoolSettings').first('taxCountry', 'taxId', 'taxEuOss', 'taxInclusiveCurrencies'),
    conn('taxRegistrations').select('country', 'region'),
    conn('taxRates').select('country', 'region', 'rateBp', 'name'),
  ]);
  return {
    seller: { country: school.taxCountry, euOss: school.taxEuOss, registrations },
    taxId: school.taxId,
    inclusiveCurrencies: school.taxInclusiveCurrencies,
    rates,
  };
}

/** The school's tax setup through the read cache (a change shows on other replicas within READ_CACHE_MS). */
export function taxSetupReader({ db, caches }: { db: Knex; caches: Pick<ReadCaches, 'cached'> }) {
  const read = caches.cached(() => readTaxSetup(db), { max: 1 });
  return {
    read: () => read('tax'),
    forget: () => read.forget('tax'),
    /** The prices of this currency include tax. */
    inclusive: async (currency: string) => (await read('tax')).inclusiveCurrencies.includes(currency.toLowerCase()),
  };
}

export type TaxSetupReader = ReturnType<typeof taxSetupReader>;

/** The rate of a place: its region's row, else its country's; none (or 0) means the place does not tax it. */
function rateOf(setup: TaxSetup, place: Extract<TaxPlace, { kind: 'charge' }>) {
  const exact = setup.rates.find((r) => r.country === place.country && r.region === place.region);
  return exact ?? setup.rates.find((r) => r.country === place.country && r.region === null) ?? null;
}

/** A sale's tax from a setup: pure, so the pricing simulator and tests use it as checkout does. */
export function taxFrom(setup: TaxSetup, question: TaxQuestion): TaxAnswer | null {
  const place = taxPlace(setup.seller, question.buyer);
  const { amount, inclusive } = question;
  if (place.kind === 'none') return null;
  if (place.kind === 'reverse-charge') {
    const name = setup.rates.find((r) => r.country === place.country && r.region === null)?.name ?? 'VAT';
    const base = { country: place.country, region: null, rate: 0, amount: 0, inclusive, reverseCharge: true };
    return { ...base, name, taxable: amount, source: 'built-in' };
  }
  const rate = rateOf(setup, place);
  if (!rate || rate.rateBp === 0) return null;
  const tax = inclusive ? taxInside(amount, rate.rateBp) : taxOnTop(amount, rate.rateBp);
  return {
    country: place.country,
    region: place.region,
    rate: rate.rateBp,
    amount: tax,
    inclusive,
    reverseCharge: false,
    name: rate.name,
    taxable: inclusive ? amount - tax : amount,
    source: 'built-in',
  };
}

/** The built-in engine: the school's registrations and the rate table it edits in the console. */
export function builtInTax(setup: Pick<TaxSetupReader, 'read'>): TaxCalculator {
  return { calculate: async (question, options) => taxFrom(options?.setup ?? (await setup.read()), question) };
}
