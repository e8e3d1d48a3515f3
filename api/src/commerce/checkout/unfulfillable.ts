import type { Knex } from 'knex';
import type { Db } from '../../db/connection';
import { unfulfillableRefundEmail } from '../../mail/templates';
import { formatMoney } from '../../shared/money';
import { MESSAGES, type Availability } from './availability';
import type { CheckoutRow, FoundCheckout } from './checkout-rows';
import { insertRefund, markRefundPending, stalledRefund } from './charge-rows';
import { giveCouponUseBack } from './holds';
import type { Buyer, ProductFacts } from './locked-checkout';
import type { CheckoutDeps } from './checkout-deps';
import { writePurchase, type SettleOutcome } from './settle-steps';

/** A paid checkout that cannot be fulfilled: refunded in full, with an apology (docs/domain.md §6.2). */

/** The reason recorded on the refund of a payment that lost the last seat (its apology says so). */
const SOLD_OUT_REASON = 'Sold out before the payment completed';

/** The apology for a payment that could not be fulfilled, from the reason its refund records. */
export const apologyFor = (to: string, productName: string, amount: string, reason: string) =>
  unfulfillableRefundEmail(
    to,
    productName,
    amount,
    reason === SOLD_OUT_REASON ? { soldOut: true } : { soldOut: false, reason },
  );

/** The key of the full refund of a checkout that could not be fulfilled. */
export const soldOutRefundKey = (checkoutId: string) => `sold-out-${checkoutId}`;

/**
 * Paid after the last seat went (or the upgrade source was used meanwhile): refunded in full. The refund is reserved
 * here and asked of the provider after commit, never under these locks; its key makes any retry replay it rather
 * than refund twice.
 */
export async function reserveRefundIfUnfulfillable(
  trx: Knex.Transaction,
  step: {
    checkout: CheckoutRow;
    product: ProductFacts;
    buyer: Buyer;
    charge: { id: string };
    paidAmount: number;
    accountId: string;
    problem: Exclude<Availability, null>;
  },
): Promise<SettleOutcome> {
  const { checkout, buyer, charge, paidAmount, problem } = step;
  const reason = problem === 'sold-out' ? SOLD_OUT_REASON : MESSAGES[problem];
  const refundId = await insertRefund(trx, {
    merchantAccountId: step.accountId,
    merchantChargeId: charge.id,
    amount: paidAmount,
    reason,
    idempotencyKey: soldOutRefundKey(checkout.id),
  });
  if (checkout.couponReserved) await giveCouponUseBack(trx, checkout.couponId);
  const purchaseId = await writePurchase(trx, checkout, buyer, charge, 'Refunded', { status: 'refunded' }, [], 0);
  const apology = apologyFor(buyer.email, step.product.name, formatMoney(paidAmount, checkout.currency), reason);
  return {
    status: 'refunded',
    purchaseId,
    email: false,
    refund: { id: refundId, chargeId: charge.id, reason, apology },
  };
}

/**
 * A checkout refunded because it could not be fulfilled whose refund did not complete (the provider unreachable,
 * the process gone after commit) completes it now: every later settle of it (a webhook redelivery, the thank-you
 * page) comes here until the provider has refunded it. A pending one is being asked for by the call that settled
 * it, unless that call is long gone; one refunded meanwhile (at the provider's dashboard, say) is left alone.
 */
export async function finishRefund(
  { db, refunds }: { db: Db; refunds: CheckoutDeps['refunds'] },
  found: FoundCheckout,
): Promise<void> {
  const pending = await stalledRefund(db, soldOutRefundKey(found.id));
  if (!pending) return;
  await markRefundPending(db, pending.id);
  const amount = formatMoney(pending.amount, found.currency);
  const apology = apologyFor(pending.email, pending.productName, amount, pending.reason);
  await refunds.completeRefund(
    { id: pending.id, chargeId: pending.chargeId, reason: pending.reason },
    async () => apology,
  );
}
