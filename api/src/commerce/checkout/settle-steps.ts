import { timeOrderedId } from '../../db/time-ordered-id';
import type { Knex } from 'knex';
import { workshopReceipt } from '../../catalog/workshops/workshops';
import { timeZoneOf } from '../../identity/profile/prefs';
import { findOrCreateUserByEmail } from '../../identity/profile/users';
import { RECEIPT_SIGN_IN_DAYS } from '../../identity/sign-in/email-sign-in';
import type { NewEmail, Outbox } from '../../mail/outbox';
import { receiptEmail } from '../../mail/templates';
import { merchantProductId } from '../../payments/merchant-records';
import type { ProviderCheckout } from '../../payments/provider';
import { ledger, type ChargeFacts } from '../../finance/ledger';
import { formatMoney } from '../../shared/money';
import type { CheckoutStatus } from '../schemas';
import { holdingOf } from '../purchases/ownership';
import { latestInvoiceOf } from '../../invoices/issue';
import { cancelOpenTransfers } from '../transfers/transfers';
import type { CheckoutRow } from './checkout-rows';
import { insertCharge, type NewCharge } from './charge-rows';
import { quotedTaxOf, taxColumnsOf } from './tax-columns';
import type { TaxColumns } from '../../tax/models';
import { countCouponUse } from './holds';
import { inviteUrlOf, leadInPath, receiptSignInLinkWrite, teamOfTeamPurchase, teamPathOf } from './lead-in';
import { insertAccount, type Buyer, type LockedCheckout, type ProductFacts } from './locked-checkout';
import {
  addSeats,
  insertPurchase,
  insertPurchaseWith,
  insertTeamCoupon,
  lockTeamCoupon,
  settleCheckout,
  type CheckoutSettlement,
  type NewPurchase,
} from './purchase-rows';

/**
 * The steps of a checkout's settlement that write (settle.ts runs them in order, under the checkout's lock): the
 * buyer's account, the charge, the receipt and the purchase. Each is a plain function of the transaction and what
 * the steps before it found.
 */

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

/**
 * The money is recorded before anything is decided: even a payment that must be refunded was taken. The sale enters
 * the ledger with its charge, in the same statement (a refund is its own entry).
 */
export async function recordCharge(
  trx: Knex.Transaction,
  locked: LockedCheckout,
  buyer: Buyer,
  paid: PaidCheckout,
  accountId: string,
  providerLabel: string,
): Promise<Omit<ChargeFacts, 'productId'> | null> {
  const mirror =
    locked.merchantProductId ??
    (await merchantProductId(trx, accountId, locked.product.id, `${providerLabel}-${locked.product.id}`));
  const { input, lines } = chargeOf(locked, buyer, paid, accountId, mirror);
  return insertCharge(trx, input, [trx('splitLines').insert(lines)]);
}

/** The charge a paid checkout records and its ledger lines' rows, with the money they say (for `insertCharge` or a batch). */
export function chargeOf(
  { checkout, product, revenueSplits }: LockedCheckout,
  buyer: Buyer,
  paid: PaidCheckout,
  accountId: string,
  mirror: string,
): { input: NewCharge; lines: Record<string, unknown>[]; facts: Omit<ChargeFacts, 'productId'> } {
  // What the provider computed (Stripe Tax), else the tax the checkout quoted, which the provider charged.
  const tax = paid.tax !== undefined ? taxColumnsOf(paid.tax) : quotedTaxColumns(checkout);
  const { amount, fee } = paid.charge;
  const facts = { id: timeOrderedId(), amount, taxAmount: tax.taxAmount, fee, currency: checkout.currency };
  const input: NewCharge = {
    id: facts.id,
    accountId,
    customerIdentifier: paid.customer!.identifier,
    userId: buyer.id,
    charge: paid.charge,
    currency: checkout.currency,
    merchantProductId: mirror,
    metadata: { checkoutId: checkout.id, country: checkout.country },
    tax,
  };
  return { input, lines: ledger.saleRows({ ...facts, productId: product.id }, revenueSplits), facts };
}

const quotedTaxColumns = (checkout: CheckoutRow): TaxColumns => taxColumnsOf(quotedTaxOf(checkout));

/** What a receipt is written from: the settlement's facts so far. */
type ReceiptStep = {
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
  /** Sent again to a payer who gave the purchase away: it leads to their invoices, with no workshop schedule. */
  givenAway?: boolean;
  /** Where the course's purchase leads, when the caller read it already (`leadInPaths`). */
  leadIn?: string;
  /** The invoice a settlement issues after its receipt is prepared (else the charge's invoice as it stands). */
  invoiceId?: string;
  /**
   * Where the receipt's sign-in token's insert and its delivery job's go when the caller sends them with the
   * receipt (else the token is written now and the job by `queue`).
   */
  writes?: (Knex.QueryBuilder | Knex.Raw)[];
};

/**
 * A paid checkout's receipt (a free one sends none), prepared for the statement that writes its purchase. It leads
 * in with a sign-in link written in this transaction: onto the course, or for a team's buyer onto the team page with
 * the invite link (so a team's receipt is prepared once its purchase, `purchaseId`, is written).
 */
export async function queueReceipt(
  trx: Knex.Transaction,
  outbox: Pick<Outbox, 'prepare'> & Partial<Pick<Outbox, 'prepareWithJob'>>,
  step: ReceiptStep,
): Promise<{ insert: Knex.QueryBuilder; queue(): Promise<unknown> } | null> {
  const receipt = await receiptOf(trx, step);
  if (!receipt) return null;
  const { email, token } = receipt;
  if (step.writes) step.writes.push(token.insert);
  else await token.insert;
  if (!step.writes || !outbox.prepareWithJob) return outbox.prepare(trx, email);
  // Its delivery job goes with the caller's statement too: nothing is left to add after it.
  const prepared = await outbox.prepareWithJob(trx, email);
  step.writes.push(prepared.job);
  return { insert: prepared.insert, queue: async () => undefined };
}

/** `queueReceipt`'s email and its sign-in token's write, neither written yet; null for a free checkout's. */
export async function receiptOf(
  trx: Knex.Transaction,
  step: Omit<ReceiptStep, 'writes'>,
): Promise<{ email: NewEmail; token: { insert: Knex.QueryBuilder; row: Record<string, unknown> } } | null> {
  const { checkout, charge, publicUrl } = step;
  if (!charge) return null;
  // The charge's invoice as it stands (issued with the charge; an old charge's link by its id finds it too).
  const invoice = step.invoiceId ? { id: step.invoiceId } : await latestInvoiceOf(trx, charge.id);
  const invoiceUrl = new URL(`/invoices/${invoice?.id ?? charge.id}`, publicUrl).toString();
  const amount = formatMoney(checkout.amountTotal, checkout.currency);
  const seats = checkout.team
    ? {
        seats: checkout.quantity,
        alreadyOwned: step.alreadyOwned === true,
        gift: checkout.gift,
        ownsCourse: Boolean(await holdingOf(trx, step.buyer.id, checkout.productId)),
      }
    : null;
  const team = checkout.team && step.purchaseId ? await teamOfTeamPurchase(trx, step.purchaseId) : undefined;
  // A live workshop's receipt: its sessions in the buyer's zone, and one calendar file with all of them; not a
  // team's (its buyer holds no seat yet, and the file carries the join link). It leads to My learning's schedule.
  const workshop =
    checkout.team || step.givenAway
      ? null
      : await workshopReceipt(trx, step.product, publicUrl, () => timeZoneOf(trx, step.buyer.id));
  const path = step.givenAway
    ? '/invoices'
    : team
      ? teamPathOf(team.teamId)
      : workshop
        ? '/learning'
        : (step.leadIn ?? (await leadInPath(trx, checkout.productId)));
  const link = receiptSignInLinkWrite(trx, { publicUrl, email: step.buyer.email, path, now: step.now });
  const signInUrl = link.link;
  const leadIn = {
    signInUrl,
    days: RECEIPT_SIGN_IN_DAYS,
    ...(team && { inviteUrl: inviteUrlOf(publicUrl, team.inviteCode) }),
  };
  const receipt = receiptEmail(
    step.buyer.email,
    step.product.name,
    amount,
    invoiceUrl,
    seats,
    leadIn,
    workshop?.schedule ?? null,
  );
  const invite = workshop?.invite;
  const email = { ...receipt, resendKey: step.resendKey, ...(invite && { attachments: [invite] }) };
  return { email, token: link };
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
    also: (Knex.QueryBuilder | Knex.Raw)[];
    offerDays: number;
    /** The purchase's id, chosen before (the writes in `also` name it). */
    purchaseId: string;
  },
): Promise<string> {
  const { checkout, buyer } = step;
  // A limited coupon's use was counted when the checkout began; an unlimited one's is counted now.
  if (checkout.couponId && !checkout.couponReserved) await countCouponUse(trx, checkout.couponId);
  // The credit is spent: the source can no longer be given away (docs/domain.md §5.3).
  if (checkout.upgradeFromId && !checkout.team) await cancelOpenTransfers(trx, checkout.upgradeFromId);
  const settled = { status: 'fulfilled' as const, buyerUserId: buyer.id, ...(step.converted && { team: true }) };
  const status = checkout.restricted ? 'Restricted' : 'Valid';
  return writePurchase(trx, checkout, buyer, step.charge, status, settled, step.also, step.offerDays, step.purchaseId);
}

/** The purchase row a settled checkout writes. */
export const newPurchaseOf = (
  checkout: CheckoutRow,
  buyer: Buyer,
  charge: { id: string } | null,
  status: 'Valid' | 'Restricted' | 'Refunded',
  id?: string,
): NewPurchase => ({
  ...(id && { id }),
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
});

/**
 * Writes the purchase of a settled checkout (for teams also the team coupon, or more seats on it), settles the
 * checkout row and runs the writes that go with it; a Valid individual purchase gets its offer to be given to
 * someone else for `offerDays` (docs/domain.md §8). An individual purchase is written in one statement.
 */
export async function writePurchase(
  trx: Knex.Transaction,
  checkout: CheckoutRow,
  buyer: Buyer,
  charge: { id: string } | null,
  status: 'Valid' | 'Restricted' | 'Refunded',
  settled: CheckoutSettlement,
  also: (Knex.QueryBuilder | Knex.Raw)[],
  offerDays: number,
  id?: string,
): Promise<string> {
  const purchase = newPurchaseOf(checkout, buyer, charge, status, id);
  if (!checkout.team || status === 'Refunded')
    return insertPurchaseWith(trx, purchase, checkout.id, settled, status === 'Valid' ? offerDays : null, also);
  // Team: more seats on the buyer's existing team coupon, or a new team with its own 100 % coupon. A gift is always
  // a team of its own: its claim link goes to one person, not to the buyer's team.
  const couponId = checkout.gift ? undefined : await lockTeamCoupon(trx, buyer.id, checkout.productId);
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
