// How the tax figures name their places and months (the card's table and its lazily loaded chart alike).

const countryNames = new Intl.DisplayNames(['en'], { type: 'region' });

/** "FR" → "France"; a code Intl does not know stays as it is. */
export const countryName = (code: string) => countryNames.of(code) ?? code;

/** "2026-11" → "Nov 2026". */
export const monthLabel = (month: string) =>
  new Date(`${month}-01T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });
