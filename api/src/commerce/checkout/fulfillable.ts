import type { Knex } from 'knex';
import { isUserBlocked } from '../../identity/staff/blocks';
import { holdingOf } from '../purchases/ownership';
import { availability, type Availability } from './availability';
import type { CheckoutRow } from './checkout-rows';
import { takeCouponUse } from './holds';
import type { Buyer, LockedCheckout } from './locked-checkout';
import { upgradeProblem } from './upgrade-credit';

/**
 * Whether the checkout can still be fulfilled, decided under the locks. Someone who has the course already (a guest
 * who paid with an owning email, a second tab) gets the copy as a one-seat team to give away, never a duplicate
 * (docs/domain.md §5.5). Refunded instead: an upgrade, and a regional-price copy, which as a seat would open the course
 * anywhere. Same-product payments are serialized by the product's lock, so two of them cannot both miss each other.
 */
export async function checkFulfillable(
  trx: Knex.Transaction,
  locked: LockedCheckout,
  buyer: Buyer,
  now: Date,
): Promise<{ checkout: CheckoutRow; converted: boolean; problem: Availability }> {
  // A buyer whose account this settlement created owns nothing and cannot be blocked: nothing to ask.
  const holds =
    !buyer.created &&
    !locked.checkout.team &&
    !locked.checkout.upgradeFromId &&
    Boolean(await holdingOf(trx, buyer.id, locked.checkout.productId));
  const converted = holds && !locked.checkout.restricted;
  const checkout = converted ? { ...locked.checkout, team: true } : locked.checkout;
  const seats = checkout.team ? checkout.quantity : 1;
  const problem: Availability =
    // Share-locked: a block committing meanwhile waits, and this purchase stays as the person's earlier ones do.
    (!buyer.created && (await isUserBlocked(trx, buyer.id, true)) ? 'buyer-blocked' : null) ??
    (holds && !converted ? 'already-purchased' : null) ??
    (await availability(trx, locked.product, seats, now)) ??
    (await upgradeProblem(trx, checkout, buyer));
  return { checkout, converted, problem };
}

/**
 * A checkout canceled at our deadline gave its limited coupon's use back; paid after all (a provider whose sessions
 * cannot be ended, docs/domain.md §6.2), it takes a use again if one is left, else it cannot be fulfilled at that
 * price. Under the checkout's lock, by the same conditional update as a checkout start.
 */
export async function retakeCouponUse(
  trx: Knex.Transaction,
  checkout: CheckoutRow,
): Promise<{ checkout: CheckoutRow; problem: Availability }> {
  if (!checkout.couponReserved || !checkout.couponId) return { checkout, problem: null };
  if (await takeCouponUse(trx, checkout.couponId)) return { checkout, problem: null };
  return { checkout: { ...checkout, couponReserved: false }, problem: 'coupon-used-up' };
}
