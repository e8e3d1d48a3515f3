/**
 * A currency's minor unit, one rule for the API, the console and the storefront (no dependencies, so the apps take it
 * as it is). Amounts are integers in the currency's minor unit: cents for usd (4900 = $49.00), whole yen for jpy
 * (4000 = ¥4,000). How many decimals a currency has is what Intl says (its currency digits); Stripe counts amounts in
 * the same unit for every currency this project sells in, which `currencyProblem` makes sure of where prices are set.
 */

/** Stripe's zero-decimal currencies: an amount is whole units (¥500 is 500). */
const STRIPE_ZERO_DECIMAL = new Set([
  'bif',
  'clp',
  'djf',
  'gnf',
  'jpy',
  'kmf',
  'krw',
  'mga',
  'pyg',
  'rwf',
  'ugx',
  'vnd',
  'vuv',
  'xaf',
  'xof',
  'xpf',
]);

/** Stripe's three-decimal currencies, whose amounts Stripe takes only in tens (5.124 KWD must be 5120 or 5130). */
const STRIPE_THREE_DECIMAL = new Set(['bhd', 'jod', 'kwd', 'omr', 'tnd']);

const exponents = new Map<string, number>();

/** Decimals of a currency's minor unit (usd 2, jpy 0, kwd 3), from Intl's currency digits. */
export function currencyExponent(currency: string): number {
  const code = currency.toLowerCase();
  let exponent = exponents.get(code);
  if (exponent === undefined) {
    try {
      exponent =
        new Intl.NumberFormat('en-US', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits ??
        2;
    } catch {
      exponent = 2; // not a currency code at all: shown as cents, and refused where prices are set
    }
    exponents.set(code, exponent);
  }
  return exponent;
}

/** How many minor units make one major unit: 100 for usd, 1 for jpy. */
export const minorPerMajor = (currency: string): number => 10 ** currencyExponent(currency);

/** An amount in minor units as a number of major units, for display only: 4900 usd → 49, 4000 jpy → 4000. */
export const toMajorUnits = (amount: number, currency: string): number => amount / minorPerMajor(currency);

/** Decimals of the amounts Stripe's API takes in this currency. */
function stripeExponent(currency: string): number {
  const code = currency.toLowerCase();
  if (STRIPE_ZERO_DECIMAL.has(code)) return 0;
  if (STRIPE_THREE_DECIMAL.has(code)) return 3;
  // ISK, HUF, TWD and the like keep two decimals in Stripe's API even where they are paid in whole units.
  return 2;
}

export type CurrencyProblem = 'currency-unknown' | 'currency-not-supported';

/**
 * Why prices cannot be set in a currency, or null when they can: not an ISO 4217 code Intl knows; or one whose
 * amounts Stripe counts in another unit than ours (ISK, HUF, IDR… are whole units to Intl, two-decimal to Stripe),
 * or only in tens (the three-decimal currencies), so that an amount could be charged 100 times over or refused.
 */
export function currencyProblem(currency: string): CurrencyProblem | null {
  const code = currency.toUpperCase();
  if (!/^[A-Z]{3}$/.test(code) || !Intl.supportedValuesOf('currency').includes(code)) return 'currency-unknown';
  const exponent = currencyExponent(currency);
  if (exponent !== stripeExponent(currency) || exponent > 2) return 'currency-not-supported';
  return null;
}

export const CURRENCY_PROBLEM_MESSAGES: Record<CurrencyProblem, string> = {
  'currency-unknown': 'must be an ISO 4217 currency code such as usd or jpy',
  'currency-not-supported':
    'cannot be used for prices: its amounts are counted differently by the payment provider (ISK, HUF, IDR and three-decimal currencies such as KWD)',
};
