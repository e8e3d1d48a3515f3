import { REGIONAL_TAX_COUNTRIES, TAX_REGIONS } from '../../tax/places';
import type { VatIdProblem } from '../schemas';

/**
 * Where a buyer is billed, as the tax asks it: a country, the region where it matters, a business's VAT ID, and the
 * ZIP or postal code (Stripe Tax places a US buyer by it). `problem`: what was given names no real place there (a
 * region that is not one of the country's states or provinces, a postal code not written as the country writes them):
 * not used, and the buyer is asked again.
 */
export interface BillingPlace {
  country: string | null;
  region: string | null;
  vatId: string | null;
  postalCode: string | null;
  problem: PlaceProblem | null;
}

export type PlaceProblem = 'region-unknown' | 'postal-code-format';

/** What the buyer gave (query or checkout body), each part optional. */
export interface GivenPlace {
  country?: string | null;
  region?: string | null;
  vatId?: string | null;
  postalCode?: string | null;
}

/** How a country writes its postal codes, where the tax reads them: a ZIP (or ZIP+4), a Canadian "A1A 1A1". */
const POSTAL_CODES: Record<string, { pattern: RegExp; normal: (code: string) => string }> = {
  US: { pattern: /^\d{5}(-\d{4})?$/, normal: (code) => code },
  CA: {
    pattern: /^[A-Z]\d[A-Z] ?\d[A-Z]\d$/,
    normal: (code) => `${code.replace(/ /g, '').slice(0, 3)} ${code.replace(/ /g, '').slice(3)}`,
  },
};

/** A postal code as the country writes it (upper case, one space where Canada puts it), or null if it is not one. */
export function postalCodeOf(country: string | null, given: string): string | null {
  const code = given.trim().toUpperCase().replace(/\s+/g, ' ');
  const format = country ? POSTAL_CODES[country] : undefined;
  if (!format) return code;
  return format.pattern.test(code) ? format.normal(code) : null;
}

/** A region code that is one of the country's states or provinces (the 50 states and DC; 13 provinces/territories). */
export const isRegionOf = (country: string, region: string) => TAX_REGIONS[country]?.has(region) ?? false;

/**
 * The billing place of a quote or checkout: the country the buyer gave, else the detected one; their region, else the
 * proxy's region header, but only for the detected country where regions tax (US states, Canadian provinces) and only
 * when it is one of that country's codes (WA, ON), never a region's name.
 */
export function billingPlace(given: GivenPlace, detected: { country: string; region: string | null }): BillingPlace {
  const country = given.country ?? detected.country;
  const header = detected.region?.trim().toUpperCase() ?? null;
  const detectedRegion = country === detected.country && header && isRegionOf(country, header) ? header : null;
  const regional = REGIONAL_TAX_COUNTRIES.has(country);
  const givenRegion = regional ? (given.region ?? null) : null;
  const regionUnknown = givenRegion !== null && !isRegionOf(country, givenRegion);
  const postalCode = given.postalCode ? postalCodeOf(country, given.postalCode) : null;
  const postalCodeMalformed = Boolean(given.postalCode) && postalCode === null;
  return {
    country,
    region: regionUnknown ? null : (givenRegion ?? (regional ? detectedRegion : null)),
    vatId: given.vatId ?? null,
    postalCode,
    problem: regionUnknown ? 'region-unknown' : postalCodeMalformed ? 'postal-code-format' : null,
  };
}

/** What a buyer hears about billing details the tax cannot use as given. */
export const BILLING_MESSAGES: Record<
  VatIdProblem | 'region-required' | 'region-unknown' | 'postal-code-required',
  string
> = {
  'vat-id-format': 'This VAT number does not look right: check it, or leave it empty to buy as a consumer.',
  'vat-id-other-country': 'This VAT number belongs to another country than the billing country.',
  'region-required': 'Choose your state or province: the tax depends on it.',
  'region-unknown': 'This is not a state or province of the billing country: choose yours from the list.',
  'postal-code-required': 'Enter your ZIP or postal code: the sales tax depends on it.',
};

/** What a buyer hears about a postal code not written as their country writes them. */
export function postalCodeFormatMessage(country: string | null): string {
  if (country === 'US') return 'Enter your ZIP code as 5 digits, such as 98101 (or ZIP+4: 98101-1234).';
  if (country === 'CA') return 'Enter your postal code as letter, digit, letter, digit, letter, digit: A1A 1A1.';
  return 'This postal code does not look right.';
}
