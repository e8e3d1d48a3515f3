/** Country codes as the school's settings, the rate table and billing details take them (no dependencies). */

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
/** Codes Intl names that are no country: unions, reserved and pseudo regions, and the UK's non-ISO alias of GB. */
const NOT_COUNTRIES = new Set([
  'AC',
  'CP',
  'CQ',
  'DG',
  'EA',
  'EU',
  'EZ',
  'IC',
  'QO',
  'TA',
  'UK',
  'UN',
  'XA',
  'XB',
  'ZZ',
]);

/** An ISO 3166-1 alpha-2 code of a country or territory, upper case: DE, GB, US; never XX, EU or UK. */
export const isCountryCode = (code: string): boolean =>
  /^[A-Z]{2}$/.test(code) && !NOT_COUNTRIES.has(code) && regionNames.of(code) !== undefined;

/** A country's name in English (Germany for DE), or the code itself when it names none. */
export const countryName = (code: string): string => (isCountryCode(code) && regionNames.of(code)) || code;

/** Every country code, A to Z: the console's country choices. */
export const COUNTRY_CODES: readonly string[] = Array.from({ length: 26 * 26 }, (_, i) =>
  String.fromCharCode(65 + Math.floor(i / 26), 65 + (i % 26)),
).filter(isCountryCode);
