import { toMajorUnits } from '../shared/currency';

// A formatter takes a tenth of a millisecond to build: one per currency, kept.
const formatters = new Map<string, Intl.NumberFormat>();

/** An amount in the currency's minor unit as a buyer reads it: 2450 usd → "$24.50", 4000 jpy → "¥4,000". */
export function formatMoney(amount: number, currency: string): string {
  const code = currency.toUpperCase();
  let formatter = formatters.get(code);
  if (!formatter) {
    formatter = new Intl.NumberFormat('en-US', { style: 'currency', currency: code });
    formatters.set(code, formatter);
  }
  return formatter.format(toMajorUnits(amount, currency));
}
