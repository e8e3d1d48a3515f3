import type { BuyerTaxPlace, SellerRegistrations } from './types';
import { isEu, isReverseChargePlace, REGIONAL_TAX_COUNTRIES } from './places';
import { vatIdCountry } from './vat-ids';

export type { SellerRegistrations } from './types';

/**
 * Where a sale of a digital service is taxed (docs/domain.md §18), as a pure function of where the school is
 * registered and where the buyer is. The rate itself comes from the rate table (or Stripe Tax).
 */

export type TaxPlace =
  /** Tax is charged at the rate of this place (the rate table says how much; none there means not taxed). */
  | { kind: 'charge'; country: string; region: string | null }
  /** A business buyer with a VAT ID of their own country accounts for the tax: none is charged, the invoice says so. */
  | { kind: 'reverse-charge'; country: string }
  | { kind: 'none'; reason: 'not-set-up' | 'not-registered' | 'region-needed' };

function registeredIn(seller: SellerRegistrations, country: string, region: string | null): boolean | 'region-needed' {
  // Sales tax in the US is per state: establishment there registers nothing by itself.
  if (country === seller.country && country !== 'US') return true;
  const here = seller.registrations.filter((r) => r.country === country);
  if (!here.length) return false;
  if (here.some((r) => r.region === null))
    return REGIONAL_TAX_COUNTRIES.has(country) && !region ? 'region-needed' : true;
  if (!region) return 'region-needed';
  return here.some((r) => r.region === region);
}

export function taxPlace(seller: SellerRegistrations, buyer: BuyerTaxPlace): TaxPlace {
  if (!seller.country) return { kind: 'none', reason: 'not-set-up' };
  const { country, region } = buyer;
  // A business of another country, identified by a VAT ID of its own country: the reverse charge (B2B).
  const business = buyer.vatId ? vatIdCountry(buyer.vatId) === country : false;
  if (business && country !== seller.country && isReverseChargePlace(country))
    return { kind: 'reverse-charge', country };
  if (isEu(country)) {
    if (country === seller.country) return { kind: 'charge', country, region: null };
    // A consumer elsewhere in the EU pays their own country's rate through the OSS (or a registration there);
    // an EU school without either charges its own rate (sales below the EU-wide threshold).
    if (seller.euOss || registeredIn(seller, country, null) === true) return { kind: 'charge', country, region: null };
    if (isEu(seller.country)) return { kind: 'charge', country: seller.country, region: null };
    return { kind: 'none', reason: 'not-registered' };
  }
  const registered = registeredIn(seller, country, region);
  if (registered === 'region-needed') return { kind: 'none', reason: 'region-needed' };
  if (!registered) return { kind: 'none', reason: 'not-registered' };
  return { kind: 'charge', country, region: REGIONAL_TAX_COUNTRIES.has(country) ? region : null };
}
