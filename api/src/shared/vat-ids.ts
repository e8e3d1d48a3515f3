/**
 * VAT identification numbers by format, as the EU's VIES and HMRC write them: a country prefix (Greece's is EL) and
 * the national pattern. A format check only: it catches typing mistakes and a number of another country; whether the
 * number is registered is the tax office's to say (docs/domain.md §18).
 */

const FORMATS: Record<string, { prefix: string; pattern: RegExp }> = {
  AT: { prefix: 'ATU', pattern: /^\d{8}$/ },
  BE: { prefix: 'BE', pattern: /^[01]\d{9}$/ },
  BG: { prefix: 'BG', pattern: /^\d{9,10}$/ },
  CY: { prefix: 'CY', pattern: /^\d{8}[A-Z]$/ },
  CZ: { prefix: 'CZ', pattern: /^\d{8,10}$/ },
  DE: { prefix: 'DE', pattern: /^\d{9}$/ },
  DK: { prefix: 'DK', pattern: /^\d{8}$/ },
  EE: { prefix: 'EE', pattern: /^\d{9}$/ },
  ES: { prefix: 'ES', pattern: /^[A-Z0-9]\d{7}[A-Z0-9]$/ },
  FI: { prefix: 'FI', pattern: /^\d{8}$/ },
  FR: { prefix: 'FR', pattern: /^[A-HJ-NP-Z0-9]{2}\d{9}$/ },
  GR: { prefix: 'EL', pattern: /^\d{9}$/ },
  HR: { prefix: 'HR', pattern: /^\d{11}$/ },
  HU: { prefix: 'HU', pattern: /^\d{8}$/ },
  IE: { prefix: 'IE', pattern: /^(\d{7}[A-W][A-IW]?|\d[A-Z+*]\d{5}[A-W])$/ },
  IT: { prefix: 'IT', pattern: /^\d{11}$/ },
  LT: { prefix: 'LT', pattern: /^(\d{9}|\d{12})$/ },
  LU: { prefix: 'LU', pattern: /^\d{8}$/ },
  LV: { prefix: 'LV', pattern: /^\d{11}$/ },
  MT: { prefix: 'MT', pattern: /^\d{8}$/ },
  NL: { prefix: 'NL', pattern: /^\d{9}B\d{2}$/ },
  PL: { prefix: 'PL', pattern: /^\d{10}$/ },
  PT: { prefix: 'PT', pattern: /^\d{9}$/ },
  RO: { prefix: 'RO', pattern: /^\d{2,10}$/ },
  SE: { prefix: 'SE', pattern: /^\d{10}01$/ },
  SI: { prefix: 'SI', pattern: /^\d{8}$/ },
  SK: { prefix: 'SK', pattern: /^\d{10}$/ },
  GB: { prefix: 'GB', pattern: /^(\d{9}|\d{12}|GD[0-4]\d{2}|HA[5-9]\d{2})$/ },
};

/** The countries whose VAT IDs are known here: the EU's member states and the United Kingdom. */
export const VAT_ID_COUNTRIES: readonly string[] = Object.keys(FORMATS);

/** A VAT ID as written on an invoice: upper case, without the spaces, dots and dashes people type. */
export function normalizeVatId(value: string): string {
  return value.toUpperCase().replace(/[\s.\-_/]/g, '');
}

/** The country a VAT ID belongs to by its format, or null when it matches none (or is empty). */
export function vatIdCountry(value: string): string | null {
  const id = normalizeVatId(value);
  for (const [country, { prefix, pattern }] of Object.entries(FORMATS))
    if (id.startsWith(prefix) && pattern.test(id.slice(prefix.length))) return country;
  return null;
}

/** Why a VAT ID cannot be used for a buyer in `country`, or null when its format fits that country. */
export function vatIdProblem(value: string, country: string): 'vat-id-format' | 'vat-id-other-country' | null {
  const found = vatIdCountry(value);
  if (!found) return 'vat-id-format';
  return found === country ? null : 'vat-id-other-country';
}
