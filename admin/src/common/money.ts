/**
 * Money is an integer number of the currency's minor unit (cents for usd, whole yen for jpy: api/src/shared/currency.ts)
 * with a lower-case ISO 4217 currency; percentages are fractions (0.25 = 25 %).
 */
import { currencyExponent } from '../../../api/src/shared/currency';
import { formatMoney as formatAmount } from '../../../api/src/shared/money';

/** 4900, 'usd' → "$49.00"; 4000, 'jpy' → "¥4,000"; "—" for no amount (a list's empty cell); dollars when no currency. */
export function formatMoney(cents: number | null | undefined, currency = 'usd'): string {
  if (cents === null || cents === undefined || Number.isNaN(Number(cents))) return '—';
  return formatAmount(Number(cents), currency || 'usd');
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
 * A form's amount in major units (49.99 usd, 4000 jpy) → minor units (4999, 4000), or null when empty. A fraction of
 * the minor unit (79.999 usd, 4000.5 jpy) is kept as one (7999.9), never rounded, so the input's validation refuses
 * it (`wholeCents`) instead of saving $80.00.
 */
export function toCents(amount: number | string | null | undefined, currency = 'usd'): number | null {
  if (amount === null || amount === undefined || amount === '') return null;
  const cents = Number(amount) * 10 ** currencyExponent(currency);
  if (!Number.isFinite(cents)) return null;
  return nearlyWhole(cents) ? Math.round(cents) : Number(cents.toFixed(6));
}

/** Minor units (4999 usd, 4000 jpy) → the string shown in a form's amount input ("49.99", "4000"). */
export function fromCents(cents: number | string | null | undefined, currency = 'usd'): string {
  if (cents === null || cents === undefined || cents === '' || Number.isNaN(Number(cents))) return '';
  return Number((Number(cents) / 10 ** currencyExponent(currency)).toFixed(8)).toString();
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

/** How an amount typed in a currency is spoken of: its unit ("dollars", "yen") and an example ("12.34", "4000"). */
export function moneyWords(
  translate: (key: string, options?: Record<string, unknown>) => string,
  currency = 'usd',
): { unit: string; example: string } {
  const code = (currency || 'usd').toLowerCase();
  return {
    unit: translate(`console.money.units.${code}`, { _: code.toUpperCase() }),
    example: currencyExponent(code) === 0 ? '4000' : '12.34',
  };
}

/**
 * An amount typed with more decimals than its currency has ("12.345" usd, "4000.5" jpy): the message that says so
 * (a catalog key and its arguments), or null.
 */
export function tooManyDecimals(
  text: string,
  currency = 'usd',
): { message: string; args: Record<string, string> } | null {
  const exponent = currencyExponent(currency);
  const decimals = /^\s*[$¥€£]?[\d,]*\.(\d+)\s*$/.exec(text)?.[1];
  if (!decimals || decimals.length <= exponent) return null;
  return exponent === 0
    ? { message: 'console.money.wholeUnits', args: { currency: currency.toUpperCase() } }
    : { message: 'console.money.wholeCents', args: {} };
}

/** The same for an amount in a given currency: whole yen for jpy, whole cents for usd. */
export const wholeMinorUnits = (currency: string) =>
  currencyExponent(currency) === 0
    ? (amount: unknown) =>
        typeof amount === 'number' && !nearlyWhole(amount)
          ? { message: 'console.money.wholeUnits', args: { currency: currency.toUpperCase() } }
          : undefined
    : wholeCents;
export const fractionDecimals = (fraction: unknown) =>
  typeof fraction === 'number' && !nearlyWhole(fraction * 10_000) ? 'console.money.percentDecimals' : undefined;

export const CURRENCY_CHOICES = [
  { id: 'usd', name: 'USD — US dollar' },
  { id: 'eur', name: 'EUR — Euro' },
  { id: 'gbp', name: 'GBP — British pound' },
  { id: 'cad', name: 'CAD — Canadian dollar' },
  { id: 'aud', name: 'AUD — Australian dollar' },
  { id: 'jpy', name: 'JPY — Japanese yen' },
];

/**
 * An amount typed in major units ("12.34", "$1,250.5", "7"; "¥4,000" in jpy) → integer minor units (1234, 125050,
 * 700; 4000), by string handling only (no float arithmetic, so "0.29" is 29 and never 28.999…). Null when it is not
 * such an amount: negative, more decimals than the currency has (any for jpy), or not a number at all.
 */
export function parseMajorUnits(text: string, currency = 'usd'): number | null {
  const exponent = currencyExponent(currency);
  const cleaned = text
    .trim()
    .replace(/^[$¥€£]/, '')
    .replace(/,(?=\d{3}(\D|$))/g, '');
  const match = new RegExp(`^(\\d*)(?:\\.(\\d{0,${exponent}}))?$`).exec(cleaned);
  if (!match || (!match[1] && !match[2])) return null;
  const whole = match[1] || '0';
  const fraction = (match[2] ?? '').padEnd(exponent, '0');
  if (whole.length > 13) return null; // beyond any real amount, and beyond exact integers once in minor units
  return Number(whole) * 10 ** exponent + Number(fraction || '0');
}
