import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { settlementInvoices } from '../../invoices/issue';
import { chargeParts, sendParts, type StatementParts } from './charge-rows';
import { checkFulfillable } from './fulfillable';
import { leadInPaths } from './lead-in';
import type { Buyer, LockedCheckout } from './locked-checkout';
import { purchaseParts } from './purchase-rows';
import type { Alongside, SettleDeps } from './settle';
import { chargeOf, newPurchaseOf, queueReceipt, type PaidCheckout, type SettleOutcome } from './settle-steps';

/**
 * The plain fulfilments of a batch written set-wise (docs/domain.md §6.2, "Fulfilment in batches"): the same rows the
 * settlement of one checkout writes (settle.ts), built by the same row builders, but each kind sent for all of them in
 * one statement: the new buyers, customers, charges and ledger lines in one; each invoice read (it reads its charge);
 * the purchases, settled checkouts, offers, receipts and their sign-in tokens and jobs, events and invoices in one;
 * the coupons' counts. What is not plain is left for the caller to settle one by one after these.
 */

export interface LockedPayment {
  locked: LockedCheckout;
  paid: PaidCheckout;
  alongside: Alongside;
}

/**
 * Whether a checkout can be settled beside others without seeing their writes: a paid, open, individual purchase of a
 * product with unlimited seats and a provider mirror, by a buyer (account, email, provider customer) no other plain
 * checkout of the batch has. The checks that read what other purchases wrote (seats, ownership, upgrades, teams)
 * would otherwise miss the batch's own.
 */
function plainOf(payments: LockedPayment[]): { plain: LockedPayment[]; rest: LockedPayment[] } {
  const seen = new Set<string>();
  const plain: LockedPayment[] = [];
  const rest: LockedPayment[] = [];
  for (const payment of payments) {
    const { checkout, product, buyer, merchantProductId } = payment.locked;
    const keys = [
      `email:${checkout.buyerEmail.toLowerCase()}`,
      ...(buyer ? [`user:${buyer.id}`] : []),
      `customer:${payment.paid.customer?.identifier ?? ''}`,
    ];
    const simple =
      checkout.status === 'open' &&
      !checkout.team &&
      !checkout.gift &&
      !checkout.upgradeFromId &&
      product.quantityAvailable < 0 &&
      merchantProductId !== null &&
      payment.paid.customer !== undefined &&
      !keys.some((key) => seen.has(key));
    if (simple) keys.forEach((key) => seen.add(key));
    (simple ? plain : rest).push(payment);
  }
  return { plain, rest };
}

/** Settles the plain payments set-wise; answers their outcomes by checkout id and the payments left for one by one. */
export async function settlePlainTogether(
  { clock, config, outbox }: SettleDeps,
  trx: Knex.Transaction,
  payments: LockedPayment[],
  accountId: string,
): Promise<{ settled: Map<string, SettleOutcome>; rest: LockedPayment[] }> {
  const { plain, rest } = plainOf(payments);
  const now = clock.now();
  const leadIns = await leadInPaths(
    trx,
    plain.map((p) => p.locked.product.id),
  );
  const chargeWrites: StatementParts = [];
  const fulfilled: {
    payment: LockedPayment;
    buyer: Buyer;
    chargeId: string;
    invoiceId: string;
    purchaseId: string;
    writes: (Knex.QueryBuilder | Knex.Raw)[];
  }[] = [];
  for (const payment of plain) {
    const { locked, paid } = payment;
    const { checkout } = locked;
    // A new buyer's account gets its id now: it is written with the charges, in their statement.
    const buyer: Buyer = locked.buyer ?? { id: randomUUID(), email: checkout.buyerEmail, created: true };
    const fulfillable = await checkFulfillable(trx, locked, buyer, now);
    // A refund or a one-seat team: settled one by one, as a lone checkout is.
    if (fulfillable.problem || fulfillable.converted) {
      rest.push(payment);
      continue;
    }
    const tag = `_${fulfilled.length}`;
    const { input, lines, facts } = chargeOf(trx, locked, buyer, paid, accountId, locked.merchantProductId!);
    if (buyer.created) chargeWrites.push([`buyer${tag}`, trx('users').insert({ id: buyer.id, email: buyer.email })]);
    chargeWrites.push(...chargeParts(trx, input, [lines], tag));
    // The invoice's and the purchase's ids are chosen now: the receipt links to the one, the invoice names the other.
    const invoiceId = randomUUID();
    const purchaseId = randomUUID();
    const writes: (Knex.QueryBuilder | Knex.Raw)[] = [];
    const paper = { invoiceId, checkout, product: locked.product, buyer, charge: facts, publicUrl: config.publicUrl };
    const leadIn = leadIns.get(checkout.productId);
    const receipt = await queueReceipt(trx, outbox, { ...paper, now, alreadyOwned: false, writes, leadIn });
    if (receipt) writes.push(receipt.insert);
    fulfilled.push({ payment, buyer, chargeId: facts.id, invoiceId, purchaseId, writes });
  }
  await sendParts(trx, chargeWrites);

  const purchaseWrites: StatementParts = [];
  const couponUses = new Map<string, number>();
  const settled = new Map<string, SettleOutcome>();
  // Each reads its own charge, as it stands in this transaction; numbered as the batch commits (docs/domain.md §18).
  const invoices = await settlementInvoices(
    trx,
    fulfilled.map((f) => ({ ...f, checkoutId: f.payment.locked.checkout.id })),
  );
  for (const [n, { payment, buyer, chargeId, purchaseId, writes }] of fulfilled.entries()) {
    const { checkout } = payment.locked;
    const invoice = invoices[n]!;
    const status = checkout.restricted ? 'Restricted' : 'Valid';
    const purchase = newPurchaseOf(checkout, buyer, { id: chargeId }, status, purchaseId);
    const offerDays = status === 'Valid' ? config.TRANSFER_WINDOW_DAYS : null;
    const also = [...writes, payment.alongside(trx), invoice.insert];
    const settlement = { status: 'fulfilled' as const, buyerUserId: buyer.id };
    purchaseWrites.push(...purchaseParts(trx, purchase, checkout.id, settlement, offerDays, also, `_${n}`));
    // A limited coupon's use was counted when the checkout began; an unlimited one's is counted now.
    if (checkout.couponId && !checkout.couponReserved)
      couponUses.set(checkout.couponId, (couponUses.get(checkout.couponId) ?? 0) + 1);
    settled.set(checkout.id, { status: 'fulfilled', purchaseId, email: true, alongside: true });
  }
  await sendParts(trx, purchaseWrites);
  for (const [couponId, uses] of couponUses) await trx('coupons').where({ id: couponId }).increment('usedCount', uses);
  return { settled, rest };
}
