import type { Knex } from 'knex';
import type { Coupon } from '../models';
import type { CouponProblem } from '../schemas';

/** Who is buying, when known: a rule about the buyer's history reads it (a guest's quote knows nobody yet). */
export interface CouponBuyer {
  id: string | null;
  email: string;
}

/** Where a coupon is judged: for which product, when, for whom, and through which connection (a checkout's transaction). */
export interface CouponUse {
  productId: string;
  now: Date;
  buyer: CouponBuyer | null;
  db: Knex | Knex.Transaction;
}

/** What the rules read of a coupon: a row as knex answers it, or a model. */
export type CouponTerms = Pick<
  Coupon,
  'status' | 'expires' | 'maxUses' | 'usedCount' | 'bulkPurchaseId' | 'restrictedToProductId'
>;

/** The problems a rule can find; `coupon-not-found` and `coupon-not-valid` are no coupon's rule. */
type RuleProblem = Exclude<CouponProblem, 'coupon-not-found' | 'coupon-not-valid'>;

interface CouponRule {
  message: string;
  /** True when the coupon cannot be used here; a rule about the buyer may read their history through `use.db`. */
  refuses(coupon: CouponTerms, use: CouponUse): boolean | Promise<boolean>;
  /**
   * Decided when the checkout reserves a use, not again before: the buyer's own earlier hold moves to the new
   * checkout, so a limited coupon they hold is not used up for them.
   */
  decidedByReservation?: true;
}

/**
 * What makes a coupon usable (docs/domain.md §4), each condition stated once, in the order its refusal is given (the
 * order written here). The quote (the code entered and the running sale alike), the pricing simulator and checkout
 * start all judge a coupon by these: a new kind of coupon is one more entry (its problem code in `CouponProblem`
 * makes one required here), its condition free to ask about the buyer.
 */
const COUPON_RULES = {
  'coupon-inactive': {
    message: 'This coupon is no longer active.',
    refuses: (coupon) => coupon.status !== 'active',
  },
  'coupon-expired': {
    message: 'This coupon has expired.',
    refuses: (coupon, { now }) => Boolean(coupon.expires && coupon.expires <= now),
  },
  'coupon-used-up': {
    message: 'This coupon has been used as many times as it allows.',
    refuses: (coupon) => coupon.maxUses !== -1 && coupon.usedCount >= coupon.maxUses,
    decidedByReservation: true,
  },
  'coupon-not-valid-for-product': {
    message: 'This coupon is not valid for this course.',
    // Team coupons are redeemed through their invite link, never entered at checkout.
    refuses: (coupon, { productId }) =>
      Boolean(coupon.bulkPurchaseId || (coupon.restrictedToProductId && coupon.restrictedToProductId !== productId)),
  },
} satisfies Record<RuleProblem, CouponRule>;

const RULES = Object.entries(COUPON_RULES) as [RuleProblem, CouponRule][];

/** Every problem's message: the rules' and the two that are no rule's. */
export const COUPON_MESSAGES: Record<CouponProblem, string> = {
  'coupon-not-found': 'There is no coupon with that code.',
  'coupon-not-valid': 'This code is not valid.',
  ...(Object.fromEntries(RULES.map(([problem, rule]) => [problem, rule.message])) as Record<RuleProblem, string>),
};

/**
 * Why a coupon cannot be used here (the first rule that refuses it), or null when it can. `atCheckout` leaves out
 * what the reservation of a use decides.
 */
export async function couponProblem(
  coupon: CouponTerms | undefined,
  use: CouponUse,
  { atCheckout = false } = {},
): Promise<CouponProblem | null> {
  if (!coupon) return 'coupon-not-found';
  for (const [problem, rule] of RULES) {
    if (atCheckout && 'decidedByReservation' in rule) continue;
    if (await rule.refuses(coupon, use)) return problem;
  }
  return null;
}

/**
 * What a caller who is not signed in hears of any coupon problem: one answer for unknown, expired, inactive, used-up
 * and other-course codes, so that probing codes cannot tell which exist. Signed-in callers hear the reason.
 */
export function problemFor(problem: CouponProblem, precise: boolean): CouponProblem {
  return precise ? problem : 'coupon-not-valid';
}
