import type { Knex } from 'knex';
import { AppError } from '../../shared/errors';
import { readTaxSetup, taxFrom } from '../../tax/engine';
import type { SubscriptionDiscount } from '../../payments/provider';
import { billingPlace } from '../checkout/billing-place';
import { refuseUnfitVatId, refuseUnknownPlace } from '../checkout/billing-profile';
import { asOffer, quoteCoupons, type CouponRow } from '../coupons/coupons';
import { COUPON_MESSAGES, couponProblem, problemFor } from '../coupons/rules';
import { pppForCountry } from '../pricing/ppp';
import { MIN_CHARGE, percentOf, quote } from '../pricing/prices';
import type { BillingInput } from '../schemas';

/** What subscribing asks to pay: the membership, its price, and who asks from where. */
export interface MembershipPriceRequest {
  productId: string;
  unitAmount: number;
  currency: string;
  /** Seats: the subscriber's own and those others take (a team membership). */
  quantity: number;
  couponCode?: string;
  /** The buyer asked for their country's regional price (one seat only). */
  ppp: boolean;
  /** The detected country and region, and the billing details given (tax follows them). */
  country: string;
  region: string | null;
  billing?: BillingInput;
  /** Null for a guest's quote (a payment plan's on the sales page): a refused coupon is then not said why. */
  buyer: { id: string; email: string } | null;
  /** Staff pricing for anyone (the simulator): a refused coupon says why, as to a signed-in buyer. */
  sayWhy?: boolean;
  now: Date;
}

/** Each period's price of a subscription, as subscribing sets it (docs/domain.md §22). */
export interface MembershipPrice {
  /** Each period, every seat, after a regional price and before a coupon and tax added on top. */
  amount: number;
  discount: (SubscriptionDiscount & { couponId: string }) | null;
  /** The regional price's percentage off, when it is the one applied. */
  pppPercent: number | null;
  /** The rate the provider adds on top of each period (tax-exclusive prices), or that is inside it, and its name. */
  tax: { rate: number; inclusive: boolean; name: string } | null;
  /** Where the buyer is billed, kept by the subscription for every period's invoice. */
  place: { country: string; region: string | null; vatId: string | null };
}

/** A coupon's reach on a membership, in periods: its first one, a number of them, or every one (null). */
export function couponPeriods(coupon: Pick<CouponRow, 'duration' | 'durationPeriods'>): number | null {
  if (coupon.duration === 'forever') return null;
  return coupon.duration === 'repeating' ? coupon.durationPeriods! : 1;
}

async function couponFor(conn: Knex, request: MembershipPriceRequest) {
  const { entered, sale } = await quoteCoupons(conn, request.productId, request.couponCode, request.now);
  const use = { productId: request.productId, now: request.now, buyer: request.buyer, db: conn };
  if (request.couponCode) {
    // A signed-in buyer hears why a code is refused; a guest one answer for all, as at checkout.
    const found = await couponProblem(entered, use);
    const problem = found && problemFor(found, request.buyer !== null || request.sayWhy === true);
    if (problem) throw new AppError(problem, COUPON_MESSAGES[problem], { coupon: COUPON_MESSAGES[problem] });
  }
  const running = sale && !(await couponProblem(sale, use)) ? sale : undefined;
  return { entered, sale: running };
}

/** The buyer's billing place for tax; refused as checkout refuses it when it names no real place. */
function placeOf(request: Pick<MembershipPriceRequest, 'billing' | 'country' | 'region'>) {
  const place = billingPlace(request.billing ?? {}, { country: request.country, region: request.region });
  refuseUnknownPlace(place, 'billing.');
  refuseUnfitVatId(place.vatId, place.country, 'billing.vatId');
  return { country: place.country!, region: place.region, vatId: place.vatId };
}

/**
 * Prices a membership's periods as a one-time quote prices a course: one percentage discount, the one saving the most
 * on the first period (an entered coupon, the running sale, or the regional price for one seat). A regional price
 * lasts as long as the subscription; a coupon for its duration (docs/domain.md §22). Tax follows the billing place as
 * at checkout, inside the price or added on top as the school sets the currency. A place the tax cannot tell without
 * a state or province not given is not taxed: the membership's page asks for no billing details yet.
 */
export async function membershipPrice(conn: Knex, request: MembershipPriceRequest): Promise<MembershipPrice> {
  const { entered, sale } = await couponFor(conn, request);
  const pppBp = request.quantity === 1 ? pppForCountry(request.country) : null;
  const result = quote({
    unitAmount: request.unitAmount,
    quantity: request.quantity,
    // Seats of a membership are priced alike: no team tiers.
    team: false,
    existingSeats: 0,
    pppBp,
    pppRequested: request.ppp,
    coupon: entered ? asOffer(entered) : null,
    defaultCoupon: sale ? asOffer(sale) : null,
    upgradeCredit: 0,
  });
  const applied = result.discount;
  const coupon = applied?.couponId ? [entered, sale].find((c) => c?.id === applied.couponId)! : null;
  // Each discounted period is still a charge: a coupon leaving less than the least one (or nothing) is refused.
  if (coupon && result.fullPrice - percentOf(result.fullPrice, applied!.bp) < MIN_CHARGE)
    throw new AppError('coupon-not-for-membership', COUPON_NOT_FOR_MEMBERSHIP, { coupon: COUPON_NOT_FOR_MEMBERSHIP });
  const amount = applied?.kind === 'ppp' ? result.finalPrice : result.fullPrice;
  return {
    amount,
    discount: coupon
      ? { bp: applied!.bp, periods: couponPeriods(coupon), label: coupon.code ?? 'Sale', couponId: coupon.id }
      : null,
    pppPercent: applied?.kind === 'ppp' ? applied.bp / 100 : null,
    ...(await periodTaxTerms(conn, request, amount)),
  };
}

/**
 * Where the buyer is billed and the tax each period of `amount` carries there, as checkout taxes (a membership's or a
 * payment plan's instalments): the rate inside the price or added on top as the school sets the currency.
 */
export async function periodTaxTerms(
  conn: Knex,
  request: Pick<MembershipPriceRequest, 'currency' | 'billing' | 'country' | 'region'>,
  amount: number,
): Promise<Pick<MembershipPrice, 'tax' | 'place'>> {
  const place = placeOf(request);
  const setup = await readTaxSetup(conn);
  const inclusive = setup.inclusiveCurrencies.includes(request.currency.toLowerCase());
  const answer = taxFrom(setup, { currency: request.currency, amount, inclusive, buyer: place });
  const tax = answer && !answer.reverseCharge ? { rate: answer.rate, inclusive, name: answer.name } : null;
  return { tax, place };
}

const COUPON_NOT_FOR_MEMBERSHIP = 'This coupon takes off too much to be used on a membership.';
