import { REGIONAL_TAX_COUNTRIES } from '../../tax/places';
import type { VatIdProblem } from '../schemas';

/** Where a buyer is billed, as the tax asks it: a country, the region where it matters, and a business's VAT ID. */
export interface BillingPlace {
  country: string | null;
  region: string | null;
  vatId: string | null;
}

/** What the buyer gave (query or checkout body), each part optional. */
export interface GivenPlace {
  country?: string | null;
  region?: string | null;
  vatId?: string | null;
}

/**
 * The billing place of a quote or checkout: the country the buyer gave, else the detected one; their region, else the
 * proxy's region header, but only for the detected country where regions tax (US states, Canadian provinces) and only
 * when it is a code (WA, ON), never a region's name.
 */
export function billingPlace(given: GivenPlace, detected: { country: string; region: string | null }): BillingPlace {
  const country = given.country ?? detected.country;
  const header = detected.region?.trim().toUpperCase() ?? null;
  const detectedRegion = country === detected.country && header && /^[A-Z0-9]{1,3}$/.test(header) ? header : null;
  const region = REGIONAL_TAX_COUNTRIES.has(country) ? (given.region ?? detectedRegion) : null;
  return { country, region, vatId: given.vatId ?? null };
}

/** What a buyer hears about billing details the tax cannot use as given. */
export const BILLING_MESSAGES: Record<VatIdProblem | 'region-required', string> = {
  'vat-id-format': 'This VAT number does not look right: check it, or leave it empty to buy as a consumer.',
  'vat-id-other-country': 'This VAT number belongs to another country than the billing country.',
  'region-required': 'Choose your state or province: the tax depends on it.',
};
