import ExcelJS from 'exceljs';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Db } from '../../api/src/db/connection';
import { monthCloseService } from '../../api/src/finance/month-close/month-closes';
import type { Deps, Services } from '../../api/src/services';
import { createProduct, createRevenueSplit, createUser } from '../../seeds/factories';
import { as, signedIn, type SignedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';
import { startStripeShop, soldOnStripe, type StripeShop } from '../support/stripe-sales';
import { deliverSigned, type StandIn } from '../support/stripe-stand-in';

const DAY_MS = 86_400_000;
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const monthStart = (month: string) => new Date(`${month}-01T00:00:00Z`);
const nextMonth = (month: string) => {
  const d = monthStart(month);
  d.setUTCMonth(d.getUTCMonth() + 1);
  return d.toISOString().slice(0, 7);
};
const previousMonth = (month: string) => {
  const d = monthStart(month);
  d.setUTCMonth(d.getUTCMonth() - 1);
  return d.toISOString().slice(0, 7);
};

/** Longer than a describe block of this file takes: a month ending sooner than that is waited out. */
const RUN_MS = 3 * 60_000;

/**
 * The month the database writes in (its clock is the real one), with room for the whole block: the tests write in it
 * at several moments and expect them all in one month, so a month ending within RUN_MS is waited out (its end
 * polled for), and the next one taken.
 */
async function monthOfTheRun(db: Db): Promise<string> {
  for (;;) {
    const { rows } = (await db.raw('SELECT now() AS at')) as { rows: { at: Date }[] };
    const at = rows[0]!.at;
    const month = at.toISOString().slice(0, 7);
    if (monthStart(nextMonth(month)).getTime() - at.getTime() > RUN_MS) return month;
    await new Promise((r) => setTimeout(r, 1_000));
  }
}

/** A split line's columns a copy keeps (not its id nor its date). */
const pickLine = (l: Record<string, unknown>) => ({
  merchantChargeId: l.merchantChargeId,
  productId: l.productId,
  recipientType: l.recipientType,
  userId: l.userId,
  kind: l.kind,
});

/** The number format of a cell, found by its row and its column's header. */
async function numberFormat(body: Buffer, name: string, row: number, header: string): Promise<string> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(body as unknown as ArrayBuffer);
  const sheet = book.getWorksheet(name)!;
  const column = (sheet.getRow(1).values as unknown[]).indexOf(header);
  return sheet.getRow(row).getCell(column).numFmt;
}

/** Reads a workbook's sheet as objects keyed by its header row. */
async function sheetRows(body: Buffer, name: string): Promise<Record<string, unknown>[]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(body as unknown as ArrayBuffer);
  const sheet = book.getWorksheet(name);
  if (!sheet) throw new Error(`no sheet ${name}`);
  const headers = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
  const rows: Record<string, unknown>[] = [];
  sheet.eachRow((row, n) => {
    if (n === 1) return;
    const values = (row.values as unknown[]).slice(1);
    rows.push(Object.fromEntries(headers.map((h, i) => [h, values[i] ?? null])));
  });
  return rows;
}

const binary = (res: request.Response, done: (error: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks)));
};

/** The month close's own clock (moved past a month's end), the rest of the product's the real one. */
const closingAt = (now: () => Date) => (services: Services, deps: Deps) => {
  services.monthCloses = monthCloseService({ ...deps, clock: { now } });
};

describe('closing a month (docs/domain.md §21)', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let shop: StripeShop;
  let stripe: StandIn;
  let app: StripeShop['app'];
  let finance: SignedIn;
  let support: SignedIn;
  // The month the database writes in during the run; the close's clock is moved past its end (the rest keep the
  // real one, or the staff's sessions would have expired by then).
  let month: string;
  let following: string;
  let now = new Date();

  beforeAll(async () => {
    month = await monthOfTheRun(db());
    following = nextMonth(month);
    shop = await startStripeShop(db(), { adjust: closingAt(() => now) });
    ({ stripe, app } = shop);
    finance = await signedIn(db(), ['finance']);
    support = await signedIn(db(), ['support']);
  }, RUN_MS + 60_000);
  afterAll(() => stripe?.close());

  let buyers = 0;
  let product: { id: string };
  const sell = () => soldOnStripe(db(), shop, product.id, `month-buyer-${++buyers}@example.com`);
  const refund = (purchaseId: string, amount: number) =>
    as(support, request(app).post(`/api/admin/purchases/${purchaseId}/refund`)).send({
      amount,
      reasonCode: 'customer-request',
      reason: 'Asked for it',
    });
  const close = (m: string, who: SignedIn = finance) =>
    as(who, request(app).post('/api/admin/month-closes')).send({ month: m });
  const exported = (m: string) =>
    as(finance, request(app).get(`/api/admin/month-closes/${m}/export.xlsx`))
      .buffer(true)
      .parse(binary);

  /** The ledger's lines dated in a month, summed per currency (read directly, not from any rollup). */
  async function ledgerOf(m: string): Promise<Map<string, number>> {
    const rows = (await db()('splitLines')
      .where('createdAt', '>=', monthStart(m))
      .andWhere('createdAt', '<', monthStart(nextMonth(m)))
      .groupBy('currency')
      .select('currency')
      .sum({ total: 'amount' })) as { currency: string; total: number | string }[];
    return new Map(rows.map((r) => [r.currency, Number(r.total)]));
  }

  const sold: Awaited<ReturnType<typeof sell>>[] = [];

  it('closes only an ended month, in order, for finance', async () => {
    product = await createProduct(db(), { name: 'Closing Course', unitAmount: 10_000 });
    const owner = await createUser(db(), { email: 'month-owner@example.com' });
    await createRevenueSplit(db(), { productId: product.id, type: 'platform', percent: 0.3 });
    await createRevenueSplit(db(), { productId: product.id, type: 'owner', percent: 0.7, userId: owner.id });
    for (let i = 0; i < 5; i++) sold.push(await sell());
    expect((await refund(sold[0]!.purchase.id, 2_500)).status).toBe(200);
    // A refund Stripe holds pending over the close: it counts when it succeeds.
    stripe.refundsPending(true);
    try {
      expect((await refund(sold[4]!.purchase.id, 3_000)).status).toBe(200);
    } finally {
      stripe.refundsPending(false);
    }
    // A yen sale line too: the workbook writes it in whole yen.
    const usdLine = await db()('splitLines').where({ kind: 'sale' }).first();
    await db()('splitLines').insert({
      ...pickLine(usdLine),
      currency: 'jpy',
      amount: 5_000,
      reference: 'yen-sale',
    });

    const malformed = await close('2026-13');
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('validation-failed');
    expect((await close(month, support)).status).toBe(403);

    // Still this month: it has not ended.
    const early = await close(month);
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('month-not-ended');

    // Two months on: the later month cannot be closed before this one, the first with any money.
    now = new Date(monthStart(nextMonth(following)).getTime() + 2 * DAY_MS);
    const skipped = await close(following);
    expect(skipped.status).toBe(409);
    expect(skipped.body.code).toBe('earlier-month-open');
    expect(skipped.body.message).toContain(month);

    const next = await as(finance, request(app).get('/api/admin/month-closes/next'));
    expect(next.status).toBe(200);
    expect(next.body.data).toMatchObject({ month, ended: true });
    expect(next.body.data.figures.map((f: { currency: string }) => f.currency)).toEqual(['jpy', 'usd']);
    expect(await db()('monthCloses')).toEqual([]);
  });

  it('waits for a write under way, freezes it with the month, and books a racing refund on one side of the close', async () => {
    const line = await db()('splitLines').where({ kind: 'sale' }).whereNotNull('userId').first();
    // A write of the month holds the lock every money write shares while its transaction is open.
    const writer = await db().transaction();
    const held = -321;
    await writer('splitLines').insert({
      merchantChargeId: line.merchantChargeId,
      productId: line.productId,
      recipientType: line.recipientType,
      userId: line.userId,
      kind: 'refund',
      amount: held,
      currency: line.currency,
      reference: 'held-write',
    });
    onTestFinished(async () => {
      if (!writer.isCompleted()) await writer.rollback();
    });
    let settled = false;
    const closing = Promise.resolve(close(month)).finally(() => (settled = true));
    // The close waits on the lock (a condition, not a pause): a request for it that is not granted yet.
    while (!settled) {
      const { rows } = await db().raw(
        `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND objid = 2026120205`,
      );
      if (rows[0].n > 0) break;
      await new Promise((r) => setImmediate(r));
    }
    const racing = Promise.resolve(refund(sold[1]!.purchase.id, 1_000));
    await writer.commit();
    const [closed, refunded] = await Promise.all([closing, racing]);
    expect(closed.status).toBe(201);
    expect(refunded.status).toBe(200);
    expect(closed.body).toMatchObject({ id: month, month, closedByEmail: finance.user.email });

    // The held write is in the frozen month; the racing refund is either in it too, or booked in the next month.
    const usd = closed.body.figures.find((f: { currency: string }) => f.currency === 'usd');
    const ledger = await ledgerOf(month);
    expect(usd.net).toBe(ledger.get('usd'));
    const heldLine = await db()('splitLines').where({ reference: 'held-write' }).first();
    expect(heldLine.belongsToMonth).toBeNull();
    const refundRow = await db()('merchantRefunds')
      .where({ merchantChargeId: sold[1]!.charge.id })
      .orderBy('createdAt', 'desc')
      .first();
    const refundLines = await db()('splitLines').where({ merchantChargeId: sold[1]!.charge.id, kind: 'refund' });
    if (refundRow.belongsToMonth === null) {
      expect(refundRow.createdAt.getTime()).toBeLessThan(monthStart(following).getTime());
      expect(refundLines.every((l: { belongsToMonth: string | null }) => l.belongsToMonth === null)).toBe(true);
    } else {
      expect(refundRow).toMatchObject({ belongsToMonth: month, createdAt: monthStart(following) });
      for (const l of refundLines) expect(l).toMatchObject({ belongsToMonth: month, createdAt: monthStart(following) });
    }
    const audit = await db()('auditLogs').where({ action: 'month.closed', recordId: month });
    expect(audit).toHaveLength(1);
  });

  it('refuses the same month twice and never reopens one', async () => {
    const again = await close(month);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('month-already-closed');
    await expect(db()('monthCloses').where({ month }).update({ figures: '[]' })).rejects.toThrow(/never reopened/);
    await expect(db()('monthCloses').where({ month }).delete()).rejects.toThrow(/never reopened/);
  });

  let before: Record<string, unknown>[];
  const summary0 = () => before.find((r) => r.Currency === 'usd')!;

  it('exports the month as one workbook whose sums equal the ledger', async () => {
    const answer = await exported(month);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe(XLSX);
    expect(answer.headers['content-disposition']).toContain(`month-close-${month}.xlsx`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(answer.body as unknown as ArrayBuffer);
    expect(book.worksheets.map((s) => s.name)).toEqual([
      'Summary',
      'Sales',
      'Refunds',
      'Tax',
      'Fees',
      'Splits',
      'Payouts',
    ]);
    before = await sheetRows(answer.body, 'Summary');
    expect(before.map((r) => r.Currency)).toEqual(['jpy', 'usd']);
    const summary = before.find((r) => r.Currency === 'usd');
    // Yen have no decimals: ¥5,000 is 5000, formatted without any.
    expect(before.find((r) => r.Currency === 'jpy')).toMatchObject({ 'Net revenue': 5_000 });
    expect(await numberFormat(answer.body, 'Summary', 2, 'Net revenue')).toBe('#,##0');
    expect(await numberFormat(answer.body, 'Summary', 3, 'Net revenue')).toBe('#,##0.00');
    const ledger = await ledgerOf(month);
    // Money in currency units: cents / 100, beside its currency.
    expect(summary).toMatchObject({ Month: month, Currency: 'usd', 'Net revenue': ledger.get('usd')! / 100 });
    const charges = await db()('merchantCharges').where('createdAt', '<', monthStart(following));
    const gross = charges.reduce((n: number, c: { amount: number }) => n + c.amount, 0);
    const fees = charges.reduce((n: number, c: { fee: number }) => n + c.fee, 0);
    expect(summary!['Gross sales']).toBe(gross / 100);
    expect(summary!['Fees']).toBe(fees / 100);
    const sales = await sheetRows(answer.body, 'Sales');
    expect(sales).toHaveLength(charges.length);
    const cents = (rows: Record<string, unknown>[], column: string) =>
      Math.round(rows.reduce((n, r) => n + Number(r[column]) * 100, 0));
    expect(cents(sales, 'Amount')).toBe(gross);
    const splits = await sheetRows(answer.body, 'Splits');
    expect(
      cents(
        splits.filter((r) => r.Currency === 'usd'),
        'Total',
      ),
    ).toBe(ledger.get('usd'));
    const refunds = await sheetRows(answer.body, 'Refunds');
    expect(refunds.length).toBeGreaterThanOrEqual(1);
    expect(refunds.every((r) => r['Belongs to month'] === null && String(r.Date).startsWith(month))).toBe(true);

    const open = await as(finance, request(app).get(`/api/admin/month-closes/${following}/export.xlsx`));
    expect(open.status).toBe(404);
    expect(open.body.code).toBe('month-not-closed');
  });

  it('books a late refund and a lost dispute of the closed month in the open month, marked, leaving the export as it was', async () => {
    const lateAt = monthStart(following);
    // Support refunds a purchase of the closed month, dated (by the database) in it: booked on the next month's first instant.
    expect((await refund(sold[2]!.purchase.id, 4_000)).status).toBe(200);
    // A refund made in Stripe's dashboard whose event arrives after the close.
    await deliverSigned(app, stripe.refundFromDashboard(sold[3]!.charge.identifier, 1_500));
    // A dispute opened and lost after the close.
    const dispute = stripe.openDispute(sold[1]!.charge.identifier);
    await deliverSigned(app, dispute.event);
    await deliverSigned(app, stripe.closeDispute(dispute.dispute, 'lost'));

    // The refund held pending since before the close succeeds now: booked now, for the month it was asked in.
    const held = await db()('merchantRefunds').where({ merchantChargeId: sold[4]!.charge.id }).first();
    expect(held).toMatchObject({ status: 'pending', belongsToMonth: null });
    await deliverSigned(app, stripe.settleRefund(held.identifier, 'succeeded'));

    for (const chargeId of [sold[2]!.charge.id, sold[3]!.charge.id, sold[4]!.charge.id]) {
      const [row] = await db()('merchantRefunds').where({ merchantChargeId: chargeId });
      expect(row).toMatchObject({ status: 'succeeded', belongsToMonth: month, createdAt: lateAt });
      const lines = await db()('splitLines').where({ merchantChargeId: chargeId, kind: 'refund' });
      expect(lines.length).toBeGreaterThan(0);
      for (const l of lines) expect(l).toMatchObject({ belongsToMonth: month, createdAt: lateAt });
      const [note] = await db()('invoices').where({ merchantChargeId: chargeId, kind: 'credit-note' });
      expect(note).toMatchObject({ belongsToMonth: month, suppliedAt: lateAt });
    }
    const [lost] = await db()('merchantDisputes').where({ merchantChargeId: sold[1]!.charge.id });
    expect(lost).toMatchObject({ status: 'lost', belongsToMonth: month, closedAt: lateAt });
    const disputeLines = await db()('splitLines').where({ merchantChargeId: sold[1]!.charge.id, kind: 'dispute' });
    for (const l of disputeLines) expect(l).toMatchObject({ belongsToMonth: month, createdAt: lateAt });
    // Nothing is dated in the closed month afterwards.
    expect((await ledgerOf(month)).get('usd')).toBe(Math.round((summary0()['Net revenue'] as number) * 100));

    const again = await exported(month);
    expect(await sheetRows(again.body, 'Summary')).toEqual(before);

    // The next month, once closed, carries them, marked as belonging to the closed month.
    const closed = await close(following);
    expect(closed.status).toBe(201);
    const usd = closed.body.figures.find((f: { currency: string }) => f.currency === 'usd');
    // The racing refund of the close above may be among them.
    const lateLines = await db()('splitLines').where({ belongsToMonth: month });
    expect(lateLines.every((l: { createdAt: Date }) => l.createdAt.getTime() === lateAt.getTime())).toBe(true);
    const late = lateLines.reduce((n: number, l: { amount: number }) => n + l.amount, 0);
    expect(usd.lateFromClosedMonths).toBe(late);
    expect(usd.net).toBe((await ledgerOf(following)).get('usd'));
    const nextBook = await exported(following);
    const refunds = await sheetRows(nextBook.body, 'Refunds');
    const lateRefunds = await db()('merchantRefunds').where({ belongsToMonth: month });
    expect(lateRefunds.length).toBeGreaterThanOrEqual(3);
    expect(refunds.map((r) => [r.Kind, r['Belongs to month']]).sort()).toEqual(
      [['dispute lost', month], ...lateRefunds.map(() => ['refund', month])].sort(),
    );
    expect(refunds.every((r) => r.Date === lateAt.toISOString())).toBe(true);
    const summary = (await sheetRows(nextBook.body, 'Summary')).find((r) => r.Currency === 'usd');
    expect(summary!['Of which booked late for closed months']).toBe(late / 100);
  });

  it('lists closed months as a console resource and reads one', async () => {
    const list = await as(finance, request(app).get('/api/admin/month-closes?sort=["month","DESC"]&range=[0,9]'));
    expect(list.status).toBe(200);
    expect(list.headers['content-range']).toBe('month-closes 0-1/2');
    expect(list.body.map((r: { id: string }) => r.id)).toEqual([following, month]);
    const one = await as(finance, request(app).get(`/api/admin/month-closes/${month}`));
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({
      id: month,
      month,
      figures: [{ currency: 'jpy', net: 5_000 }, { currency: 'usd' }],
    });
    expect((await as(support, request(app).get('/api/admin/month-closes'))).status).toBe(403);
  });
});

describe('a month closed after it ended, and the writes that come after it (docs/domain.md §21)', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let shop: StripeShop;
  let stripe: StandIn;
  let app: StripeShop['app'];
  let finance: SignedIn;
  let support: SignedIn;
  // Last month is closed while the database writes in this one, as in production; this one is closed with the close's
  // clock moved past its end.
  let month: string;
  let last: string;
  let now = new Date();

  beforeAll(async () => {
    month = await monthOfTheRun(db());
    last = previousMonth(month);
    shop = await startStripeShop(db(), { adjust: closingAt(() => now) });
    ({ stripe, app } = shop);
    finance = await signedIn(db(), ['finance']);
    support = await signedIn(db(), ['support']);
  }, RUN_MS + 60_000);
  afterAll(() => stripe?.close());

  const close = (m: string) => as(finance, request(app).post('/api/admin/month-closes')).send({ month: m });

  it('dates a refund held pending over the close when it succeeds: unmarked, like its ledger lines and credit note', async () => {
    const product = await createProduct(db(), { name: 'Late Refund Course', unitAmount: 10_000 });
    await createRevenueSplit(db(), { productId: product.id, type: 'platform', percent: 1 });
    const { purchase } = await soldOnStripe(db(), shop, product.id, 'late-refund-buyer@example.com');
    const { id: purchaseId, merchantChargeId } = purchase;
    stripe.refundsPending(true);
    try {
      const asked = await as(support, request(app).post(`/api/admin/purchases/${purchaseId}/refund`)).send({
        amount: 3_000,
        reasonCode: 'customer-request',
        reason: 'Asked for it',
      });
      expect(asked.status).toBe(200);
    } finally {
      stripe.refundsPending(false);
    }
    // Asked for on last month's 20th, as the processor dates it; still pending when last month is closed.
    const askedAt = new Date(`${last}-20T12:00:00Z`);
    await db()('merchantRefunds').where({ merchantChargeId }).update({ createdAt: askedAt });
    expect((await close(last)).status).toBe(201);

    const held = await db()('merchantRefunds').where({ merchantChargeId }).first();
    expect(held).toMatchObject({ status: 'pending', createdAt: askedAt, belongsToMonth: null });
    await deliverSigned(app, stripe.settleRefund(held.identifier, 'succeeded'));

    // Booked when it succeeded, in the open month, with its ledger lines and credit note: none of them marked.
    const refund = await db()('merchantRefunds').where({ merchantChargeId }).first();
    expect(refund).toMatchObject({ status: 'succeeded', belongsToMonth: null });
    expect(refund.createdAt.getTime()).toBeGreaterThanOrEqual(monthStart(month).getTime());
    const lines = await db()('splitLines').where({ merchantChargeId, kind: 'refund' });
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) expect(l).toMatchObject({ belongsToMonth: null, createdAt: refund.createdAt });
    const [note] = await db()('invoices').where({ merchantChargeId, kind: 'credit-note' });
    expect(note).toMatchObject({ belongsToMonth: null, suppliedAt: refund.createdAt });

    // This month closed: its figures are computed on the close's transaction, whose one connection takes one query
    // at a time (pg refuses a query while another runs on it).
    now = new Date(monthStart(nextMonth(month)).getTime() + 86_400_000);
    const running = new Map<string, Set<string>>();
    let most = 0;
    type Sent = { __knexUid?: string; __knexTxId?: string; __knexQueryUid?: string };
    const sent = ({ __knexUid: connection, __knexTxId: trx, __knexQueryUid: query }: Sent) => {
      if (!connection || !trx || !query) return;
      const queries = running.get(connection) ?? new Set();
      running.set(connection, queries.add(query));
      most = Math.max(most, queries.size);
    };
    const answered = (_: unknown, { __knexUid: connection, __knexQueryUid: query }: Sent) => {
      if (connection && query) running.get(connection)?.delete(query);
    };
    db().on('query', sent).on('query-response', answered).on('query-error', answered);
    try {
      expect((await close(month)).status).toBe(201);
    } finally {
      db().off('query', sent).off('query-response', answered).off('query-error', answered);
    }
    expect(most).toBe(1);

    // This month's workbook lists the refund as this month's, and nothing as booked late.
    const book = await as(finance, request(app).get(`/api/admin/month-closes/${month}/export.xlsx`))
      .buffer(true)
      .parse(binary);
    const refunds = await sheetRows(book.body, 'Refunds');
    expect(refunds).toEqual([
      expect.objectContaining({
        Kind: 'refund',
        Amount: 30,
        'Belongs to month': null,
        Date: refund.createdAt.toISOString(),
      }),
    ]);
    const summary = (await sheetRows(book.body, 'Summary')).find((r) => r.Currency === 'usd');
    expect(summary).toMatchObject({ Refunds: -30, 'Of which booked late for closed months': 0 });
  });
});

describe("a refund or a lost dispute made after the close of its sale's month (docs/domain.md §21)", () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let shop: StripeShop;
  let stripe: StandIn;
  let app: StripeShop['app'];
  let finance: SignedIn;
  let support: SignedIn;
  // Two sales are dated in last month, closed while the database writes in this one; this one is closed with the
  // close's clock moved past its end.
  let month: string;
  let last: string;
  let now = new Date();

  beforeAll(async () => {
    month = await monthOfTheRun(db());
    last = previousMonth(month);
    shop = await startStripeShop(db(), { adjust: closingAt(() => now) });
    ({ stripe, app } = shop);
    finance = await signedIn(db(), ['finance']);
    support = await signedIn(db(), ['support']);
  }, RUN_MS + 60_000);
  afterAll(() => stripe?.close());

  let buyers = 0;
  async function sell(productId: string) {
    const { purchase, charge } = await soldOnStripe(db(), shop, productId, `sale-month-buyer-${++buyers}@example.com`);
    return { purchaseId: purchase.id, charge };
  }
  const close = (m: string) => as(finance, request(app).post('/api/admin/month-closes')).send({ month: m });
  const refund = (purchaseId: string) =>
    as(support, request(app).post(`/api/admin/purchases/${purchaseId}/refund`)).send({
      amount: 2_500,
      reasonCode: 'customer-request',
      reason: 'Asked for it',
    });

  it("books it now, marked with the sale's month like its ledger lines and credit note; an open month's sale's stays unmarked", async () => {
    const product = await createProduct(db(), { name: 'Sale Month Course', unitAmount: 10_000 });
    await createRevenueSplit(db(), { productId: product.id, type: 'platform', percent: 1 });
    const refunded = await sell(product.id);
    const disputed = await sell(product.id);
    const recent = await sell(product.id);
    // Two sales dated in last month (as the processor dated them), which is then closed.
    await db()('merchantCharges')
      .whereIn('id', [refunded.charge.id, disputed.charge.id])
      .update({ createdAt: new Date(`${last}-15T12:00:00Z`) });
    expect((await close(last)).status).toBe(201);

    // Support refunds a sale of last month and one of this month; a sale of last month is disputed and lost.
    expect((await refund(refunded.purchaseId)).status).toBe(200);
    expect((await refund(recent.purchaseId)).status).toBe(200);
    const dispute = stripe.openDispute(disputed.charge.identifier);
    await deliverSigned(app, dispute.event);
    await deliverSigned(app, stripe.closeDispute(dispute.dispute, 'lost'));

    for (const [{ charge }, mark] of [
      [refunded, last],
      [recent, null],
    ] as const) {
      const row = await db()('merchantRefunds').where({ merchantChargeId: charge.id }).first();
      expect(row).toMatchObject({ status: 'succeeded', belongsToMonth: mark });
      expect(row.createdAt.getTime()).toBeGreaterThanOrEqual(monthStart(month).getTime());
      const lines = await db()('splitLines').where({ merchantChargeId: charge.id, kind: 'refund' });
      expect(lines.length).toBeGreaterThan(0);
      for (const l of lines) expect(l).toMatchObject({ belongsToMonth: mark, createdAt: row.createdAt });
      const notes = await db()('invoices').where({ merchantChargeId: charge.id, kind: 'credit-note' });
      expect(notes).toEqual([expect.objectContaining({ belongsToMonth: mark, suppliedAt: row.createdAt })]);
      // The sale's own lines and invoice are as they were.
      const sale = await db()('splitLines').where({ merchantChargeId: charge.id, kind: 'sale' });
      expect(sale.every((l: { belongsToMonth: string | null }) => l.belongsToMonth === null)).toBe(true);
      const [invoice] = await db()('invoices').where({ merchantChargeId: charge.id, kind: 'invoice' });
      expect(invoice.belongsToMonth).toBeNull();
    }
    const lost = await db()('merchantDisputes').where({ merchantChargeId: disputed.charge.id }).first();
    expect(lost).toMatchObject({ status: 'lost', belongsToMonth: last });
    expect(lost.closedAt.getTime()).toBeGreaterThanOrEqual(monthStart(month).getTime());
    const disputeLines = await db()('splitLines').where({ merchantChargeId: disputed.charge.id, kind: 'dispute' });
    expect(disputeLines.length).toBeGreaterThan(0);
    for (const l of disputeLines) expect(l.belongsToMonth).toBe(last);

    // This month closed: its workbook lists the refund and the dispute as last month's, and counts them as booked late.
    now = new Date(monthStart(nextMonth(month)).getTime() + DAY_MS);
    const closed = await close(month);
    expect(closed.status).toBe(201);
    const late = (await db()('splitLines').where({ belongsToMonth: last })).reduce(
      (n: number, l: { amount: number }) => n + l.amount,
      0,
    );
    expect(late).toBeLessThan(0);
    const usd = closed.body.figures.find((f: { currency: string }) => f.currency === 'usd');
    expect(usd.lateFromClosedMonths).toBe(late);
    const book = await as(finance, request(app).get(`/api/admin/month-closes/${month}/export.xlsx`))
      .buffer(true)
      .parse(binary);
    const refunds = await sheetRows(book.body, 'Refunds');
    expect(refunds.map((r) => [r.Kind, r.Charge, r['Belongs to month']]).sort()).toEqual(
      [
        ['refund', refunded.charge.identifier, last],
        ['refund', recent.charge.identifier, null],
        ['dispute lost', disputed.charge.identifier, last],
      ].sort(),
    );
    const summary = (await sheetRows(book.body, 'Summary')).find((r) => r.Currency === 'usd');
    expect(summary!['Of which booked late for closed months']).toBe(late / 100);
  });
});
