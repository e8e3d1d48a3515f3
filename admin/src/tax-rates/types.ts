/** A rate of the built-in tax engine, as the console reads it. */
export interface TaxRate {
  id: string;
  country: string;
  region: string | null;
  rateBp: number;
  name: string;
}

/** Where a rate applies: the country, or its region (DE, US-WA). */
export const placeOf = (r: Pick<TaxRate, 'country' | 'region'>) => (r.region ? `${r.country}-${r.region}` : r.country);
