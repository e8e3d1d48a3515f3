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
   * Coupon codes tried in quotes from one client network. A clean network (no miss lately) counts only the codes that
   * did not apply, so a buyer's quotes with their code write nothing; a suspect one counts every code before it is
   * looked up (`couponLookup`).
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

/**
 * A network with a coupon code that did not apply in this clock hour or the last is suspect: its coupon quotes are
 * counted before the lookup. A mark, never a limit: it refuses nothing.
 */
const COUPON_MISS_MARK_SECONDS = 60 * 60;

/** What a quote does once its coupon code was looked up: `missed` if it did not apply, else `applied`. */
interface CouponLookup {
  applied(): Promise<void>;
  missed(): Promise<void>;
}

const UNCOUNTED: CouponLookup = { applied: async () => {}, missed: async () => {} };

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
     * A quote is about to look a coupon code up. The refusal never depends on whether the code applies: past the limit
     * every coupon quote from the network is refused, and none is answered "not valid".
     *
     * A clean network (no miss in this hour or the last) only reads here, so a buyer's quotes write nothing: a miss
     * is then counted after the lookup (the count it returns refuses past the limit) and marks the network suspect;
     * a code that applies is answered only while the count, read again, is under the limit. A suspect network has
     * every coupon quote counted here, before the lookup, so guesses after its first misses get at most the limit a
     * window. What gets past: one burst per network per hour or two, as wide as the caller's parallelism, before the
     * first miss is counted.
     */
    async couponLookup(ip: string | null): Promise<CouponLookup> {
      if (!ip) return UNCOUNTED;
      const network = networkOf(ip);
      const tries = limit('couponQuotePerIp', network);
      const mark: Limit = { bucket: `couponMiss:${network}`, max: Infinity, windowSeconds: COUPON_MISS_MARK_SECONDS };
      const what = 'coupon codes tried from your network';
      const [tried = 0, missedLately = 0] = await limiter.read([{ limit: tries }, { limit: mark, back: 1 }]);
      if (tried >= tries.max) throw limiter.refusal(tries, what);
      if (missedLately > 0) {
        await limiter.hit(tries, what);
        return { applied: async () => {}, missed: () => limiter.hitAll([mark], what) };
      }
      return {
        async applied() {
          const [triedSince = 0] = await limiter.read([{ limit: tries }]);
          if (triedSince >= tries.max) throw limiter.refusal(tries, what);
        },
        missed: () => limiter.hitAll([tries, mark], what),
      };
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
