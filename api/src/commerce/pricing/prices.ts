/**
 * Pricing as pure functions: integer amounts in the currency's minor unit (cents; whole yen for jpy, see
 * shared/currency.ts) and integer basis points (1 bp = 0.01 %), so nothing is ever a float. Rounding is half away
 * from zero, to the minor unit (the cent, the yen), once per computed line: a regional price in yen is whole yen.
 */

export type DiscountKind = 'ppp' | 'team' | 'coupon' | 'default-coupon';

export interface CouponOffer {
  id: string;
  code: string | null;
  /** Basis points: 2500 = 25 %. */
  bp: number;
  /** The sale's end, shown to buyers ("ends on …"). */
  expires: Date | null;
}

export interface PricingInput {
  unitAmount: number;
  quantity: number;
  /** A team purchase (quantity > 1, "for my team", or more seats of an owned product). */
  team: boolean;
  /** Seats this buyer already bought for this product (team tier counts them). */
  existingSeats: number;
  /** The PPP discount for the buyer's country, in bp, when one exists (see pppDiscountBp). */
  pppBp: number | null;
  /** The buyer asked for the regional price. */
  pppRequested: boolean;
  /** A valid entered coupon. */
  coupon: CouponOffer | null;
  /** The best active default (sale) coupon. */
  defaultCoupon: CouponOffer | null;
  /** What the buyer paid, net of refunds, for the purchase this one upgrades (quantity 1 only). */
  upgradeCredit: number;
}

export interface AppliedDiscount {
  kind: DiscountKind;
  bp: number;
  /** Cents taken off. */
  amount: number;
  couponId?: string;
}

export type NotAppliedReason =
  | 'saves-less'
  | 'not-requested'
  | 'team-purchase'
  | 'quantity-above-one'
  | 'entered-coupon-wins'
  | 'no-tier-yet'
  | 'minimum-charge';

export interface Quote {
  unitAmount: number;
  quantity: number;
  fullPrice: number;
  /** Cents credited for an owned upgradable purchase (after the percentage discount). */
  credit: number;
  discount: AppliedDiscount | null;
  finalPrice: number;
  /** A zero total is redeemed, never charged. */
  free: boolean;
  /** Bought at the regional price: access only from the purchase country. */
  restricted: boolean;
  notApplied: { kind: DiscountKind; reason: NotAppliedReason }[];
}

/** 100 minor units: $1.00, or ¥100 in a zero-decimal currency (both above the payment provider's minimum charge). */
export const MIN_CHARGE = 100;
export const MAX_QUANTITY = 100;
const BP = 10_000;

/** round(amount × bp / 10 000), half away from zero, for non-negative amounts. */
export function percentOf(amount: number, bp: number): number {
  return Math.floor((amount * bp + BP / 2) / BP);
}

/** Fractions such as 0.25 from the database, as basis points. */
export function toBp(fraction: number): number {
  return Math.round(fraction * BP);
}

/**
 * The regional discount for a country's price-level ratio: 1 − ratio rounded to the nearest 5 %, none
 * below 40 %, at most 75 %.
 */
export function pppDiscountBp(ratio: number | undefined): number | null {
  if (ratio === undefined || !Number.isFinite(ratio) || ratio <= 0) return null;
  const raw = BP - Math.round(ratio * BP);
  const rounded = Math.floor((raw + 250) / 500) * 500; // nearest 500 bp, halves up
  if (rounded < 4000) return null;
  return Math.min(rounded, 7500);
}

/** A team tier: seats bought (now and before, `min`–`max`, no upper end when null) → discount in bp. */
export interface TeamTier {
  min: number;
  max: number | null;
  bp: number;
}

/** Team tiers by seats: 1–4 none, 5–9 15 %, 10–29 25 %, 30+ 35 %. The quote answer carries them to the storefront. */
export const TEAM_TIERS: readonly TeamTier[] = [
  { min: 5, max: 9, bp: 1500 },
  { min: 10, max: 29, bp: 2500 },
  { min: 30, max: null, bp: 3500 },
];

export function teamDiscountBp(seats: number): number {
  return TEAM_TIERS.findLast((tier) => seats >= tier.min)?.bp ?? 0;
}

/** Ties go to the first: a coupon the buyer typed, then the sale, then the team tier, then PPP (which restricts). */
const PREFERENCE: DiscountKind[] = ['coupon', 'default-coupon', 'team', 'ppp'];

export function quote(input: PricingInput): Quote {
  if (!Number.isInteger(input.quantity) || input.quantity < 1 || input.quantity > MAX_QUANTITY) {
    throw new RangeError(`quantity must be 1–${MAX_QUANTITY}`);
  }
  const fullPrice = input.unitAmount * input.quantity;
  const single = input.quantity === 1 && !input.team;
  const notApplied: Quote['notApplied'] = [];

  const candidates: { kind: DiscountKind; bp: number; couponId?: string }[] = [];
  if (input.pppBp !== null) {
    if (!single) notApplied.push({ kind: 'ppp', reason: input.team ? 'team-purchase' : 'quantity-above-one' });
    else if (!input.pppRequested) notApplied.push({ kind: 'ppp', reason: 'not-requested' });
    else candidates.push({ kind: 'ppp', bp: input.pppBp });
  }
  if (input.team) {
    const bp = teamDiscountBp(input.quantity + input.existingSeats);
    if (bp > 0) candidates.push({ kind: 'team', bp });
    else notApplied.push({ kind: 'team', reason: 'no-tier-yet' });
  }
  // An entered coupon wins over the default unless the default saves more on one unit: compared as rates, since
  // rounding a cheap unit to the cent can make a smaller coupon look equal.
  const { coupon, defaultCoupon } = input;
  if (coupon && defaultCoupon && defaultCoupon.bp <= coupon.bp) {
    candidates.push({ kind: 'coupon', bp: coupon.bp, couponId: coupon.id });
    notApplied.push({ kind: 'default-coupon', reason: 'entered-coupon-wins' });
  } else {
    if (coupon && defaultCoupon) notApplied.push({ kind: 'coupon', reason: 'saves-less' });
    else if (coupon) candidates.push({ kind: 'coupon', bp: coupon.bp, couponId: coupon.id });
    if (defaultCoupon) candidates.push({ kind: 'default-coupon', bp: defaultCoupon.bp, couponId: defaultCoupon.id });
  }

  // Exactly one percentage discount, on the full price: the one that saves the most money.
  const ranked = candidates
    .map((c) => ({ ...c, amount: percentOf(fullPrice, c.bp) }))
    .sort((a, b) => b.amount - a.amount || PREFERENCE.indexOf(a.kind) - PREFERENCE.indexOf(b.kind));
  const best = ranked[0] && ranked[0].amount > 0 ? ranked[0] : null;
  for (const other of ranked) if (other !== best) notApplied.push({ kind: other.kind, reason: 'saves-less' });

  // The upgrade credit comes off after the discount, so the source's price plus the upgrade's never exceeds what the
  // target costs today (docs/domain.md §5.3).
  const discounted = fullPrice - (best?.amount ?? 0);
  const credit = single ? Math.min(Math.max(0, input.upgradeCredit), discounted) : 0;
  let finalPrice = discounted - credit;
  // A zero total is a free redemption; anything else is charged at least MIN_CHARGE (never above full price). A
  // credit that leaves less than the minimum covers the rest: raising it would charge more than the target costs.
  if (finalPrice > 0 && finalPrice < MIN_CHARGE) finalPrice = credit > 0 ? 0 : Math.min(MIN_CHARGE, fullPrice);
  // What the floor gave back comes off the discount, so the lines still add up.
  const creditApplied = credit > 0 ? discounted - finalPrice : 0;
  const discountAmount = fullPrice - finalPrice - creditApplied;
  const discount =
    best && discountAmount > 0
      ? { kind: best.kind, bp: best.bp, amount: discountAmount, ...(best.couponId && { couponId: best.couponId }) }
      : null;
  if (best && !discount) notApplied.push({ kind: best.kind, reason: 'minimum-charge' });

  return {
    unitAmount: input.unitAmount,
    quantity: input.quantity,
    fullPrice,
    credit: creditApplied,
    discount,
    finalPrice,
    free: finalPrice === 0,
    restricted: discount?.kind === 'ppp',
    notApplied,
  };
}
