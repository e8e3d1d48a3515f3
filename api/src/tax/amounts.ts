/**
 * Tax amounts as integer arithmetic in the currency's minor unit, rounded half up once per sale: a rate inside a price
 * (inclusive: 119.00 at 19 % holds 19.00) or on top of it (exclusive: 100.00 at 19 % adds 19.00).
 */

const BP = 10_000;

/** round(n / d), half up, for non-negative integers. */
const divideRounded = (n: number, d: number) => Math.floor((2 * n + d) / (2 * d));

/** The tax inside a tax-inclusive amount. */
export function taxInside(amount: number, rateBp: number): number {
  return rateBp === 0 ? 0 : divideRounded(amount * rateBp, BP + rateBp);
}

/** The tax added on top of a tax-exclusive amount. */
export function taxOnTop(amount: number, rateBp: number): number {
  return rateBp === 0 ? 0 : divideRounded(amount * rateBp, BP);
}

/**
 * The tax given back once `refunded` of a charge of `amount` carrying `tax` is refunded: in proportion, computed on the
 * running total (so partial refunds never drift), all of it once refunded in full.
 */
export function taxRefunded(refunded: number, amount: number, tax: number): number {
  if (refunded >= amount) return tax;
  if (refunded <= 0 || amount <= 0) return 0;
  return divideRounded(refunded * tax, amount);
}

/** The tax part of a sum leaving or returning (a dispute, say), in the charge's proportion. */
export function taxShare(sum: number, amount: number, tax: number): number {
  const sign = Math.sign(sum);
  return sign * taxRefunded(Math.abs(sum), amount, tax);
}
