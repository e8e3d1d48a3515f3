import { currencyExponent } from '../../shared/currency';

/**
 * An amount in minor units as a plain decimal in its currency's own decimals, for a spreadsheet: 1234 usd → "12.34",
 * −500 usd → "-5.00", 1200 jpy → "1200" (yen have none). Integer arithmetic: no float on the way.
 */
export function decimalAmount(amount: number, currency: string): string {
  const exponent = currencyExponent(currency);
  const digits = String(Math.abs(amount)).padStart(exponent + 1, '0');
  const sign = amount < 0 ? '-' : '';
  if (exponent === 0) return `${sign}${digits}`;
  return `${sign}${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}

/** A split's share as stored ("0.3750") as a percentage with two decimals ("37.50"). */
export function percentText(percent: string): string {
  const basisPoints = Math.round(Number(percent) * 10_000);
  return `${Math.floor(basisPoints / 100)}.${String(basisPoints % 100).padStart(2, '0')}`;
}

/** The UTC day of an instant, as 2026-11-29. */
export const dayOf = (instant: Date) => instant.toISOString().slice(0, 10);

/** A month `2026-11` as people read it: "November 2026". */
export function monthName(month: string): string {
  const [year, mon] = month.split('-').map(Number) as [number, number];
  return new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(Date.UTC(year, mon - 1, 1)),
  );
}
