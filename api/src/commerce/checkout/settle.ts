import { timeOrderedId } from '../../db/time-ordered-id';
import type { Knex } from 'knex';
import type { Db } from '../../db/connection';
import { issueInvoice, settlementInvoice } from '../../invoices/issue';
import type { PaymentProvider, ProviderCheckout } from '../../payments/provider';
import { AppError } from '../../shared/errors';
import type { CheckoutStatus } from '../schemas';
import { MESSAGES } from './availability';
import type { CheckoutDeps } from './checkout-deps';
import {
  cancelOpenCheckout,
  findCheckout,
  findCheckoutOfSession,
  type EventKey,
  type FoundCheckout,
} from './checkout-rows';
import { checkFulfillable, retakeCouponUse } from './fulfillable';
import { giveCouponUseBack } from './holds';
import { lockCheckout, type LockedCheckout } from './locked-checkout';
import {
  grantAccess,
  queueReceipt,
  recordCharge,
  resolveBuyer,
  type PaidCheckout,
  type SettleOutcome,
} from './settle-steps';
import { finishRefund, reserveRefundIfUnfulfillable } from './unfulfillable';

/**
 * A checkout's settlement (docs/domain.md §6.2): fulfilled exactly once by whoever asks first (the provider's event,
 * the thank-you page, the expiry sweep), or canceled. The checkout row is locked, and only the call that finds it
 * open (or canceled at our deadline and paid after all, below) writes the purchase, charge, customer and coupon
 * use, and sends the email (after commit).
 */

/**
 * A write of the caller's that must commit with a checkout's settlement or not at all (a provider's event marked
 * processed): run in the settling transaction when there is one.
 */
export type Alongside = (trx: Knex.Transaction) => Knex.QueryBuilder;

export interface Settled {
  status: CheckoutStatus;
  purchaseId: string | null;
  /** The caller's write ran, and committed with the settlement. */
  alongside?: true;
  /** The provider's event asking for it was processed already: nothing was done again. */
  eventProcessed?: true;
}

export type SettleDeps = Pick<CheckoutDeps, 'db' | 'clock' | 'config' | 'outbox' | 'provider' | 'refunds'>;

/**
 * A provider whose sessions cannot be ended on request keeps taking payments after our deadline canceled a
 * checkout: such a payment is still settled (fulfilled if it can be, else refunded in full).
 */
export const paidLateMayCome = (provider: PaymentProvider) => !provider.expireCheckout;

/** Ends an open checkout unpaid; only the call that moves it from open gives a reserved coupon use back. */
export async function cancelCheckout(db: Db, checkoutId: string): Promise<boolean> {
  return db.transaction(async (trx) => {
    const checkout = await cancelOpenCheckout(trx, checkoutId);
    if (checkout?.couponReserved) await giveCouponUseBack(trx, checkout.couponId);
    return Boolean(checkout);
  });
}

/**
 * Fulfils (or cancels) a checkout read a moment ago: the provider is asked first (unless `known` is its answer),
 * outside any transaction, then the checkout row is locked and only the call that may still settle it writes.
 */
export async function settle(
  deps: SettleDeps,
  found: FoundCheckout,
  alongside?: Alongside,
  known?: ProviderCheckout,
): Promise<Settled> {
  const { db, provider, outbox, refunds } = deps;
  if (found.status === 'refunded') await finishRefund(deps, found);
  const late = found.status === 'canceled' && found.sessionIdentifier !== null && paidLateMayCome(provider);
  if (found.status !== 'open' && !late) return { status: found.status, purchaseId: found.purchaseId };
  let paid: PaidCheckout | null = null;
  if (found.amountTotal !== 0) {
    if (!found.sessionIdentifier) return { status: 'open', purchaseId: null };
    const asked = known ?? (await provider.retrieveCheckout(found.sessionIdentifier));
    if (asked.status === 'canceled' && !late) await cancelCheckout(db, found.id);
    if (asked.status === 'canceled') return { status: 'canceled', purchaseId: null };
    if (asked.status !== 'paid' || !asked.charge) return { status: found.status, purchaseId: null };
    paid = asked as PaidCheckout;
  }
  // Known before the transaction, so nothing waits on the provider under the locks.
  const accountId = await provider.accountId();
  const outcome = await db.transaction((trx) => settleLocked(deps, trx, found.id, accountId, paid, alongside));
  if (outcome.email) outbox.flushInBackground();
  if (outcome.refund) {
    const { apology, ...reserved } = outcome.refund;
    await refunds.completeRefund(reserved, async () => apology);
  }
  return { status: outcome.status, purchaseId: outcome.purchaseId, ...(outcome.alongside && { alongside: true }) };
}

/** The settlement, step by step, under the locks of the checkout and its product (in that order). */
async function settleLocked(
  deps: SettleDeps,
  trx: Knex.Transaction,
  checkoutId: string,
  accountId: string,
  paid: PaidCheckout | null,
  alongside?: Alongside,
): Promise<SettleOutcome> {
  const locked = await lockCheckout(trx, checkoutId, accountId);
  return settleLockedCheckout(deps, trx, locked, accountId, paid, alongside);
}

/** The settlement of a checkout this transaction holds locked (alone, or in a batch: settle-batch.ts). */
export async function settleLockedCheckout(
  { clock, config, outbox, provider }: SettleDeps,
  trx: Knex.Transaction,
  locked: LockedCheckout,
  accountId: string,
  paid: PaidCheckout | null,
  alongside?: Alongside,
): Promise<SettleOutcome> {
  const { status } = locked.checkout;
  const paidLate = status === 'canceled' && paid !== null && paidLateMayCome(provider);
  // Settled by a concurrent call meanwhile: its answer stands.
  if (status !== 'open' && !paidLate) return { status, purchaseId: locked.checkout.purchaseId };
  const { product } = locked;
  const buyer = await resolveBuyer(trx, locked);
  // With its ledger lines, whatever is decided next.
  const charge = paid && (await recordCharge(trx, locked, buyer, paid, accountId, provider.label));
  const late = paidLate ? await retakeCouponUse(trx, locked.checkout) : { checkout: locked.checkout, problem: null };
  const fulfillable = await checkFulfillable(trx, { ...locked, checkout: late.checkout }, buyer, clock.now());
  const { checkout, converted } = fulfillable;
  const problem = late.problem ?? fulfillable.problem;
  if (problem && charge && paid) {
    // Invoiced as any payment is: the refund's credit note credits it.
    await issueInvoice(trx, charge.id);
    const refund = { checkout, product, buyer, charge, paidAmount: paid.charge.amount, accountId, problem };
    return reserveRefundIfUnfulfillable(trx, refund);
  }
  if (problem) throw new AppError(problem, MESSAGES[problem]);
  // The invoice's id is chosen now: the receipt links to it. So is the purchase's, which the invoice names.
  const invoiceId = charge ? timeOrderedId() : undefined;
  const purchaseId = timeOrderedId();
  const paper = {
    invoiceId,
    checkout,
    product,
    buyer,
    charge,
    publicUrl: config.publicUrl,
    now: clock.now(),
    alreadyOwned: converted,
  };
  // A team's receipt names its team (the page to take a seat on, the invite link): prepared once the team is written.
  // Its sign-in link's token and its delivery job are written with the purchase too.
  const writes: (Knex.QueryBuilder | Knex.Raw)[] = [];
  const receipt = checkout.team ? null : await queueReceipt(trx, outbox, { ...paper, writes });
  // The charge's invoice, written with the purchase and numbered as this transaction commits (docs/domain.md §18):
  // fulfilments queue on the year's invoice counter row only for their commits, in commit order.
  const invoice =
    charge && invoiceId
      ? await settlementInvoice(trx, charge.id, { invoiceId, purchaseId, checkoutId: checkout.id })
      : null;
  const also = [
    ...writes,
    ...(receipt ? [receipt.insert] : []),
    ...(alongside ? [alongside(trx)] : []),
    ...(invoice ? [invoice.insert] : []),
  ];
  const offerDays = config.TRANSFER_WINDOW_DAYS;
  await grantAccess(trx, { checkout, buyer, charge, converted, also, offerDays, purchaseId });
  await receipt?.queue();
  const teamReceipt = checkout.team ? await queueReceipt(trx, outbox, { ...paper, purchaseId }) : null;
  if (teamReceipt) {
    await teamReceipt.insert;
    await teamReceipt.queue();
  }
  return { status: 'fulfilled', purchaseId, email: Boolean(charge), alongside: Boolean(alongside) };
}

/**
 * Settles the checkout of a provider session (paid → fulfilled, canceled → canceled); unknown sessions are
 * ignored. `alongside` commits with a fulfilment (the answer says so), and is not run otherwise. With the provider's
 * `event` that asks, nothing is done when that event was processed already (read with the checkout).
 */
export async function settleSession(
  deps: SettleDeps,
  sessionIdentifier: string,
  alongside?: Alongside,
  event?: EventKey,
): Promise<Settled | null> {
  const found = await findCheckoutOfSession(deps.db, sessionIdentifier, event);
  if (found?.eventProcessed) return { status: found.status, purchaseId: found.purchaseId, eventProcessed: true };
  return found ? settle(deps, found, alongside) : null;
}

/** Fulfils a paid checkout exactly once; any number of concurrent calls, from anywhere, converge. */
export async function fulfilCheckout(deps: SettleDeps, checkoutId: string): Promise<Settled> {
  const found = await findCheckout(deps.db, checkoutId);
  if (!found) throw new AppError('not-found', 'No such checkout.');
  return settle(deps, found);
}
