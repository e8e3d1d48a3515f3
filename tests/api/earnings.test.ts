import { execFileSync } from 'node:child_process';
import { parse as parseCsv } from 'csv-parse/sync';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EarningsAnswer, EarningsLine } from '../../api/src/finance/earnings/schemas';
import type { PayoutBalance } from '../../api/src/finance/payouts/schemas';
import type { Services } from '../../api/src/services';
import { createProduct, createRevenueSplit } from '../../seeds/factories';
import { as, signedIn, type SignedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';
import type { Purchase } from '../support/models';
import { pdfText } from '../support/pdf-text';
import { startStripeShop, soldOnStripe, type StripeShop } from '../support/stripe-sales';
import type { StandIn } from '../support/stripe-stand-in';

const DAY_MS = 24 * 60 * 60 * 1000;
const HINDI = 'गणित का पाठ्यक्रम';
const ARABIC = 'دورة البرمجة للمبتدئين';
const JAPANESE = 'プログラミング入門';
/** A title a spreadsheet would run as a formula, were it not neutralised. */
const FORMULA = '=HYPERLINK("https://evil.example","Course")';

const monthOf = (at: Date) => at.toISOString().slice(0, 7);

describe('an author’s earnings and monthly statements (docs/domain.md §19.1)', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let shop: StripeShop;
  let stripe: StandIn;
  let services: Services;
  let app: StripeShop['app'];
  let finance: SignedIn;
  let support: SignedIn;
  let owner: SignedIn;
  let contributor: SignedIn;
  let learner: SignedIn;
  // The payouts' clock runs ahead of the database's, as time passing would: lines age past the holding period.
  let daysAhead = 0;

  beforeAll(async () => {
    shop = await startStripeShop(db(), { clock: { now: () => new Date(Date.now() + daysAhead * DAY_MS) } });
    ({ stripe, services, app } = shop);
    finance = await signedIn(db(), ['finance']);
    support = await signedIn(db(), ['support']);
    owner = await signedIn(db(), ['learner'], 'author@example.com');
    contributor = await signedIn(db(), ['learner'], 'contributor@example.com');
    learner = await signedIn(db(), ['learner'], 'just-a-learner@example.com');
  });
  afterAll(() => stripe?.close());

  let products = 0;
  async function product(name: string, unitAmount: number, currency = 'usd', withContributor = false) {
    const made = await createProduct(db(), { name, slug: `earning-course-${++products}`, unitAmount, currency });
    await createRevenueSplit(db(), { productId: made.id, type: 'platform', percent: 0.3 });
    await createRevenueSplit(db(), {
      productId: made.id,
      type: 'owner',
      percent: withContributor ? 0.5 : 0.7,
      userId: owner.user.id,
    });
    if (withContributor)
      await createRevenueSplit(db(), {
        productId: made.id,
        type: 'contributor',
        percent: 0.2,
        userId: contributor.user.id,
      });
    return made;
  }

  let buyers = 0;
  const sell = async (productId: string) =>
    (await soldOnStripe(db(), shop, productId, `buyer-${++buyers}@example.com`)).purchase;

  const earnings = async (who: SignedIn, query: Record<string, string> = {}): Promise<EarningsAnswer> => {
    const answer = await as(who, request(app).get('/api/store/earnings').query(query));
    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toBe('private, no-store');
    return answer.body;
  };
  const allLines = async (who: SignedIn): Promise<EarningsLine[]> => {
    const lines: EarningsLine[] = [];
    for (let page = 1; ; page++) {
      const { data, total } = (await earnings(who, { page: String(page) })).lines;
      lines.push(...data);
      if (data.length === 0 || lines.length >= total) return lines;
    }
  };
  const adminBalances = async (userId: string): Promise<PayoutBalance[]> => {
    const answer = await as(finance, request(app).get('/api/admin/payouts/balances'));
    expect(answer.status).toBe(200);
    return (answer.body.data as PayoutBalance[]).filter((b) => b.recipientId === userId);
  };
  /** The person's balances must be finance's for them, field for field. */
  async function expectFinanceFigures(who: SignedIn) {
    const mine = (await earnings(who)).balances;
    const theirs = await adminBalances(who.user.id);
    expect(mine.map(({ held: _held, ...b }) => b)).toEqual(
      theirs.map(({ recipientId: _id, recipientName: _name, recipientEmail: _email, ...b }) => b),
    );
    for (const b of mine) expect(b.held).toBe(b.balance - b.inPayouts - b.payable);
    return mine;
  }
  const statement = (who: SignedIn, month: string, format: 'csv' | 'pdf') =>
    as(who, request(app).get(`/api/store/earnings/statements/${month}.${format}`))
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });

  let hindi: Awaited<ReturnType<typeof product>>;
  let refunded: Purchase;
  const salesMonth = monthOf(new Date());

  it('shows someone with no splits an empty answer, and has no statement for them', async () => {
    const answer = await earnings(learner);
    expect(answer).toMatchObject({ payee: false, balances: [], months: [], payouts: [], statementMonths: [] });
    expect(answer.lines).toMatchObject({ total: 0, data: [], page: 1 });
    const me = await as(learner, request(app).get('/api/store/me'));
    expect(me.body.isPayee).toBe(false);
    const refused = await statement(learner, salesMonth, 'csv');
    expect(refused.status).toBe(404);
    expect(JSON.parse(refused.body.toString('utf8')).code).toBe('earnings-not-found');
    expect((await request(app).get('/api/store/earnings')).status).toBe(401);
  });

  it('gives the balances finance pays from, with lines that sum to them, per product and month', async () => {
    hindi = await product(HINDI, 10_000, 'usd', true);
    const arabic = await product(ARABIC, 4_900);
    const yen = await product(JAPANESE, 4_980, 'jpy');
    refunded = await sell(hindi.id);
    await sell(hindi.id);
    await sell(arabic.id);
    await sell(yen.id);
    expect((await as(owner, request(app).get('/api/store/me'))).body.isPayee).toBe(true);

    const balances = await expectFinanceFigures(owner);
    expect(balances.map((b) => b.currency)).toEqual(['jpy', 'usd']);
    const lines = await allLines(owner);
    expect(lines).toHaveLength(4);
    for (const b of balances) {
      const own = lines.filter((l) => l.currency === b.currency);
      expect(own.reduce((s, l) => s + l.amount, 0)).toBe(b.earned);
      // Nothing has passed the holding period yet.
      expect(b).toMatchObject({ clawedBack: 0, paid: 0, payable: 0, held: b.earned });
    }
    // Each line as the ledger wrote it, with its charge and the owner's share.
    const ledger = await db()('splitLines').where({ userId: owner.user.id }).orderBy('id', 'desc');
    expect(lines.map((l) => l.amount)).toEqual(ledger.map((l: { amount: number }) => l.amount));
    const hindiLine = lines.find((l) => l.productName === HINDI)!;
    expect(hindiLine).toMatchObject({ kind: 'sale', recipientType: 'owner', currency: 'usd', percent: '0.5000' });
    expect(hindiLine.gross).toBe(10_000);
    expect(hindiLine.gross - hindiLine.tax - hindiLine.fee).toBeGreaterThan(hindiLine.amount);
    const yenLine = lines.find((l) => l.currency === 'jpy')!;
    expect(Number.isInteger(yenLine.amount)).toBe(true);
    expect(yenLine.gross).toBe(4_980);

    const answer = await earnings(owner);
    expect(answer.months.find((m) => m.productName === HINDI)).toMatchObject({
      month: salesMonth,
      sales: 2,
      clawedBack: 0,
      currency: 'usd',
    });
    expect(answer.statementMonths).toEqual([salesMonth]);
    // One month's lines, a page at a time.
    expect((await earnings(owner, { month: salesMonth })).lines.total).toBe(4);
    expect((await earnings(owner, { month: '2001-01' })).lines).toMatchObject({ total: 0, data: [] });
    expect((await earnings(owner, { page: '2' })).lines).toMatchObject({ total: 4, data: [], page: 2 });
    const bad = await as(owner, request(app).get('/api/store/earnings').query({ month: '2026-13' }));
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('validation-failed');
  });

  it('shows nobody else’s lines: the contributor sees only their own share', async () => {
    const lines = await allLines(contributor);
    const own = await db()('splitLines').where({ userId: contributor.user.id });
    expect(lines).toHaveLength(own.length);
    expect(lines.every((l) => l.productName === HINDI && l.recipientType === 'contributor')).toBe(true);
    expect(lines.map((l) => l.percent)).toEqual(['0.2000', '0.2000']);
    await expectFinanceFigures(contributor);
    // The learner's answer is still empty, whatever the others earn.
    expect((await earnings(learner)).balances).toEqual([]);
  });

  it('shows a payout with its reference, and a refund after it as clawed back', async () => {
    // Forty days on (sessions would have ended: the services are called as finance's console would).
    daysAhead = 40;
    const actor = { id: finance.user.id, email: finance.user.email };
    expect((await services.payouts.run(actor, null)).created).toBeGreaterThan(0);
    const [usdPayout] = await db()('payouts').where({ recipientId: owner.user.id, currency: 'usd' });
    await services.payouts.markPaid(usdPayout.id, 'BANK-2026-0001', actor, null);
    const paidMonth = monthOf(new Date(Date.now() + daysAhead * DAY_MS));
    daysAhead = 0;

    const refund = await as(support, request(app).post(`/api/admin/purchases/${refunded.id}/refund`)).send({
      reasonCode: 'customer-request',
      reason: 'Changed their mind',
    });
    expect(refund.status).toBe(200);

    const balances = await expectFinanceFigures(owner);
    const usd = balances.find((b) => b.currency === 'usd')!;
    expect(usd.paid).toBe(usdPayout.amount);
    expect(usd.clawedBack).toBeGreaterThan(0);
    // Paid out before the refund: the balance is what was clawed back, owed until later sales cover it.
    expect(usd.balance).toBe(-usd.clawedBack);
    const answer = await earnings(owner);
    expect(answer.payouts.find((p) => p.currency === 'usd')).toMatchObject({
      status: 'paid',
      amount: usdPayout.amount,
      reference: 'BANK-2026-0001',
    });
    const lines = await allLines(owner);
    expect(lines[0]).toMatchObject({ kind: 'refund', productName: HINDI });
    expect(lines[0]!.amount).toBe(-usd.clawedBack);
    expect(answer.months.find((m) => m.productName === HINDI)!.clawedBack).toBe(usd.clawedBack);
    expect(answer.statementMonths).toEqual([paidMonth, salesMonth]);
  });

  it('writes a month’s statement as CSV: its lines, totals per currency, payouts, opening and closing', async () => {
    const answer = await statement(owner, salesMonth, 'csv');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(answer.headers['content-disposition']).toBe(`attachment; filename="earnings-${salesMonth}.csv"`);
    const rows = parseCsv(answer.body.toString('utf8'), { bom: true, columns: true }) as Record<string, string>[];
    const ledger = await db()('splitLines').where({ userId: owner.user.id });
    expect(rows.filter((r) => r.Record === 'Line')).toHaveLength(ledger.length);
    const cell = (record: string, currency: string) =>
      rows.find((r) => r.Record === record && r.Currency === currency)!.Amount;
    const sum = (currency: string) =>
      ledger.filter((l: { currency: string }) => l.currency === currency).reduce((s, l) => s + l.amount, 0);
    // Dollars with two decimals, yen whole.
    expect(cell('Opening balance', 'USD')).toBe('0.00');
    expect(cell('Closing balance', 'USD')).toBe((sum('usd') / 100).toFixed(2));
    expect(cell('Opening balance', 'JPY')).toBe('0');
    expect(cell('Closing balance', 'JPY')).toBe(String(sum('jpy')));
    expect(rows.find((r) => r.Currency === 'JPY' && r.Record === 'Line')!.Gross).toBe('4980');
    expect(rows.find((r) => r.Product === HINDI)!.Gross).toBe('100.00');
    expect(rows.find((r) => r.Product === HINDI)!['Share (%)']).toBe('50.00');
  });

  it('opens the next statement with the last one’s closing balance and shows the payout paid in it', async () => {
    const paidMonth = monthOf(new Date(Date.now() + 40 * DAY_MS));
    const answer = await statement(owner, paidMonth, 'csv');
    const rows = parseCsv(answer.body.toString('utf8'), { bom: true, columns: true }) as Record<string, string>[];
    const [payout] = await db()('payouts').where({ recipientId: owner.user.id, currency: 'usd', status: 'paid' });
    const usd = await db()('splitLines').where({ userId: owner.user.id, currency: 'usd' });
    const total = usd.reduce((s: number, l: { amount: number }) => s + l.amount, 0);
    const cell = (record: string) => rows.find((r) => r.Record === record && r.Currency === 'USD')!.Amount;
    expect(cell('Opening balance')).toBe((total / 100).toFixed(2));
    expect(cell('Paid out')).toBe((-payout.amount / 100).toFixed(2));
    expect(cell('Closing balance')).toBe(((total - payout.amount) / 100).toFixed(2));
    expect(rows.find((r) => r.Record === 'Payout')).toMatchObject({ Reference: 'BANK-2026-0001', Currency: 'USD' });
  });

  it('keeps an author’s money from support viewing the storefront as them', async () => {
    const started = await as(support, request(app).post(`/api/admin/users/${owner.user.id}/view-as`)).send({
      reason: 'Ticket 5120: cannot find the course they bought',
    });
    expect(started.status).toBe(201);
    const token = ([] as string[])
      .concat(started.headers['set-cookie'] ?? [])
      .find((c) => c.startsWith('lp_view_as='))!
      .split(';')[0];
    const viewing = { ...support, cookie: `${support.cookie}; ${token}` };
    // The view itself works: the storefront answers as the author.
    expect((await as(viewing, request(app).get('/api/store/me'))).body.user.id).toBe(owner.user.id);
    for (const path of ['', `/statements/${salesMonth}.csv`, `/statements/${salesMonth}.pdf`]) {
      const refused = await as(viewing, request(app).get(`/api/store/earnings${path}`));
      expect(refused.status, path).toBe(403);
      expect(refused.body.code, path).toBe('forbidden');
      expect(JSON.stringify(refused.body), path).not.toContain('BANK-2026-0001');
    }
    // The author still reads their own.
    expect((await earnings(owner)).payouts.length).toBeGreaterThan(0);
  });

  it('neutralises a title a spreadsheet would run as a formula', async () => {
    const risky = await product(FORMULA, 2_000);
    await sell(risky.id);
    const text = (await statement(owner, salesMonth, 'csv')).body.toString('utf8');
    expect(text).toContain(`"'=HYPERLINK(""https://evil.example"",""Course"")"`);
    expect(text).not.toMatch(/(^|,)=HYPERLINK/m);
  });

  it('prints the statement as a PDF whose Hindi, Arabic and Japanese titles read back', async () => {
    const answer = await statement(owner, salesMonth, 'pdf');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/pdf');
    const pdf = await pdfText(new Uint8Array(answer.body));
    expect(pdf.blankGlyphs).toEqual([]);
    expect(pdf.title).toMatch(/^Earnings statement, /);
    // As a reader copies it (Poppler puts right-to-left text in reading order).
    const text = popplerText(answer.body);
    for (const title of [HINDI, ARABIC, JAPANESE]) expect(text).toContain(title);
    expect(text).toContain('Opening balance');
    expect(text).toContain('Closing balance');
    // Yen without decimals, dollars with them.
    expect(text).toMatch(/¥[\d,]+(?![.\d])/);
    expect(text).toMatch(/\$[\d,]+\.\d\d/);
  });
});

function popplerText(pdf: Buffer): string {
  const text = execFileSync('pdftotext', ['-enc', 'UTF-8', '-layout', '-', '-'], { input: pdf }).toString('utf8');
  return text.replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '').normalize('NFC');
}
