import data from './data/ppp-price-level-ratios.json';
import { pppDiscountBp } from './prices';

const RATIOS: Record<string, number> = (data as { ratios: Record<string, number> }).ratios;

/** The regional discount offered to buyers in a country (ISO 3166-1 alpha-2), in basis points, or null. */
export function pppForCountry(country: string | null): number | null {
  return country ? pppDiscountBp(RATIOS[country.toUpperCase()]) : null;
}
