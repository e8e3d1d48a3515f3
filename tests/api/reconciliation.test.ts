import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { knownCharges } from '../../api/src/finance/reconciliation/import';
import {
  DAILY_RECONCILIATION_IMPORT,
  defineReconciliationJobs,
} from '../../api/src/finance/reconciliation/reconciliation';
import { JOBS_SCHEMA } from '../../api/src/jobs/models';
import { jobQueue } from '../../api/src/jobs/queue';
import { createLogger } from '../../api/src/logger';
import { createServices, type Services } from '../../api/src/services';
import { createProduct, createRevenueSplit, createUser } from '../../seeds/factories';
import { testDeps } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { paidTestCheckout, sessionOfCheckout } from '../support/checkout';
import { useTestDatabase } from '../support/db';
import { expectReconciled } from '../support/reconciliation-invariants';
import { startedCheckout, startStripeShop, type StripeShop } from '../support/stripe-sales';
import { deliverSigned, DISPUTE_FEE, type StandIn } from '../support/stripe-stand-in';

const DAY_MS = 24 * 60 * 60 * 1000;

interface Answer {
  matched: { count: number; byCurrency: { currency: string; count: number; amount: number }[] };
  difference: { count: number; rows: Row[]; byCurrency: { currency: string; count: number; amount: number }[] };
  otherCurrency: { count: number; byCurrency: { currency: string; count: number; amount: number }[] };
  unmatchedAtProcessor: { count: number; rows: Row[] };
  unmatchedInBooks: { count: number; rows: { kind: string; reason: string }[] };
}
interface Row {
  id: string;
  kind: string;
  sourceIdentifier: string;
  reason: string;
  recoverable: boolean;
  book: { amount: number; fee: number; currency: string } | null;
}

/** The console's calls, for one app and a finance user. */
function consoleOf(app: () => Parameters<typeof request>[0], finance: () => SignedIn) {
  const period = () => ({
    from: new Date(Date.now() - DAY_MS).toISOString(),
    to: new Date(Date.now() + 60 * DAY_MS).toISOString(),
  });
  return {
    async imported() {
      const answer = await as(finance(), request(app()).post('/api/admin/reconciliation/import')).send(period());
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body.data as { payouts: number; transactions: number; matched: number };
    },
    async report(): Promise<Answer> {
      const answer = await as(finance(), request(app()).get('/api/admin/reconciliation').query(period()));
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body.data;
    },
    recover: (id: string) => as(finance(), request(app()).post(`/api/admin/reconciliation/${id}/recover`)).send({}),
  };
}

describe('reconciliation with Stripe (the real SDK against the stand-in; docs/domain.md §20)', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let shop: StripeShop;
  let stripe: StandIn;
  let services: Services;
  let app: StripeShop['app'];
  let finance: SignedIn;
  let support: SignedIn;
  let daysAhead = 0;
  const recon = consoleOf(
    () => app,
    () => finance,
  );

  beforeAll(async () => {
    shop = await startStripeShop(db(), { clock: { now: () => new Date(Date.now() + daysAhead * DAY_MS) } });
    ({ stripe, services, app } = shop);
    finance = await signedIn(db(), ['finance']);
    support = await signedIn(db(), ['support']);
  });
  afterAll(() => stripe?.close());

  let buyers = 0;
  /** A checkout paid at Stripe; its completed event delivered unless `missed`. */
  async function sell(
    productId: string,
    { missed = false, settleIn }: { missed?: boolean; settleIn?: { currency: string; rate: number } } = {},
  ) {
    const checkoutId = await startedCheckout(services, productId, `buyer-${++buyers}@example.com`);
    const completed = stripe.pay(await sessionOfCheckout(db(), checkoutId), settleIn && { settleIn });
    if (!missed) expect((await deliverSigned(app, completed)).status).toBe(200);
    const chargeId = stripe.objects.get(
      stripe.objects.get(stripe.objects.get((completed.data.object as { id: string }).id)!.payment_intent as string)!
        .latest_charge as string,
    )!.id;
    return { checkoutId, chargeId };
  }
  const purchaseOfCharge = (chargeId: string) =>
    db()('purchases as p').join('merchantCharges as c', 'c.id', 'p.merchantChargeId').where('c.identifier', chargeId);

  it('matches every sale, refund, dispute and author payout, each once, and the payout to the bank carries them', async () => {
    const product = await createProduct(db(), { name: 'Matched Course', unitAmount: 10_000 });
    const owner = await createUser(db(), { email: 'owner@example.com' });
    await createRevenueSplit(db(), { productId: product.id, type: 'platform', percent: 0.3 });
    await createRevenueSplit(db(), { productId: product.id, type: 'owner', percent: 0.7, userId: owner.id });
    await db()('payoutRecipients').insert({ userId: owner.id, stripeAccountId: 'acct_1Reconciled' });
    const sold = [await sell(product.id), await sell(product.id), await sell(product.id), await sell(product.id)];
    const [refundedSale] = (await purchaseOfCharge(sold[0]!.chargeId).select('p.id')) as { id: string }[];
    const refunded = await as(support, request(app).post(`/api/admin/purchases/${refundedSale!.id}/refund`)).send({
      amount: 2_500,
      reasonCode: 'customer-request',
      reason: 'Partial',
    });
    expect(refunded.status).toBe(200);
    const won = stripe.openDispute(sold[1]!.chargeId);
    await deliverSigned(app, won.event);
    await deliverSigned(app, stripe.closeDispute(won.dispute, 'won'));
    const lost = stripe.openDispute(sold[2]!.chargeId);
    await deliverSigned(app, lost.event);
    await deliverSigned(app, stripe.closeDispute(lost.dispute, 'lost'));
    // A refund made in Stripe's dashboard whose event arrived: the books hold it under the event, not the refund.
    await deliverSigned(app, stripe.refundFromDashboard(sold[3]!.chargeId, 1_000));
    daysAhead = 15;
    const run = await as(finance, request(app).post('/api/admin/payouts/run')).send({});
    expect(run.body.data).toMatchObject({ sent: 1, failed: 0 });
    daysAhead = 0;
    const [payout] = stripe.payOut();

    const imported = await recon.imported();
    // 4 charges, 2 refunds, 2 disputes and a reversal, 1 transfer.
    expect(imported).toMatchObject({ payouts: 1, transactions: 10, matched: 10 });
    const report = await recon.report();
    expect(report.matched.count).toBe(10);
    expect(report.difference.count).toBe(0);
    expect(report.unmatchedAtProcessor.count).toBe(0);
    expect(report.unmatchedInBooks.count).toBe(0);
    // The books' net of what was matched is what Stripe paid out, the two dispute fees taken.
    const po = stripe.objects.get(payout!)!;
    const disputes = (await db()('merchantDisputes').orderBy('createdAt').select('fee', 'withdrawn')) as unknown[];
    expect(disputes).toEqual([
      { fee: DISPUTE_FEE, withdrawn: true },
      { fee: DISPUTE_FEE, withdrawn: true },
    ]);
    const perPayout = await as(finance, request(app).get('/api/admin/reconciliation/payouts')).query({
      from: new Date(Date.now() - DAY_MS).toISOString(),
      to: new Date(Date.now() + DAY_MS).toISOString(),
    });
    expect(perPayout.body.data, JSON.stringify(perPayout.body)).toEqual([
      expect.objectContaining({
        id: payout,
        payout: expect.objectContaining({ identifier: payout, amount: po.amount }),
        expectedAmount: po.amount,
        offBy: 0,
        matched: 10,
        differences: 0,
        unmatchedAtProcessor: 0,
        rows: [],
      }),
    ]);
    // Imported again: nothing new, nothing matched twice.
    expect(await recon.imported()).toMatchObject({ transactions: 10, matched: 0 });
    await expectReconciled(db());
  });

  it('finds a sale whose webhook was missed and recovers it through the webhook’s own code, once', async () => {
    const product = await createProduct(db(), { name: 'Missed Course', unitAmount: 5_000 });
    const { chargeId } = await sell(product.id, { missed: true });
    await recon.imported();
    const report = await recon.report();
    const row = report.unmatchedAtProcessor.rows.find((r) => r.sourceIdentifier === chargeId)!;
    expect(row).toMatchObject({ kind: 'charge', reason: 'missed-webhook', recoverable: true, book: null });
    expect(await purchaseOfCharge(chargeId)).toHaveLength(0);

    const [first, second] = await Promise.all([recon.recover(row.id), recon.recover(row.id)]);
    // Two at once both settle the same checkout: it converges on one purchase, and both see it matched.
    expect([first.body.data, second.body.data]).toEqual([{ state: 'matched' }, { state: 'matched' }]);
    expect(await purchaseOfCharge(chargeId)).toHaveLength(1);
    expect((await recon.recover(row.id)).body.code).toBe('reconciliation-already-matched');
    expect((await recon.report()).unmatchedAtProcessor.count).toBe(0);
    await expectReconciled(db());
  });

  it('finds a refund made at Stripe whose event never came, records it once, and a late event adds nothing', async () => {
    const product = await createProduct(db(), { name: 'Dashboard Course', unitAmount: 8_000 });
    const { chargeId } = await sell(product.id);
    const late = stripe.refundFromDashboard(chargeId, 3_000);
    await recon.imported();
    const row = (await recon.report()).unmatchedAtProcessor.rows.find((r) => r.kind === 'refund')!;
    expect(row).toMatchObject({ reason: 'refund-at-processor', recoverable: true });
    expect((await recon.recover(row.id)).body.data).toEqual({ state: 'matched' });
    expect((await deliverSigned(app, late)).status).toBe(200);
    const refunds = await db()('merchantRefunds as r')
      .join('merchantCharges as c', 'c.id', 'r.merchantChargeId')
      .where('c.identifier', chargeId)
      .select('r.amount', 'r.reasonCode');
    expect(refunds).toEqual([{ amount: 3_000, reasonCode: 'provider' }]);
    expect((await recon.report()).unmatchedAtProcessor.count).toBe(0);
    await expectReconciled(db());
  });

  /** Each payout to the bank and what the books say it should carry, for the test's day. */
  async function payoutsNow() {
    const answer = await as(finance, request(app).get('/api/admin/reconciliation/payouts')).query({
      from: new Date(Date.now() - DAY_MS).toISOString(),
      to: new Date(Date.now() + DAY_MS).toISOString(),
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data as { id: string; expectedAmount: number; offBy: number }[];
  }

  it('books a dispute’s fee from its event, and shows one the books do not hold as a difference the payout is off by', async () => {
    const product = await createProduct(db(), { name: 'Disputed Fee Course', unitAmount: 9_000 });
    const { chargeId } = await sell(product.id);
    const opened = stripe.openDispute(chargeId);
    await deliverSigned(app, opened.event);
    expect(await db()('merchantDisputes').where({ identifier: opened.dispute }).first('fee')).toEqual({
      fee: DISPUTE_FEE,
    });
    // A dispute recorded before its fee was known: the books hold the amount only.
    await db()('merchantDisputes').where({ identifier: opened.dispute }).update({ fee: null });
    const [payout] = stripe.payOut();
    await recon.imported();
    const report = await recon.report();
    const row = report.difference.rows.find((r) => r.sourceIdentifier === opened.dispute)!;
    expect(row).toMatchObject({ kind: 'dispute', reason: 'fee-not-booked', book: { amount: -9_000 } });
    expect(report.difference.byCurrency).toEqual([expect.objectContaining({ amount: -DISPUTE_FEE })]);
    // The books' net of the payout's matched transactions misses the fee the bank did not get.
    const mine = (await payoutsNow()).find((p) => p.id === payout)!;
    expect(mine).toMatchObject({ offBy: -DISPUTE_FEE });
    expect(stripe.objects.get(payout!)!.amount).toBe(mine.expectedAmount - DISPUTE_FEE);
    // A later event of the dispute tells the fee: the books hold it, and the payout agrees.
    await deliverSigned(app, stripe.closeDispute(opened.dispute, 'lost'));
    expect((await recon.report()).difference.count).toBe(0);
    expect((await payoutsNow()).find((p) => p.id === payout)).toMatchObject({ offBy: 0 });
  });

  it('recovers a missed dispute with its fee, so the payout carries what the books say', async () => {
    const product = await createProduct(db(), { name: 'Missed Dispute Course', unitAmount: 7_000 });
    const { chargeId } = await sell(product.id);
    const opened = stripe.openDispute(chargeId);
    const [payout] = stripe.payOut();
    await recon.imported();
    const row = (await recon.report()).unmatchedAtProcessor.rows.find((r) => r.sourceIdentifier === opened.dispute)!;
    expect(row).toMatchObject({ kind: 'dispute', reason: 'missed-dispute', recoverable: true });
    expect((await recon.recover(row.id)).body.data).toEqual({ state: 'matched' });
    expect(await db()('merchantDisputes').where({ identifier: opened.dispute }).first('fee')).toEqual({
      fee: DISPUTE_FEE,
    });
    expect((await payoutsNow()).find((p) => p.id === payout)).toMatchObject({
      expectedAmount: stripe.objects.get(payout!)!.amount,
      offBy: 0,
    });
    await expectReconciled(db());
  });

  it('keeps an inquiry, which moves no money at Stripe, out of the books’ entries', async () => {
    const product = await createProduct(db(), { name: 'Inquiry Course', unitAmount: 4_000 });
    const { chargeId } = await sell(product.id);
    const inquiry = stripe.openDispute(chargeId, { inquiry: true });
    expect((await deliverSigned(app, inquiry.event)).status).toBe(200);
    expect((await deliverSigned(app, stripe.closeDispute(inquiry.dispute, 'won'))).status).toBe(200);
    expect(await db()('merchantDisputes').where({ identifier: inquiry.dispute }).first('withdrawn', 'status')).toEqual({
      withdrawn: false,
      status: 'won',
    });
    await recon.imported();
    const report = await recon.report();
    expect(report.unmatchedInBooks.rows.filter((r) => r.kind.startsWith('dispute'))).toEqual([]);
    await expectReconciled(db());
  });

  it('records two refunds of one charge made at Stripe whole when both are recovered at once', async () => {
    const product = await createProduct(db(), { name: 'Two Refunds Course', unitAmount: 10_000 });
    const { chargeId } = await sell(product.id);
    stripe.refundFromDashboard(chargeId, 2_000);
    stripe.refundFromDashboard(chargeId, 3_000);
    await recon.imported();
    const rows = (await recon.report()).unmatchedAtProcessor.rows.filter(
      (r) => r.kind === 'refund' && r.reason === 'refund-at-processor',
    );
    expect(rows).toHaveLength(2);
    const answers = await Promise.all(rows.map((r) => recon.recover(r.id)));
    expect(answers.map((a) => a.body.data)).toEqual([{ state: 'matched' }, { state: 'matched' }]);
    const refunds = (await db()('merchantRefunds as r')
      .join('merchantCharges as c', 'c.id', 'r.merchantChargeId')
      .where('c.identifier', chargeId)
      .orderBy('r.amount')
      .select('r.amount')) as { amount: number }[];
    expect(refunds.map((r) => r.amount)).toEqual([2_000, 3_000]);
    expect(await db()('merchantCharges').where({ identifier: chargeId }).first('refundAmount')).toEqual({
      refundAmount: 5_000,
    });
    await expectReconciled(db());
  });

  it('asks which of more charge ids than a statement binds one by one the books hold', async () => {
    const account = await services.payments.accountId();
    const [charge] = (await db()('merchantCharges')
      .where({ merchantAccountId: account })
      .limit(1)
      .select('identifier')) as {
      identifier: string;
    }[];
    const ids = Array.from({ length: 70_000 }, (_, i) => `ch_absent_${i}`);
    const known = await knownCharges(db(), account, [...ids, charge!.identifier]);
    expect([...known]).toEqual([charge!.identifier]);
  });

  it('shows a fee Stripe changed as a difference with its reason, and nothing it cannot recover', async () => {
    const product = await createProduct(db(), { name: 'Fee Course', unitAmount: 6_000 });
    const { chargeId } = await sell(product.id);
    const txn = stripe.balanceTransactionOf(chargeId);
    txn.fee = (txn.fee as number) + 7;
    txn.net = (txn.amount as number) - (txn.fee as number);
    await recon.imported();
    const report = await recon.report();
    expect(report.difference.count).toBe(1);
    const [row] = report.difference.rows;
    expect(row).toMatchObject({
      kind: 'charge',
      sourceIdentifier: chargeId,
      reason: 'fee-changed',
      recoverable: false,
    });
    expect(report.difference.byCurrency).toEqual([expect.objectContaining({ amount: -7 })]);
    expect((await recon.recover(row!.id)).body.code).toBe('reconciliation-already-matched');
    const ledger = await as(finance, request(app).get('/api/admin/reconciliation').query({ from: 'soon' }));
    expect(ledger.status).toBe(400);
  });

  it('never subtracts a charge Stripe settled in another currency from the books’ amount when they do not hold what it settled: it is told apart', async () => {
    const product = await createProduct(db(), { name: 'Converted Course', unitAmount: 10_000 });
    const { chargeId } = await sell(product.id, { settleIn: { currency: 'eur', rate: 0.9 } });
    const txn = stripe.balanceTransactionOf(chargeId);
    // A charge recorded before the books kept what the processor settled.
    await db()('merchantCharges').where({ identifier: chargeId }).update({
      settlementIdentifier: null,
      settlementAmount: null,
      settlementFee: null,
      settlementCurrency: null,
      settlementExchangeRate: null,
    });
    await recon.imported();
    const report = await recon.report();
    const row = report.difference.rows.find((r) => r.sourceIdentifier === chargeId)!;
    expect(row).toMatchObject({ reason: 'other-currency', book: { amount: 10_000, currency: 'usd' } });
    // Only the fee-changed charge's −7 ¢ above is summed; the euro charge is counted apart, in euros.
    expect(report.difference.byCurrency).toEqual([{ currency: 'usd', count: 1, amount: -7 }]);
    expect(report.otherCurrency).toEqual({
      count: 1,
      byCurrency: [{ currency: 'eur', count: 1, amount: (txn.amount as number) - (txn.fee as number) }],
    });
  });
});

describe('reconciliation of an account Stripe settles in dollars, of sales in euros and yen (docs/domain.md §20)', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let shop: StripeShop;
  let stripe: StandIn;
  let services: Services;
  let app: StripeShop['app'];
  let finance: SignedIn;
  let support: SignedIn;
  const recon = consoleOf(
    () => app,
    () => finance,
  );

  beforeAll(async () => {
    shop = await startStripeShop(db());
    ({ stripe, services, app } = shop);
    stripe.settleAccountIn('usd', { eur: 1.08, jpy: 0.0067 });
    finance = await signedIn(db(), ['finance']);
    support = await signedIn(db(), ['support']);
  });
  afterAll(() => stripe?.close());

  let buyers = 0;
  /** A checkout paid at Stripe and its completed event delivered; the charge's id. */
  async function sell(productId: string): Promise<string> {
    const checkoutId = await startedCheckout(services, productId, `converted-${++buyers}@example.com`);
    const completed = stripe.pay(await sessionOfCheckout(db(), checkoutId));
    expect((await deliverSigned(app, completed)).status).toBe(200);
    const intent = stripe.objects.get(
      stripe.objects.get((completed.data.object as { id: string }).id)!.payment_intent as string,
    )!;
    return intent.latest_charge as string;
  }
  const inCents = (t: Record<string, unknown>) => ({
    amount: t.amount as number,
    fee: t.fee as number,
    currency: t.currency as string,
  });

  it('matches euro and yen sales, a partial refund and a lost dispute to the cent, each at its own rate', async () => {
    const euro = await createProduct(db(), { name: 'Euro Course', unitAmount: 10_000, currency: 'eur' });
    const yen = await createProduct(db(), { name: 'Yen Course', unitAmount: 4_000, currency: 'jpy' });
    const [euroCharge, yenCharge] = [await sell(euro.id), await sell(yen.id)];
    // ¥4,000 at 0.0067 is $26.80; €100 at 1.08 is $108.00.
    expect(inCents(stripe.balanceTransactionOf(yenCharge))).toMatchObject({ amount: 2_680, currency: 'usd' });
    expect(
      await db()('merchantCharges')
        .where({ identifier: euroCharge })
        .first('amount', 'currency', 'settlementAmount', 'settlementFee', 'settlementCurrency'),
    ).toEqual({
      amount: 10_000,
      currency: 'eur',
      settlementAmount: 10_800,
      settlementFee: stripe.balanceTransactionOf(euroCharge).fee,
      settlementCurrency: 'usd',
    });
    // The refund and the dispute later, at rates of their own.
    stripe.settleAccountIn('usd', { eur: 1.1, jpy: 0.0065 });
    const [sale] = (await db()('purchases as p')
      .join('merchantCharges as c', 'c.id', 'p.merchantChargeId')
      .where('c.identifier', euroCharge)
      .select('p.id')) as { id: string }[];
    const refunded = await as(support, request(app).post(`/api/admin/purchases/${sale!.id}/refund`)).send({
      amount: 2_500,
      reasonCode: 'customer-request',
      reason: 'Partial',
    });
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    const lost = stripe.openDispute(yenCharge);
    expect((await deliverSigned(app, lost.event)).status).toBe(200);
    expect((await deliverSigned(app, stripe.closeDispute(lost.dispute, 'lost'))).status).toBe(200);
    expect(
      await db()('merchantRefunds as r')
        .join('merchantCharges as c', 'c.id', 'r.merchantChargeId')
        .where('c.identifier', euroCharge)
        .first('r.amount', 'r.settlementAmount', 'r.settlementCurrency'),
    ).toEqual({ amount: 2_500, settlementAmount: 2_750, settlementCurrency: 'usd' });
    expect(
      await db()('merchantDisputes').where({ identifier: lost.dispute }).first('amount', 'fee', 'settlementAmount'),
    ).toEqual({ amount: 4_000, fee: DISPUTE_FEE, settlementAmount: 2_600 });
    const [payout] = stripe.payOut();

    expect(await recon.imported()).toMatchObject({ payouts: 1, transactions: 4, matched: 4 });
    const report = await recon.report();
    const settled = [euroCharge, yenCharge].map((c) => inCents(stripe.balanceTransactionOf(c)));
    expect(report.matched).toEqual({
      count: 4,
      byCurrency: [{ currency: 'usd', count: 4, amount: settled[0]!.amount + settled[1]!.amount - 2_750 - 2_600 }],
    });
    expect(report.difference.count).toBe(0);
    expect(report.otherCurrency.count).toBe(0);
    expect(report.unmatchedAtProcessor.count).toBe(0);
    expect(report.unmatchedInBooks.count).toBe(0);
    const perPayout = await as(finance, request(app).get('/api/admin/reconciliation/payouts')).query({
      from: new Date(Date.now() - DAY_MS).toISOString(),
      to: new Date(Date.now() + DAY_MS).toISOString(),
    });
    expect(perPayout.body.data).toEqual([
      expect.objectContaining({ id: payout, expectedAmount: stripe.objects.get(payout!)!.amount, offBy: 0 }),
    ]);
  });

  it('shows a converted fee Stripe changed as a difference in the settlement currency', async () => {
    const euro = await createProduct(db(), { name: 'Euro Fee Course', unitAmount: 5_000, currency: 'eur' });
    const chargeId = await sell(euro.id);
    const txn = stripe.balanceTransactionOf(chargeId);
    txn.fee = (txn.fee as number) + 7;
    txn.net = (txn.amount as number) - (txn.fee as number);
    await recon.imported();
    const report = await recon.report();
    expect(report.difference.rows).toEqual([
      expect.objectContaining({
        sourceIdentifier: chargeId,
        reason: 'fee-changed',
        book: expect.objectContaining({ amount: txn.amount, fee: (txn.fee as number) - 7, currency: 'usd' }),
      }),
    ]);
    expect(report.difference.byCurrency).toEqual([{ currency: 'usd', count: 1, amount: -7 }]);
    expect(report.otherCurrency.count).toBe(0);
  });
});

describe('reconciliation with the built-in test provider (its own balance and payouts)', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let services: Services;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let finance: SignedIn;
  let support: SignedIn;
  const recon = consoleOf(
    () => app,
    () => finance,
  );

  beforeAll(async () => {
    const deps = testDeps(db());
    services = createServices(deps);
    app = createApp(deps, { services }).callback();
    finance = await signedIn(db(), ['finance']);
    support = await signedIn(db(), ['support']);
  });

  const chargeOf = async (checkoutId: string) =>
    (
      await db()('checkouts as c')
        .join('merchantSessions as s', 's.id', 'c.merchantSessionId')
        .join('testProviderSessions as t', 't.identifier', 's.identifier')
        .where('c.id', checkoutId)
        .first('t.chargeIdentifier')
    ).chargeIdentifier as string;

  it('matches sales and refunds, recovers a missed fulfilment and a refund made at the provider, shows a fee changed', async () => {
    const product = await createProduct(db(), { name: 'Test Provider Course', unitAmount: 4_000 });
    const buyer = await createUser(db(), { email: 'tp-buyer@example.com' });
    const fulfilled = await paidTestCheckout(services, db(), { buyer, productId: product.id });
    const { purchaseId } = await services.checkouts.fulfil(fulfilled);
    const refunded = await as(support, request(app).post(`/api/admin/purchases/${purchaseId}/refund`)).send({
      amount: 1_000,
      reasonCode: 'customer-request',
      reason: 'Partial',
    });
    expect(refunded.status).toBe(200);
    await services.testProvider.payOut();
    expect(await recon.imported()).toMatchObject({ payouts: 1, transactions: 2, matched: 2 });
    await expectReconciled(db());

    const other = await createUser(db(), { email: 'tp-missed@example.com' });
    const missed = await paidTestCheckout(services, db(), { buyer: other, productId: product.id });
    const missedCharge = await chargeOf(missed);
    await services.testProvider.refundAtProvider(await chargeOf(fulfilled), 500);
    await recon.imported();
    const rows = (await recon.report()).unmatchedAtProcessor.rows;
    expect(rows.map((r) => [r.kind, r.reason, r.recoverable]).sort()).toEqual([
      ['charge', 'missed-webhook', true],
      ['refund', 'refund-at-processor', true],
    ]);
    for (const row of rows) expect((await recon.recover(row.id)).body.data).toEqual({ state: 'matched' });
    expect(await db()('checkouts').where({ id: missed }).first('status')).toEqual({ status: 'fulfilled' });
    expect(
      await db()('purchases as p')
        .join('merchantCharges as c', 'c.id', 'p.merchantChargeId')
        .where('c.identifier', missedCharge),
    ).toHaveLength(1);
    await expectReconciled(db());

    await db()('testProviderBalanceTransactions').where({ sourceIdentifier: missedCharge }).increment('fee', 3);
    await recon.imported();
    const report = await recon.report();
    expect(report.difference.rows).toEqual([
      expect.objectContaining({ reason: 'fee-changed', sourceIdentifier: missedCharge }),
    ]);
    expect(report.unmatchedInBooks.count).toBe(0);
  });

  it('imports by itself every day, once however many replicas start', async () => {
    const product = await createProduct(db(), { name: 'Daily Course', unitAmount: 2_000 });
    const buyer = await createUser(db(), { email: 'tp-daily@example.com' });
    const { purchaseId } = await services.checkouts.fulfil(
      await paidTestCheckout(services, db(), { buyer, productId: product.id }),
    );
    const charge = await db()('purchases as p')
      .join('merchantCharges as c', 'c.id', 'p.merchantChargeId')
      .where('p.id', purchaseId)
      .first('c.identifier');
    const replicas = [1, 2, 3].map(() => jobQueue({ db: db(), logger: createLogger('silent'), pollSeconds: 0.5 }));
    const clock = { now: () => new Date() };
    replicas.forEach((jobs) =>
      defineReconciliationJobs(jobs, services.reconciliation, { clock, provider: services.payments }),
    );
    try {
      await Promise.all(replicas.map((jobs) => jobs.start()));
      const schedules = await db()
        .withSchema(JOBS_SCHEMA)
        .from('schedule')
        .where({ name: DAILY_RECONCILIATION_IMPORT })
        .select('name', 'cron');
      expect(schedules).toEqual([{ name: DAILY_RECONCILIATION_IMPORT, cron: '0 5 * * *' }]);
      // The day's job, as the schedule adds it: the sale is imported and matched.
      await replicas[0]!.add(db(), DAILY_RECONCILIATION_IMPORT, {});
      await expect
        .poll(
          async () =>
            (
              await db()('processorBalanceTransactions as t')
                .join('reconciliationMatches as m', 'm.balanceTransactionId', 't.id')
                .where('t.sourceIdentifier', charge.identifier)
            ).length,
          { timeout: 20_000 },
        )
        .toBe(1);
    } finally {
      await Promise.all(replicas.map((jobs) => jobs.stop()));
    }
  });
});
