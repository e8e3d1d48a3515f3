import type { Knex } from 'knex';
import { GRANTING_STATUSES } from '../models';
import { holdingOf } from '../purchases/ownership';
import type { Availability } from './availability';
import type { CheckoutRow } from './checkout-rows';
import { refundableOf } from './charge-rows';
import type { Buyer } from './locked-checkout';
import { lockPurchase, upgradeOf } from './purchase-rows';

/**
 * The purchase an upgrade was priced from must still be the buyer's, grant access and not have been upgraded:
 * two upgrade checkouts paid at once, or a transfer meanwhile, must not spend one credit twice. Locked, so the
 * unique key on upgraded_from_id is never what decides.
 */
export async function upgradeProblem(
  trx: Knex.Transaction,
  checkout: CheckoutRow,
  buyer: Buyer,
): Promise<Availability> {
  if (!checkout.upgradeFromId || checkout.team) return null;
  const source = await lockPurchase(trx, checkout.upgradeFromId);
  const used = await upgradeOf(trx, checkout.upgradeFromId);
  if (
    !source ||
    source.userId !== buyer.id ||
    !(GRANTING_STATUSES as readonly string[]).includes(source.status) ||
    // Credit is never taken across currencies (quotes.ts): a price changed to another currency since the quote.
    source.currency !== checkout.currency ||
    used
  )
    return 'upgrade-not-available';
  // Refunded (or being refunded) since the quote: the source must still be worth what the quote counted. Not the
  // credit applied: a credit leaving less than the minimum charge covers those cents too (pricing.ts). A refund
  // reserves its amount under the source's lock, which is held here.
  const basis = checkout.upgradeBasis ?? checkout.creditAmount;
  if (source.merchantChargeId && (await refundableOf(trx, source.merchantChargeId)) < basis)
    return 'upgrade-not-available';
  // Holding the target meanwhile (another tab, a seat): the credit is not turned into a copy to give away.
  if (await holdingOf(trx, buyer.id, checkout.productId, { except: checkout.upgradeFromId }))
    return 'upgrade-not-available';
  return null;
}
