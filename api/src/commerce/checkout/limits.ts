import type { Knex } from 'knex';
import type { Config } from '../../config';
import { networkOf, type Limit, type RateLimiter } from '../../identity/rate-limit';

/**
 * How often anyone may start a checkout, try coupon codes in a quote, have a quote's tax calculated by Stripe and offer
 * a purchase to someone: fixed windows counted in PostgreSQL (every server process shares them), refused with 429 and
 * Retry-After. Far above what a real buyer does (a team buyer trying seat counts and retrying a payment starts a
 * handful of checkouts), far below what reserving every use of a coupon, probing codes or mailing strangers takes.
 * COMMERCE_LIMIT_SCALE multiplies `max`.
 */
export const COMMERCE_LIMITS = {
  /** Checkout starts from one client network (a checkout reserves a coupon use and calls the provider). */
  checkoutPerIp: { max: 10, windowSeconds: 10 * 60 },
  /** Checkout starts for one buyer from any address: a signed-in account, or the email a guest typed. */
  checkoutPerBuyer: { max: 5, windowSeconds: 10 * 60 },
  /**
   * Coupon codes a quote could not apply (unknown or unusable: what guessing codes produces), from one client network.
   * A code that applies is not counted, so a buyer's quotes with their code write nothing.
   */
  couponQuotePerIp: { max: 60, windowSeconds: 60 },
  /**
   * Quotes whose tax costs a call to Stripe Tax (one its cache does not answer), from one client network: a buyer
   * trying places and seat counts asks a few dozen; Stripe limits the calculations an account makes.
   */
  taxCalculationPerIp: { max: 60, windowSeconds: 60 },
  /** Transfer offers (each emails someone) by one purchase owner. */
  transferOfferPerOwner: { max: 5, windowSeconds: 60 * 60 },
  /** Transfer offers to one recipient address, from anyone. */
  transferOfferPerRecipient: { max: 3, windowSeconds: 24 * 60 * 60 },
} as const satisfies Record<string, Omit<Limit, 'bucket'>>;

/**
 * Uses of one limited coupon that unpaid checkouts from one client network may hold at a time (each hold lasts a
 * checkout's 30 minutes at most). A buyer holds one use per coupon: starting again moves their hold to the new
 * checkout. COMMERCE_LIMIT_SCALE multiplies it too.
 */
export const COUPON_HOLDS_PER_NETWORK = 3;

/** The commerce limits, counted before the work they guard, so that parallel requests cannot slip past them. */
export function commerceLimits({
  limiter,
  config,
}: {
  limiter: RateLimiter;
  config: Pick<Config, 'COMMERCE_LIMIT_SCALE'>;
}) {
  const limit = (kind: keyof typeof COMMERCE_LIMITS, key: string): Limit => ({
    bucket: `${kind}:${key}`,
    max: COMMERCE_LIMITS[kind].max * config.COMMERCE_LIMIT_SCALE,
    windowSeconds: COMMERCE_LIMITS[kind].windowSeconds,
  });
  return {
    /**
     * A checkout is about to start: per client network (when known) and per buyer. A signed-in buyer counts as their
     * account, so guests naming their email cannot use up what they may start themselves.
     */
    async checkoutStart({
      ip,
      buyerId,
      email,
    }: {
      ip: string | null;
      buyerId: string | null;
      email: string | null | undefined;
    }): Promise<void> {
      if (ip) await limiter.hit(limit('checkoutPerIp', networkOf(ip)), 'checkouts started from your network');
      const buyer = buyerId ? `user:${buyerId}` : email ? `email:${email.toLowerCase()}` : null;
      if (buyer) await limiter.hit(limit('checkoutPerBuyer', buyer), 'checkouts started for this email address');
    },

    /** How many uses of one limited coupon unpaid checkouts from one client network may hold at once. */
    couponHoldsPerNetwork: COUPON_HOLDS_PER_NETWORK * config.COMMERCE_LIMIT_SCALE,

    /**
     * A quote is about to look a coupon code up: refused once the network's misses are used up. Only read: a quote
     * is a read, and counting every one put a hot row under every buyer of a network.
     */
    async couponLookup(ip: string | null): Promise<void> {
      if (ip) await limiter.check(limit('couponQuotePerIp', networkOf(ip)), 'coupon codes tried from your network');
    },

    /**
     * The quote's code did not apply: counted before the answer says so, so that parallel guesses past the limit
     * are refused rather than answered.
     */
    async couponMiss(ip: string | null): Promise<void> {
      if (ip) await limiter.hit(limit('couponQuotePerIp', networkOf(ip)), 'coupon codes tried from your network');
    },

    /** A quote is about to ask Stripe Tax for a calculation (its cache had none for the question). */
    async taxCalculation(ip: string | null): Promise<void> {
      if (ip) await limiter.hit(limit('taxCalculationPerIp', networkOf(ip)), 'tax calculations from your network');
    },

    /** Someone is about to offer a purchase to someone (counted before anything is looked at). */
    async transferOfferBy(ownerId: string): Promise<void> {
      await limiter.hit(limit('transferOfferPerOwner', ownerId), 'transfer offers');
    },

    /**
     * The owner's offer is about to email `recipientEmail`, in the offer's transaction: only offers made count, so
     * nobody can use up an address's offers with purchases that are not theirs.
     */
    async transferOfferTo(recipientEmail: string, trx: Knex.Transaction): Promise<void> {
      await limiter.hit(
        limit('transferOfferPerRecipient', recipientEmail.toLowerCase()),
        'transfer offers to this email address',
        trx,
      );
    },
  };
}

export type CommerceLimits = ReturnType<typeof commerceLimits>;
