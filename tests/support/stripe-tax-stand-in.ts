import { randomBytes } from 'node:crypto';

/**
 * Stripe Tax as the stand-in computes it, with a rate table of its own: where the account is registered, each place's
 * rates per jurisdiction (a US city's on top of its state's, so a combined rate differs from the product's
 * state-only table), the reverse charge for a business with a VAT ID of another country, and Stripe's taxability
 * reasons. Amounts and breakdowns come out in the shapes of Stripe's Tax Calculation and Checkout Session.
 */

/** The stand-in account's country: a school established in Germany. */
export const STAND_IN_TAX_ORIGIN = 'DE';

type TaxType = 'vat' | 'gst' | 'hst' | 'pst' | 'qst' | 'sales_tax';
interface Jurisdiction {
  level: 'country' | 'state' | 'county' | 'city' | 'district';
  name: string;
  percentage: string;
  taxType: TaxType;
}

const vat = (percentage: string, name: string): Jurisdiction[] => [
  { level: 'country', name, percentage, taxType: 'vat' },
];

const EU_VAT: Record<string, string> = {
  AT: '20', BE: '21', BG: '20', CY: '19', CZ: '21', DE: '19', DK: '25', EE: '24', ES: '21', FI: '25.5', FR: '20',
  GR: '24', HR: '25', HU: '27', IE: '23', IT: '22', LT: '21', LU: '17', LV: '21', MT: '18', NL: '21', PL: '23',
  PT: '23', RO: '21', SE: '25', SI: '22', SK: '23',
}; // prettier-ignore

const COUNTRY_RATES: Record<string, Jurisdiction[]> = {
  ...Object.fromEntries(Object.entries(EU_VAT).map(([country, rate]) => [country, vat(rate, country)])),
  GB: vat('20', 'United Kingdom'),
  AU: [{ level: 'country', name: 'Australia', percentage: '10', taxType: 'gst' }],
  NZ: [{ level: 'country', name: 'New Zealand', percentage: '15', taxType: 'gst' }],
};

const GST: Jurisdiction = { level: 'country', name: 'Canada', percentage: '5', taxType: 'gst' };
const STATE_RATES: Record<string, Record<string, Jurisdiction[]>> = {
  US: {
    // Seattle's combined rate: the state's 6.5 % and the city's 3.85 %.
    WA: [
      { level: 'state', name: 'Washington', percentage: '6.5', taxType: 'sales_tax' },
      { level: 'city', name: 'Seattle', percentage: '3.85', taxType: 'sales_tax' },
    ],
    NY: [
      { level: 'state', name: 'New York', percentage: '4', taxType: 'sales_tax' },
      { level: 'city', name: 'New York City', percentage: '4.5', taxType: 'sales_tax' },
      { level: 'district', name: 'MCTD', percentage: '0.375', taxType: 'sales_tax' },
    ],
    TX: [
      { level: 'state', name: 'Texas', percentage: '6.25', taxType: 'sales_tax' },
      { level: 'city', name: 'Austin', percentage: '2', taxType: 'sales_tax' },
    ],
  },
  CA: {
    ON: [{ level: 'state', name: 'Ontario', percentage: '13', taxType: 'hst' }],
    BC: [GST, { level: 'state', name: 'British Columbia', percentage: '7', taxType: 'pst' }],
    QC: [GST, { level: 'state', name: 'Quebec', percentage: '9.975', taxType: 'qst' }],
    AB: [GST],
  },
};

/** US states that tax no digital courses (or have no sales tax): Stripe answers not_subject_to_tax. */
const UNTAXED_STATES = new Set(['US:CA', 'US:OR', 'US:MT', 'US:NH', 'US:DE']);

const EU = new Set(Object.keys(EU_VAT));

/** A place the stand-in account collects in: a whole country, or one US state. */
export interface StandInRegistration {
  country: string;
  state?: string;
}

export interface TaxPlaceInput {
  country: string | undefined;
  state: string | undefined;
  postalCode?: string | undefined;
  taxIds: { type: string; value: string }[];
}

/**
 * The state of a US ZIP code, by its first three digits, for the ranges the tests use (Stripe knows them all): a ZIP
 * places a buyer without a state, as Stripe's address matching does.
 */
const ZIP_STATES: [from: number, to: number, state: string][] = [
  [100, 149, 'NY'],
  [750, 799, 'TX'],
  [900, 961, 'CA'],
  [970, 979, 'OR'],
  [980, 994, 'WA'],
];
/** Canada's provinces by a postal code's first letter (Ontario and Quebec have several). */
const POSTAL_PROVINCES: Record<string, string> = {
  A: 'NL', B: 'NS', C: 'PE', E: 'NB', G: 'QC', H: 'QC', J: 'QC', K: 'ON', L: 'ON', M: 'ON', N: 'ON', P: 'ON',
  R: 'MB', S: 'SK', T: 'AB', V: 'BC', X: 'NT', Y: 'YT',
}; // prettier-ignore

/**
 * Where Stripe Tax places an address, or TaxLocationError (Stripe's customer_tax_location_invalid): a US address needs
 * a ZIP code (country and state are not enough: docs "Collect customer addresses"), a Canadian one a province or a
 * postal code, anywhere else the country.
 */
export function locate(place: Pick<TaxPlaceInput, 'country' | 'state' | 'postalCode'>): {
  country: string;
  state: string | null;
} {
  const { country, postalCode } = place;
  if (!country) throw new TaxLocationError('The customer address is missing a country.');
  if (country === 'US') {
    if (!postalCode || !/^\d{5}(-\d{4})?$/.test(postalCode))
      throw new TaxLocationError('The customer address in US needs a valid postal code to calculate tax.');
    const prefix = Number(postalCode.slice(0, 3));
    // No ZIP code starts 000 to 004: Stripe cannot place one (00000, say), whatever the state.
    if (prefix < 5) throw new TaxLocationError(`The postal code ${postalCode} could not be located.`);
    const zipState = ZIP_STATES.find(([from, to]) => prefix >= from && prefix <= to)?.[2] ?? null;
    const state = place.state ?? zipState;
    if (!state) throw new TaxLocationError(`The postal code ${postalCode} could not be located.`);
    return { country, state };
  }
  if (country === 'CA') {
    const state = place.state ?? POSTAL_PROVINCES[postalCode?.charAt(0).toUpperCase() ?? ''] ?? null;
    if (!state)
      throw new TaxLocationError('The customer address in CA needs a province or postal code to calculate tax.');
    return { country, state };
  }
  return { country, state: place.state ?? null };
}

/** One jurisdiction's share of a sale's tax, in Stripe's breakdown terms. */
export interface TaxShare {
  amount: number;
  taxableAmount: number;
  inclusive: boolean;
  country: string;
  state: string | null;
  percentage: string;
  taxType: TaxType;
  reason: string;
  jurisdiction: Jurisdiction;
}

export class TaxLocationError extends Error {}

/** Millionths of a percent: exact for any rate Stripe writes. */
function micro(percentage: string): number {
  const [whole, fraction = ''] = percentage.split('.');
  return Number(whole) * 1_000_000 + Number(fraction.padEnd(6, '0').slice(0, 6));
}

const roundDiv = (n: number, d: number) => Math.floor((2 * n + d) / (2 * d));

/** The tax of `amount` at rates given in millionths of a percent: inside it, or on top. */
function taxOf(amount: number, microRate: number, inclusive: boolean): number {
  return inclusive ? roundDiv(amount * microRate, 100_000_000 + microRate) : roundDiv(amount * microRate, 100_000_000);
}

export function standInTax(registrations: readonly StandInRegistration[]) {
  const registeredIn = (country: string, state: string | null) =>
    registrations.some((r) => r.country === country && (!r.state || r.state === state)) ||
    // The EU's One-Stop Shop: registered once, collecting in every member state.
    (EU.has(country) && registrations.some((r) => r.country === 'EU'));

  /** The breakdown of a sale's tax at the buyer's place, one share per jurisdiction. */
  function shares(amount: number, inclusive: boolean, place: TaxPlaceInput): TaxShare[] {
    const { country, state } = locate(place);
    const jurisdictions =
      STATE_RATES[country]?.[state ?? ''] ??
      COUNTRY_RATES[country] ??
      (country === 'CA'
        ? [GST]
        : [{ level: 'country' as const, name: country, percentage: '0', taxType: 'vat' as const }]);
    const zero = (reason: string): TaxShare[] => [
      {
        amount: 0,
        taxableAmount: amount,
        inclusive,
        country,
        state,
        percentage: '0.0',
        taxType: jurisdictions[0]!.taxType,
        reason,
        jurisdiction: jurisdictions[0]!,
      },
    ];
    const business = place.taxIds.some((id) => ['eu_vat', 'gb_vat'].includes(id.type));
    if (business && country !== STAND_IN_TAX_ORIGIN && (EU.has(country) || country === 'GB'))
      return zero('reverse_charge');
    if (UNTAXED_STATES.has(`${country}:${state}`)) return zero('not_subject_to_tax');
    if (!registeredIn(country, state)) return zero('not_collecting');
    // One rounding for the sale (as the product rounds), shared among the jurisdictions, the last taking the cents.
    const rates = jurisdictions.map((j) => micro(j.percentage));
    const combined = rates.reduce((a, b) => a + b, 0);
    const total = taxOf(amount, combined, inclusive);
    const taxable = inclusive ? amount - total : amount;
    let given = 0;
    return jurisdictions.map((jurisdiction, i) => {
      const share = i === jurisdictions.length - 1 ? total - given : roundDiv(total * rates[i]!, combined);
      given += share;
      return {
        amount: share,
        taxableAmount: taxable,
        inclusive,
        country,
        state: jurisdiction.level === 'country' ? null : state,
        percentage: jurisdiction.percentage,
        taxType: jurisdiction.taxType,
        reason: 'standard_rated',
        jurisdiction,
      };
    });
  }

  /** A share as a Checkout Session's breakdown entry, its rate a Stripe TaxRate. */
  function sessionEntry(share: TaxShare) {
    const percentage = Number(share.percentage);
    return {
      amount: share.amount,
      rate: {
        id: `txr_${randomBytes(12).toString('hex')}`,
        object: 'tax_rate',
        active: true,
        country: share.country,
        state: share.state,
        created: Math.floor(Date.now() / 1000),
        description: null,
        display_name: { vat: 'VAT', gst: 'GST', hst: 'HST', pst: 'PST', qst: 'QST', sales_tax: 'Sales Tax' }[
          share.taxType
        ],
        effective_percentage: percentage,
        percentage,
        flat_amount: null,
        inclusive: share.inclusive,
        jurisdiction: share.jurisdiction.name,
        jurisdiction_level: share.jurisdiction.level === 'district' ? 'multiple' : share.jurisdiction.level,
        livemode: false,
        metadata: {},
        rate_type: 'percentage',
        tax_type: share.taxType,
      },
      taxability_reason: share.reason,
      taxable_amount: share.taxableAmount,
    };
  }

  /** A share as a Tax Calculation's breakdown entry. */
  function calculationEntry(share: TaxShare) {
    return {
      amount: share.amount,
      inclusive: share.inclusive,
      tax_rate_details: {
        country: share.country,
        flat_amount: null,
        percentage_decimal: share.percentage,
        rate_type: 'percentage',
        state: share.state,
        tax_type: share.taxType,
      },
      taxability_reason: share.reason,
      taxable_amount: share.taxableAmount,
    };
  }

  return { shares, sessionEntry, calculationEntry };
}
