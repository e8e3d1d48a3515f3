import type { Knex } from 'knex';
import { enrollmentState } from '../../catalog/service';
import { workshopInvite } from '../../catalog/workshops/workshops';
import { isUserBlocked } from '../../identity/staff/blocks';
import { findOrCreateUserByEmail } from '../../identity/profile/users';
import type { NewEmail, Outbox } from '../../mail/outbox';
import { receiptEmail, unfulfillableRefundEmail } from '../../mail/templates';
import { merchantProductId } from '../../payments/merchant-records';
import type { ProviderCheckout } from '../../payments/provider';
import {
  addSeats,
  countCouponUse,
  giveCouponUseBack,
  insertAccount,
  insertCharge,
  insertPurchase,
  insertPurchaseWith,
  insertRefund,
  insertTeamCoupon,
  lockPurchase,
  lockTeamCoupon,
  refundableOf,
  settleCheckout,
  upgradeOf,
  type Buyer,
  type CheckoutRow,
  type CheckoutSettlement,
  type LockedCheckout,
  type NewPurchase,
  type ProductFacts,
} from './queries';
import { RECEIPT_SIGN_IN_DAYS } from '../../identity/sign-in/email-sign-in';
import { inviteUrlOf, leadInPath, receiptSignInLink, teamOfTeamPurchase, teamPathOf } from './lead-in';
import { GRANTING_STATUSES } from '../models';
import { formatMoney } from '../../shared/money';
import { holdingOf } from '../purchases/ownership';
import { seatsSold } from '../teams/seats';
import { cancelOpenTransfers } from '../transfers/transfers';
import type { CheckoutStatus } from '../schemas';

/**
 * The steps of a checkout's settlement (checkout.ts lists them in order, under the checkout's lock). Each is a plain
 * function of the transaction and what the steps before it found; the SQL is in queries.ts.
 */

export type Availability =
  | 'sold-out'
  | 'enrollment-closed'
  | 'enrollment-not-open'
  | 'upgrade-not-available'
  | 'already-purchased'
  | 'buyer-blocked'
  | null;

export const MESSAGES: Record<Exclude<Availability, null>, string> = {
  'sold-out': 'This course is sold out.',
  'enrollment-closed': 'Enrollment for this course has closed.',
  'enrollment-not-open': 'Enrollment for this course has not opened yet.',
  'upgrade-not-available':
    'The course this upgrade was priced from is no longer yours to upgrade (it was upgraded, refunded or given away).',
  'already-purchased':
    'You already have this course, and a copy bought at a regional price cannot be given away as a seat.',
  'buyer-blocked':
    'Purchases are not possible for this account. If you think this is a mistake, contact our support team.',
};

/** What one settlement did, for the work after commit. */
export interface SettleOutcome {
  status: CheckoutStatus;
  purchaseId: string | null;
  /** A receipt was queued: the outbox is flushed after commit. */
  email?: boolean;
  /** The caller's write ran, and committed with the settlement. */
  alongside?: boolean;
  /** A full refund reserved under the locks, asked of the provider after commit (never under them). */
  refund?: { id: string; chargeId: string; reason: string; apology: NewEmail };
}

/** A provider checkout that was paid: it has its charge (and the customer who paid it). */
export type PaidCheckout = ProviderCheckout & { charge: NonNullable<ProviderCheckout['charge']> };

/** Whether the product can be had now: its enrollment window, and its seats (counted under the product's lock). */
export async function availability(
  trx: Knex | Knex.Transaction,
  product: ProductFacts,
  seats: number,
  now: Date,
): Promise<Availability> {
  const enrollment = enrollmentState(product, now);
  if (enrollment !== 'open') return enrollment === 'closed' ? 'enrollment-closed' : 'enrollment-not-open';
  if (product.quantityAvailable >= 0 && (await seatsSold(trx, product.id)) + seats > product.quantityAvailable)
    return 'sold-out';
  return null;
}

/**
 * The purchase an upgrade was priced from must still be the buyer's, grant access and not have been upgraded:
 * two upgrade checkouts paid at once, or a transfer meanwhile, must not spend one credit twice. Locked, so the
 * unique key on upgraded_from_id is never what decides.
 */
async function upgradeProblem(trx: Knex.Transaction, checkout: CheckoutRow, buyer: Buyer): Promise<Availability> {
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

/** A purchase needs an account: the buyer's, or a new one (unverified until they sign in) for the checkout's email. */
export async function resolveBuyer(trx: Knex.Transaction, locked: LockedCheckout): Promise<Buyer> {
  const email = locked.checkout.buyerEmail;
  // One created meanwhile (the insert meets it) is found instead.
  return (
    locked.buyer ??
    (await insertAccount(trx, email)) ??
    (await findOrCreateUserByEmail(trx, email, { verified: false }))
  );
}

/** The money is recorded before anything is decided: even a payment that must be refunded was taken. */
export async function recordCharge(
  trx: Knex.Transaction,
  locked: LockedCheckout,
  buyer: Buyer,
  paid: PaidCheckout,
  accountId: string,
  providerLabel: string,
): Promise<{ id: string } | null> {
  const { checkout, product } = locked;
  return insertCharge(trx, {
    accountId,
    customerIdentifier: paid.customer!.identifier,
    userId: buyer.id,
    charge: paid.charge,
    currency: checkout.currency,
    merchantProductId:
      locked.merchantProductId ??
      (await merchantProductId(trx, accountId, product.id, `${providerLabel}-${product.id}`)),
    metadata: { checkoutId: checkout.id, country: checkout.country },
  });
}

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
  const holds =
    !locked.checkout.team &&
    !locked.checkout.upgradeFromId &&
    Boolean(await holdingOf(trx, buyer.id, locked.checkout.productId));
  const converted = holds && !locked.checkout.restricted;
  const checkout = converted ? { ...locked.checkout, team: true } : locked.checkout;
  const seats = checkout.team ? checkout.quantity : 1;
  const problem: Availability =
    // Share-locked: a block committing meanwhile waits, and this purchase stays as the person's earlier ones do.
    ((await isUserBlocked(trx, buyer.id, true)) ? 'buyer-blocked' : null) ??
    (holds && !converted ? 'already-purchased' : null) ??
    (await availability(trx, locked.product, seats, now)) ??
    (await upgradeProblem(trx, checkout, buyer));
  return { checkout, converted, problem };
}

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
 * A paid checkout's receipt (a free one sends none), prepared for the statement that writes its purchase. It leads
 * in with a sign-in link written in this transaction: onto the course, or for a team's buyer onto the team page with
 * the invite link (so a team's receipt is prepared once its purchase, `purchaseId`, is written).
 */
export async function queueReceipt(
  trx: Knex.Transaction,
  outbox: Pick<Outbox, 'prepare'>,
  step: {
    checkout: CheckoutRow;
    product: ProductFacts;
    buyer: Buyer;
    charge: { id: string } | null;
    publicUrl: string;
    now: Date;
    purchaseId?: string;
    /** When the console sends it again: its request's key (see receipt-again.ts). */
    resendKey?: string;
    /** Paid for by an address that already had the course: made a one-seat team (checkFulfillable). */
    alreadyOwned?: boolean;
  },
): Promise<{ insert: Knex.QueryBuilder; queue(): Promise<string> } | null> {
  const { checkout, charge, publicUrl } = step;
  if (!charge) return null;
  const invoiceUrl = new URL(`/invoices/${charge.id}`, publicUrl).toString();
  const amount = formatMoney(checkout.amountTotal, checkout.currency);
  const seats = checkout.team ? { seats: checkout.quantity, alreadyOwned: step.alreadyOwned === true } : null;
  const team = checkout.team && step.purchaseId ? await teamOfTeamPurchase(trx, step.purchaseId) : undefined;
  const path = team ? teamPathOf(team.teamId) : await leadInPath(trx, checkout.productId);
  const signInUrl = await receiptSignInLink(trx, { publicUrl, email: step.buyer.email, path, now: step.now });
  const leadIn = {
    signInUrl,
    days: RECEIPT_SIGN_IN_DAYS,
    ...(team && { inviteUrl: inviteUrlOf(publicUrl, team.inviteCode) }),
  };
  const receipt = receiptEmail(step.buyer.email, step.product.name, amount, invoiceUrl, seats, leadIn);
  // A live workshop's receipt carries its sessions' calendar invite; not a team's (its buyer holds no seat yet, and
  // the invite carries the join link).
  const invite = checkout.team ? null : await workshopInvite(trx, step.product, publicUrl);
  const email = { ...receipt, resendKey: step.resendKey, ...(invite && { attachments: [invite] }) };
  return outbox.prepare(trx, email);
}

/**
 * The buyer gets what they paid for: the coupon use counted, an upgrade's source closed to transfers, and the
 * purchase written with its checkout's settlement and `also` (the receipt, a caller's write).
 */
export async function grantAccess(
  trx: Knex.Transaction,
  step: {
    checkout: CheckoutRow;
    buyer: Buyer;
    charge: { id: string } | null;
    converted: boolean;
    also: Knex.QueryBuilder[];
    offerDays: number;
  },
): Promise<string> {
  const { checkout, buyer } = step;
  // A limited coupon's use was counted when the checkout began; an unlimited one's is counted now.
  if (checkout.couponId && !checkout.couponReserved) await countCouponUse(trx, checkout.couponId);
  // The credit is spent: the source can no longer be given away (docs/domain.md §5.3).
  if (checkout.upgradeFromId && !checkout.team) await cancelOpenTransfers(trx, checkout.upgradeFromId);
  const settled = { status: 'fulfilled' as const, buyerUserId: buyer.id, ...(step.converted && { team: true }) };
  const status = checkout.restricted ? 'Restricted' : 'Valid';
  return writePurchase(trx, checkout, buyer, step.charge, status, settled, step.also, step.offerDays);
}

/**
 * Writes the purchase of a settled checkout (for teams also the team coupon, or more seats on it), settles the
 * checkout row and runs the writes that go with it; a Valid individual purchase gets its offer to be given to
 * someone else for `offerDays` (docs/domain.md §8). An individual purchase is written in one statement.
 */
async function writePurchase(
  trx: Knex.Transaction,
  checkout: CheckoutRow,
  buyer: Buyer,
  charge: { id: string } | null,
  status: 'Valid' | 'Restricted' | 'Refunded',
  settled: CheckoutSettlement,
  also: Knex.QueryBuilder[],
  offerDays: number,
): Promise<string> {
  const purchase: NewPurchase = {
    userId: buyer.id,
    productId: checkout.productId,
    status,
    totalAmount: checkout.amountTotal,
    currency: checkout.currency,
    country: checkout.country,
    ipAddress: checkout.ipAddress,
    city: checkout.city,
    state: checkout.state,
    couponId: checkout.couponId,
    merchantChargeId: charge?.id ?? null,
    merchantSessionId: checkout.merchantSessionId,
    // A refunded payment spent no credit: the source stays upgradable.
    upgradedFromId: checkout.team || status === 'Refunded' ? null : checkout.upgradeFromId,
  };
  if (!checkout.team || status === 'Refunded')
    return insertPurchaseWith(trx, purchase, checkout.id, settled, status === 'Valid' ? offerDays : null, also);
  // Team: more seats on the buyer's existing team coupon, or a new team with its own 100 % coupon.
  const couponId = await lockTeamCoupon(trx, buyer.id, checkout.productId);
  let purchaseId: string;
  if (couponId) {
    await addSeats(trx, couponId, checkout.quantity);
    purchaseId = await insertPurchase(trx, { ...purchase, bulkCouponId: couponId });
  } else {
    purchaseId = await insertPurchase(trx, purchase);
    await insertTeamCoupon(trx, purchaseId, checkout.productId, checkout.quantity);
  }
  await settleCheckout(trx, checkout.id, { ...settled, purchaseId });
  for (const query of also) await query;
  return purchaseId;
}
