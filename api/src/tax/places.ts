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
