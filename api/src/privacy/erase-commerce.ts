import type { Knex } from 'knex';
import { recordAudit, type Actor } from '../audit/record';
import { GRANTS_ACCESS } from '../commerce/teams/team-view';
import { cancelOpenTransfers } from '../commerce/transfers/transfers';
import { CANCELABLE_TRANSFER_STATES, OPEN_TRANSFER_STATES } from '../shared/transfer-states';

/** Why a deleted person's seat ended, as the team's roster and the console show it. */
export const SEAT_FREED_REASON = 'The member deleted their account.';

interface Step {
  trx: Knex.Transaction;
  userId: string;
  email: string;
  placeholder: string;
  actor: Actor;
  requestId: string | null;
}

/**
 * The seats the person held go back to their teams (docs/domain.md §7): each seat purchase ends Revoked, as a seat
 * the owner takes back does, and its use of the team's coupon is returned, so the owner can give it to someone else.
 * Nobody is kept out: the account can never sign in again. Coupon before seat, the order every team change takes.
 */
export async function freeSeats({ trx, userId, actor, requestId }: Step): Promise<number> {
  const seats: { id: string; redeemedBulkCouponId: string }[] = await trx('purchases')
    .where({ userId })
    .whereNotNull('redeemedBulkCouponId')
    .whereIn('status', GRANTS_ACCESS)
    .select('id', 'redeemedBulkCouponId');
  let freed = 0;
  for (const { id, redeemedBulkCouponId } of seats) {
    await trx('coupons').where({ id: redeemedBulkCouponId }).forUpdate().first('id');
    const seat = await trx('purchases').where({ id }).whereIn('status', GRANTS_ACCESS).forUpdate().first('status');
    if (!seat) continue; // revoked by its owner meanwhile
    const after = { status: 'Revoked', statusReason: SEAT_FREED_REASON };
    await trx('purchases').where({ id }).update(after);
    await cancelOpenTransfers(trx, id);
    await trx('coupons').where({ id: redeemedBulkCouponId }).where('usedCount', '>', 0).decrement('usedCount', 1);
    await recordAudit(trx, {
      actor,
      requestId,
      action: 'team.seat-revoked',
      resource: 'purchases',
      recordId: id,
      before: { status: seat.status },
      after,
    });
    freed += 1;
  }
  return freed;
}

/**
 * Transfers under way end (docs/domain.md §8): the person's own purchases offered to someone are canceled with no
 * fresh offer (nobody is left to make one); an offer made to them is canceled as its owner's cancel does, and the
 * owner gets a fresh AVAILABLE row with the same window, so they may offer it to someone else.
 */
export async function cancelTransfers({ trx, userId, actor, requestId }: Step): Promise<number> {
  const own: string[] = await trx('purchases').where({ userId }).orderBy('id').forUpdate().pluck('id');
  const ending: string[] = await trx('purchaseUserTransfers')
    .whereIn('purchaseId', own)
    .whereIn('transferState', CANCELABLE_TRANSFER_STATES)
    .pluck('id');
  let canceled = 0;
  for (const id of own) canceled += await cancelOpenTransfers(trx, id);

  const offered: { id: string; purchaseId: string; transferState: string; expiresAt: Date }[] = await trx(
    'purchaseUserTransfers',
  )
    .where({ targetUserId: userId })
    .whereIn('transferState', CANCELABLE_TRANSFER_STATES)
    .select('id', 'purchaseId', 'transferState', 'expiresAt');
  for (const transfer of offered) {
    const purchase = await trx('purchases').where({ id: transfer.purchaseId }).forUpdate().first('id', 'userId');
    const [ended] = await trx('purchaseUserTransfers')
      .where({ id: transfer.id })
      .whereIn('transferState', CANCELABLE_TRANSFER_STATES)
      .update({ transferState: 'CANCELED', canceledAt: trx.fn.now() })
      .returning('id');
    if (!ended) continue;
    await trx('purchaseUserTransfers').insert({
      purchaseId: purchase.id,
      sourceUserId: purchase.userId,
      transferState: 'AVAILABLE',
      expiresAt: transfer.expiresAt,
    });
    await recordAudit(trx, {
      actor,
      requestId,
      action: 'transfer.canceled',
      resource: 'purchase-user-transfers',
      recordId: transfer.id,
      before: { state: transfer.transferState },
      after: { state: 'CANCELED', reason: 'recipient-deleted' },
    });
    canceled += 1;
  }
  // An open transfer naming the person that the loops above did not end would outlive them: none may.
  await trx('purchaseUserTransfers')
    .where({ targetUserId: userId })
    .whereIn('transferState', OPEN_TRANSFER_STATES)
    .update({ targetUserId: null });
  // Offers made to the person were emailed to their address: eraseContact cancels those.
  await cancelOfferEmails(trx, ending);
  return canceled;
}

/**
 * An offer's email not sent yet would invite its recipient to a transfer that has ended: canceled as the person's
 * own are (failed, its body dropped, so no retry sends it). The email names its transfer by its page's link.
 */
async function cancelOfferEmails(trx: Knex.Transaction, transferIds: string[]): Promise<void> {
  if (transferIds.length === 0) return;
  await trx('outboxEmails')
    .where({ kind: 'transfer-offer', status: 'pending' })
    .where((q) => {
      for (const id of transferIds) q.orWhere('textBody', 'like', `%/transfers/${id}%`);
    })
    .update({
      status: 'failed',
      lastError: 'Canceled: the transfer ended when an account was deleted.',
      textBody: null,
      htmlBody: null,
    });
}

/** The checkouts the person started: signed in, or as a guest with their address. */
const checkoutsOf = (trx: Knex.Transaction, userId: string, email: string) =>
  trx('checkouts').where((q) => q.where({ buyerUserId: userId }).orWhereRaw('lower(buyer_email) = lower(?)', [email]));

/**
 * Locks the person's checkouts, in id order, before the deletion locks the person: a settlement locks its checkout
 * and then share-locks the buyer, so the deletion taking the person first and its checkouts later could deadlock.
 */
export async function lockCheckouts(trx: Knex.Transaction, userId: string, email: string): Promise<void> {
  await checkoutsOf(trx, userId, email).orderBy('id').forUpdate().select('id');
}

/**
 * What finance keeps stays (purchases, charges, refunds, the ledger, docs/domain.md §9), without who the person was:
 * the buyer's address and network go from their purchases and checkouts, and so do the billing details remembered
 * for a next checkout or kept by a subscription; the country (and the region tax followed) stays, as the sale's tax
 * evidence and a regional price's rule. Issued invoices keep the buyer they named: they are kept as issued (§18.5). A refund the provider
 * still holds no longer emails them when it settles.
 */
export async function anonymiseSales({ trx, userId, email, placeholder }: Step): Promise<void> {
  await trx('purchases').where({ userId }).update({ ipAddress: null, city: null, state: null });
  await checkoutsOf(trx, userId, email).update({
    buyerEmail: placeholder,
    ipAddress: null,
    city: null,
    state: null,
    clientNetwork: null,
    billingCompany: null,
    billingAddress: null,
    billingPostalCode: null,
    billingVatId: null,
  });
  await trx('billingProfiles').where({ userId }).delete();
  await trx('subscriptions')
    .where({ userId })
    .update({ billingCompany: null, billingAddress: null, billingPostalCode: null });
  await trx('merchantRefunds')
    .where({ status: 'pending' })
    .whereRaw(`lower(email_on_success->>'to') = lower(?)`, [email])
    .update({ emailOnSuccess: null });
}
