/** Money is integer cents with a lower-case ISO 4217 currency; percentages are fractions (0.25 = 25 %). */

const formatters = new Map<string, Intl.NumberFormat>();

function currencyFormatter(currency: string): Intl.NumberFormat {
  const code = (currency || 'usd').toUpperCase();
  let formatter = formatters.get(code);
  if (!formatter) {
    try {
      formatter = new Intl.NumberFormat('en-US', { style: 'currency', currency: code });
    } catch {
      formatter = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
    }
    formatters.set(code, formatter);
  }
  return formatter;
}

/** 4900, 'usd' → "$49.00". Cents are whole numbers: the division is exact enough for display. */
export function formatMoney(cents: number | null | undefined, currency = 'usd'): string {
  if (cents === null || cents === undefined || Number.isNaN(Number(cents))) return '—';
  return currencyFormatter(currency).format(Number(cents) / 100);
}

const percentFormatter = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 2 });

/** 0.255 → "25.5%". */
export function formatPercent(fraction: number | string | null | undefined): string {
  if (fraction === null || fraction === undefined || fraction === '' || Number.isNaN(Number(fraction))) return '—';
  return percentFormatter.format(Number(fraction));
}

/** Within float error of a whole number (0.29 * 100 is 28.999…, which is still 29 cents). */
const nearlyWhole = (n: number) => Math.abs(n - Math.round(n)) < 1e-6;

/**
 * A form's amount in major units (49.99) → cents (4999), or null when empty. A fraction of a cent (79.999) is kept
 * as one (7999.9), never rounded, so the input's validation refuses it (`wholeCents`) instead of saving $80.00.
 */
export function toCents(amount: number | string | null | undefined): number | null {
  if (amount === null || amount === undefined || amount === '') return null;
  const cents = Number(amount) * 100;
  if (!Number.isFinite(cents)) return null;
  return nearlyWhole(cents) ? Math.round(cents) : Number(cents.toFixed(6));
}

/** Cents (4999) → the string shown in a form's amount input ("49.99"); a refused fraction of a cent as typed. */
export function fromCents(cents: number | string | null | undefined): string {
  if (cents === null || cents === undefined || cents === '' || Number.isNaN(Number(cents))) return '';
  return Number((Number(cents) / 100).toFixed(8)).toString();
}

/**
 * A form's percentage (25.5) → the fraction the API stores (0.255). The column holds four decimals of the fraction
 * (two of the percentage): more (12.345 %) is kept as typed, never rounded, so `fractionDecimals` refuses it.
 */
export function toFraction(percent: number | string | null | undefined): number | null {
  if (percent === null || percent === undefined || percent === '') return null;
  const hundredths = Number(percent) * 100;
  if (!Number.isFinite(hundredths)) return null;
  return nearlyWhole(hundredths) ? Math.round(hundredths) / 10_000 : Number((hundredths / 10_000).toFixed(8));
}

/** A fraction (0.255) → the string shown in a form's percentage input ("25.5"). */
export function fromFraction(fraction: number | string | null | undefined): string {
  if (fraction === null || fraction === undefined || fraction === '' || Number.isNaN(Number(fraction))) return '';
  return Number((Number(fraction) * 100).toFixed(6)).toString();
}

/** react-admin validators: an amount in whole cents; a fraction with four decimals at most (12.34 %). */
export const wholeCents = (cents: unknown) =>
  typeof cents === 'number' && !nearlyWhole(cents) ? 'console.money.wholeCents' : undefined;
export const fractionDecimals = (fraction: unknown) =>
  typeof fraction === 'number' && !nearlyWhole(fraction * 10_000) ? 'console.money.percentDecimals' : undefined;

export const CURRENCY_CHOICES = [
  { id: 'usd', name: 'USD — US dollar' },
  { id: 'eur', name: 'EUR — Euro' },
  { id: 'gbp', name: 'GBP — British pound' },
  { id: 'cad', name: 'CAD — Canadian dollar' },
  { id: 'aud', name: 'AUD — Australian dollar' },
];

/**
 * An amount typed in major units ("12.34", "$1,250.5", "7") → integer cents (1234, 125050, 700), by string
 * handling only (no float arithmetic, so "0.29" is 29 and never 28.999…). Null when it is not such an amount:
 * negative, more than two decimals, or not a number at all.
 */
export function parseMajorUnits(text: string): number | null {
  const cleaned = text
    .trim()
    .replace(/^\$/, '')
    .replace(/,(?=\d{3}(\D|$))/g, '');
  const match = /^(\d*)(?:\.(\d{0,2}))?$/.exec(cleaned);
  if (!match || (!match[1] && !match[2])) return null;
  const whole = match[1] || '0';
  const fraction = (match[2] ?? '').padEnd(2, '0');
  if (whole.length > 13) return null; // beyond any real amount, and beyond exact integers once in cents
  return Number(whole) * 100 + Number(fraction);
}
