/** The places tax rules speak of: the EU's member states, and countries whose tax is set per region. */

export const EU_MEMBER_STATES: ReadonlySet<string> = new Set([
  'AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'HU',
  'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK',
]); // prettier-ignore

export const isEu = (country: string) => EU_MEMBER_STATES.has(country);

/** Where tax depends on the state or province, so a buyer there names theirs. */
export const REGIONAL_TAX_COUNTRIES: ReadonlySet<string> = new Set(['US', 'CA']);

/** Where a business buyer's VAT ID moves the tax to them (reverse charge): the EU and the United Kingdom. */
export const isReverseChargePlace = (country: string) => isEu(country) || country === 'GB';

/** The regions tax is set by, as postal codes: the US's states (and DC), Canada's provinces and territories. */
export const TAX_REGIONS: Readonly<Record<string, ReadonlySet<string>>> = {
  US: new Set([
    'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS',
    'KY', 'LA', 'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC',
    'ND', 'OH', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY',
  ]),
  CA: new Set(['AB', 'BC', 'MB', 'NB', 'NL', 'NS', 'NT', 'NU', 'ON', 'PE', 'QC', 'SK', 'YT']),
}; // prettier-ignore
