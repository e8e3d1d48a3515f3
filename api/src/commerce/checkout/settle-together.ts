import type { Knex } from 'knex';
import { timeOrderedId } from '../../db/time-ordered-id';
import { settlementInvoices } from '../../invoices/issue';
import { insertNumberedTogether } from '../../invoices/numbering';
import { byColumns, rowsInsert, sendTogether, type RowsInsert } from '../../db/rows-together';
import { chargesTogether } from './charge-rows';
import { checkFulfillable } from './fulfillable';
import { leadInPaths } from './lead-in';
import type { Buyer, LockedCheckout } from './locked-checkout';
import type { NewPurchase } from './purchase-rows';
import type { Alongside, SettleDeps } from './settle';
import { chargeOf, newPurchaseOf, receiptOf, type PaidCheckout, type SettleOutcome } from './settle-steps';

/**
 * The plain fulfilments of a batch written set-wise (docs/domain.md §6.2, "Fulfilment in batches"): the same rows the
 * settlement of one checkout writes (settle.ts), built by the same row builders, but each kind sent for all of them in
 * one statement: the new buyers, customers, charges and ledger lines in one; each invoice read (it reads its charge);
 * the purchases, settled checkouts, offers, receipts and their sign-in tokens and jobs, events and invoices in one;
 * the coupons' counts. What is not plain is left for the caller to settle one by one after these.
 */

/** A provider event, as its settlement marks it processed. */
export interface ProcessedEvent {
  merchantAccountId: string;
  identifier: string;
  type: string;
}

export interface LockedPayment {
  locked: LockedCheckout;
  paid: PaidCheckout;
  /** The event's write, for a settlement one by one. */
  alongside: Alongside;
  /** The same write's row, for the batch's (which marks every event in one insert). */
  event: ProcessedEvent;
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
): Promise<{ settled: Map<string, SettleOutcome>; rest: LockedPayment[]; invoices: Invoice[] }> {
  const { plain, rest } = plainOf(payments);
  const now = clock.now();
  const leadIns = await leadInPaths(
    trx,
    plain.map((p) => p.locked.product.id),
  );
  const charges: Parameters<typeof chargesTogether>[1] = { buyers: [], charges: [], lines: [] };
  const receipts: { tokens: Row[]; emails: Row[] } = { tokens: [], emails: [] };
  const fulfilled: { payment: LockedPayment; buyer: Buyer; chargeId: string; invoiceId: string; purchaseId: string }[] =
    [];
  for (const payment of plain) {
    const { locked, paid } = payment;
    const { checkout } = locked;
    // A new buyer's account gets its id now: it is written with the charges, in their statement.
    const buyer: Buyer = locked.buyer ?? { id: timeOrderedId(), email: checkout.buyerEmail, created: true };
    const fulfillable = await checkFulfillable(trx, locked, buyer, now);
    // A refund or a one-seat team: settled one by one, as a lone checkout is.
    if (fulfillable.problem || fulfillable.converted) {
      rest.push(payment);
      continue;
    }
    const { input, lines, facts } = chargeOf(locked, buyer, paid, accountId, locked.merchantProductId!);
    if (buyer.created) charges.buyers.push({ id: buyer.id, email: buyer.email });
    charges.charges.push(input);
    charges.lines.push(...lines);
    // The invoice's and the purchase's ids are chosen now: the receipt links to the one, the invoice names the other.
    const invoiceId = timeOrderedId();
    const purchaseId = timeOrderedId();
    const paper = { invoiceId, checkout, product: locked.product, buyer, charge: facts, publicUrl: config.publicUrl };
    const leadIn = leadIns.get(checkout.productId);
    const receipt = await receiptOf(trx, { ...paper, now, alreadyOwned: false, leadIn });
    if (receipt) {
      receipts.tokens.push(receipt.token.row);
      receipts.emails.push(await outbox.row(trx, receipt.email));
    }
    fulfilled.push({ payment, buyer, chargeId: facts.id, invoiceId, purchaseId });
  }
  if (fulfilled.length === 0) return { settled: new Map(), rest, invoices: [] };
  await sendTogether(trx, 'fulfil-charges', chargesTogether(trx, charges));

  const couponUses = new Map<string, number>();
  const settled = new Map<string, SettleOutcome>();
  // Each reads its own charge, as it stands in this transaction; written, numbered, by the transaction's last statement
  // (`issueNumbered`), after these and the rest's writes (docs/domain.md §18.5).
  const invoices = await settlementInvoices(
    trx,
    fulfilled.map((f) => ({ ...f, checkoutId: f.payment.locked.checkout.id })),
  );
  const purchases: Purchased[] = [];
  for (const { payment, buyer, chargeId, purchaseId } of fulfilled) {
    const { checkout } = payment.locked;
    const status = checkout.restricted ? 'Restricted' : 'Valid';
    purchases.push({
      row: newPurchaseOf(checkout, buyer, { id: chargeId }, status, purchaseId),
      checkoutId: checkout.id,
      offerDays: status === 'Valid' ? config.TRANSFER_WINDOW_DAYS : null,
      event: payment.event,
    });
    // A limited coupon's use was counted when the checkout began; an unlimited one's is counted now.
    if (checkout.couponId && !checkout.couponReserved)
      couponUses.set(checkout.couponId, (couponUses.get(checkout.couponId) ?? 0) + 1);
    settled.set(checkout.id, { status: 'fulfilled', purchaseId, email: true, alongside: true });
  }
  const jobs = await outbox.deliveryJobs(
    trx,
    receipts.emails.map((email) => email.id as string),
  );
  const parts = [
    ...purchasesTogether(trx, purchases),
    ...named(trx, 'tokens', byColumns({ table: 'verificationTokens', rows: receipts.tokens })),
    ...named(trx, 'emails', byColumns({ table: 'outboxEmails', rows: receipts.emails, json: ['attachments'] })),
    ...(jobs ? [['jobs', jobs.insert] as [string, Knex.Raw]] : []),
  ];
  await sendTogether(trx, 'fulfil-purchases', parts);
  for (const [couponId, uses] of couponUses) await trx('coupons').where({ id: couponId }).increment('usedCount', uses);
  return { settled, rest, invoices: invoices.map((i) => i.row as Invoice) };
}

type Invoice = Record<string, unknown> & { id: string };

/**
 * The batch's invoices, numbered as they are written (`insertNumberedTogether`): sent as the transaction's last
 * statement, so the invoice counter, which every issuer queues on, is held for it and the commit alone.
 */
export const issueNumbered = (trx: Knex.Transaction, invoices: Invoice[]) =>
  insertNumberedTogether(trx, 'invoice', invoices, ['seller', 'buyer', 'lines']);

type Row = Record<string, unknown>;

const named = (trx: Knex.Transaction, name: string, specs: RowsInsert[]) =>
  specs.map((spec, n): [string, Knex.Raw] => [`${name}_${n}`, rowsInsert(trx, spec)]);

/** A plain settlement's purchase: its row (its id chosen), the checkout it settles, its offer's days, its event. */
interface Purchased {
  row: NewPurchase;
  checkoutId: string;
  offerDays: number | null;
  event: ProcessedEvent;
}

/**
 * The purchases, each settling its checkout, with the offers of the valid ones to be given away (`offerDays` after the
 * purchase) and their provider events marked processed (as the events' own write does: a processed one is left as
 * it is), as statement parts of a fixed text whatever their number.
 */
function purchasesTogether(trx: Knex.Transaction, purchases: Purchased[]): [string, Knex.Raw][] {
  const offers = purchases
    .filter((p) => p.offerDays !== null)
    .map((p) => ({ purchase_id: p.row.id, secs: p.offerDays! * 86_400 }));
  const settled = purchases.map((p) => ({ id: p.checkoutId, buyer_user_id: p.row.userId, purchase_id: p.row.id }));
  return [
    [
      'purchase',
      rowsInsert(trx, {
        table: 'purchases',
        rows: purchases.map((p) => p.row),
        suffix: 'RETURNING id, user_id, created_at',
      }),
    ],
    [
      'settled',
      trx.raw(
        `UPDATE checkouts AS c SET status = 'fulfilled', buyer_user_id = s.buyer_user_id, purchase_id = s.purchase_id
         FROM jsonb_to_recordset(?::jsonb) AS s(id uuid, buyer_user_id uuid, purchase_id uuid) WHERE c.id = s.id`,
        [JSON.stringify(settled)],
      ),
    ],
    [
      'offers',
      trx.raw(
        `INSERT INTO purchase_user_transfers (purchase_id, source_user_id, transfer_state, expires_at)
         SELECT p.id, p.user_id, 'AVAILABLE', p.created_at + make_interval(secs => o.secs)
         FROM purchase p JOIN jsonb_to_recordset(?::jsonb) AS o(purchase_id uuid, secs double precision)
           ON o.purchase_id = p.id`,
        [JSON.stringify(offers)],
      ),
    ],
    [
      'events',
      rowsInsert(trx, {
        table: 'merchantEvents',
        rows: purchases.map((p) => ({ ...p.event })),
        computed: { processedAt: 'now()' },
        suffix:
          'ON CONFLICT (merchant_account_id, identifier) DO UPDATE SET processed_at = now() WHERE merchant_events.processed_at IS NULL',
      }),
    ],
  ];
}
