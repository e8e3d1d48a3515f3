import type { Knex } from 'knex';
import type { Clock } from '../../clock';
import { AppError } from '../../shared/errors';
import { COUPON_MESSAGES, problemFor } from '../coupons/rules';
import type { CheckoutDeps } from './checkout-deps';
import { CHECKOUT_MS } from './deadline';
import { couponMaxUses, lockCoupon, moveBuyersHold, networkHolds, takeCouponUse } from './holds';

/**
 * Reserves a use of a limited coupon for a checkout being started, under the coupon's lock. A buyer (by email) holds
 * one use per coupon: their earlier unpaid checkout's use moves to this one, so starting again never takes a second.
 * One client network holds at most `couponHoldsPerNetwork` uses at a time (429 until one of its holds ends), so that
 * guests typing made-up addresses from one place cannot reserve every use. Otherwise one use is taken with one
 * conditional update, so that N buyers racing for M uses left get exactly M checkouts; the losers hear
 * `coupon-used-up` before paying anything (`coupon-not-valid` when not signed in, as every coupon problem is for
 * them). The use comes back when the checkout is canceled or expires. False for an unlimited coupon (nothing held).
 */
export async function reserveCouponUse(
  { clock, limits }: { clock: Clock; limits: CheckoutDeps['limits'] },
  trx: Knex.Transaction,
  couponId: string,
  holder: { email: string; network: string | null },
  precise: boolean,
): Promise<boolean> {
  if ((await couponMaxUses(trx, couponId)) === -1) return false;
  await lockCoupon(trx, couponId);
  if (await moveBuyersHold(trx, couponId, holder.email)) return true;
  if (holder.network) {
    const held = await networkHolds(trx, couponId, holder.network);
    if (held.count >= limits.couponHoldsPerNetwork) {
      const ends = held.firstEnds?.getTime() ?? clock.now().getTime() + CHECKOUT_MS;
      const retryAfter = Math.max(1, Math.ceil((ends - clock.now().getTime()) / 1000));
      throw new AppError(
        'rate-limited',
        `Too many unpaid checkouts from your network hold this coupon. Try again in ${retryAfter} seconds.`,
        undefined,
        { 'Retry-After': String(retryAfter) },
      );
    }
  }
  if (!(await takeCouponUse(trx, couponId))) {
    const problem = problemFor('coupon-used-up', precise);
    throw new AppError(problem, COUPON_MESSAGES[problem], {
      coupon: precise ? 'is used up' : COUPON_MESSAGES[problem],
    });
  }
  return true;
}
