import { toMajorUnits } from './currency';

// A formatter takes a tenth of a millisecond to build: one per currency, kept.
const formatters = new Map<string, Intl.NumberFormat>();

/**
 * An amount in the currency's minor unit as a buyer reads it: 2450 usd → "$24.50", 4000 jpy → "¥4,000", −3920 usd →
 * "−$39.20" (a minus sign, as printed invoices write it, not a hyphen). The only
 * place amounts become a decimal string, for the API's emails and timelines, the console and the storefront (no
 * dependencies, so the apps take it as it is). A code that is no currency at all ("xx") throws a RangeError.
 */
export function formatMoney(amount: number, currency: string): string {
  const code = currency.toUpperCase();
  let formatter = formatters.get(code);
  if (!formatter) {
    formatter = new Intl.NumberFormat('en-US', { style: 'currency', currency: code });
    formatters.set(code, formatter);
  }
  return formatter.format(toMajorUnits(amount, currency)).replace(/^-/, '\u2212');
}
