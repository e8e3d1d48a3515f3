import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCoupon, createProduct } from '../../seeds/factories';
import { pppForCountry } from '../../api/src/commerce/pricing/ppp';
import { percentOf } from '../../api/src/commerce/pricing/prices';
import { periodEnd } from '../../api/src/payments/test-provider-subscriptions';
import { unusedCredit } from '../../api/src/shared/proration';
import { taxOnTop } from '../../api/src/tax/amounts';
import { formatEmailDate } from '../../api/src/mail/templates';
import { formatDate } from '../../storefront/src/format';
import { testApp, testConfig } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { manualClock, onTheHour } from '../support/clock';
import { useTestDatabase } from '../support/db';
import { lastEmailTo } from '../support/outbox';
import { pdfText } from '../support/pdf-text';
import { setSchoolTax, TEST_RATES } from '../support/school-tax';
import { expectTaxInvariants } from '../support/tax-invariants';

const DAY = 86_400_000;
const HOUR = 3_600_000;

/**
 * Buyers in many scripts, zero-decimal currencies and time zones far apart, through memberships' periods and payment
 * plans' instalments (docs/domain.md §1, §18.5, §22, §23): each invoice read back as JSON and as its PDF, whole yen
 * and won everywhere, and the end of access told in the learner's own zone. The school is established in Germany
 * and registered in Japan, whose consumption tax comes on top of yen prices.
 */

/** Buyers as they type themselves: a person's name and their company, each in one script. */
const BUYERS = {
  thai: { name: 'สมชาย ใจดี', company: 'บริษัท ตัวอย่าง จำกัด', address: '99 ถนนสุขุมวิท\nกรุงเทพมหานคร' },
  chinese: { name: '王小明', company: '北京示例科技有限公司', address: '朝阳区建国路88号\n北京市' },
  devanagari: { name: 'अनुराधा शर्मा', company: 'उदाहरण प्राइवेट लिमिटेड', address: '12 महात्मा गांधी मार्ग\nनई दिल्ली' },
  arabic: { name: 'ليلى حداد', company: 'شركة المثال للتجارة', address: 'شارع الملك فهد ١٢\nالرياض' },
  hebrew: { name: 'נועה כהן', company: 'דוגמה בע״מ', address: 'רחוב הרצל 5\nתל אביב' },
  // Written as a keyboard may send it: each accent its own combining mark after its letter.
  latin: {
    name: 'Nguye\u0302\u0303n Thi\u0323 Zoe\u0308',
    company: 'Socie\u0301te\u0301 Ge\u0301ne\u0301rale',
    address: '3 rue de l’E\u0301glise\nMontre\u0301al',
  },
};

/** The text a reader copies out of a PDF, as Poppler reads it: right-to-left lines in reading order, composed. */
function popplerText(pdf: Uint8Array): string {
  const text = execFileSync('pdftotext', ['-enc', 'UTF-8', '-', '-'], { input: Buffer.from(pdf) }).toString('utf8');
  return text.replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '').normalize('NFC');
}

/** The fonts a PDF embeds, as Poppler's pdffonts names them (without the subset's prefix). */
function fontsOf(pdf: Uint8Array): string[] {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'invoice-fonts-'));
  try {
    const file = path.join(dir, 'invoice.pdf');
    writeFileSync(file, pdf);
    const table = execFileSync('pdffonts', [file]).toString('utf8').split('\n').slice(2);
    return table.map((line) => line.split(/\s+/)[0]!.replace(/^[A-Z]{6}\+/, '')).filter(Boolean);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The first instant at least a week from now that is midnight in Auckland. */
function aucklandMidnightAfterAWeek(): Date {
  const hour = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', hourCycle: 'h23', timeZone: 'Pacific/Auckland' });
  let at = onTheHour().getTime() + 7 * DAY;
  while (hour.format(new Date(at)) !== '00') at += HOUR;
  return new Date(at);
}

describe('membership and payment-plan invoices for the whole world', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const start = onTheHour();
  const clock = manualClock(start);
  const config = testConfig({ TRUST_PROXY: 'true', COUNTRY_HEADER: 'cf-ipcountry', SUBSCRIPTION_GRACE_DAYS: '7' });
  let app: ReturnType<typeof testApp>;
  let admin: SignedIn;

  beforeAll(async () => {
    app = testApp(db(), { clock, config });
    admin = await signedIn(db(), ['admin']);
    await setSchoolTax(db(), {
      registrations: [{ country: 'JP', region: null }],
      rates: [...TEST_RATES, { country: 'JP', region: null, rateBp: 1000, name: 'Consumption tax' }],
    });
  });

  const store = (who: SignedIn, method: 'get' | 'post' | 'put', path: string, from = 'JP') =>
    as(who, request(app)[method](`/api/store${path}`).set({ 'cf-ipcountry': from }));
  const renew = (id: string, outcome: 'paid' | 'failed') =>
    request(app).post(`/test-provider/subscriptions/${id}/renew`).send({ outcome });

  /** Pays at the provider's page what `path` started; the learner's subscriptions. */
  async function paid(who: SignedIn, path: string, body: object, from = 'JP'): Promise<{ id: string }[]> {
    const started = await store(who, 'post', path, from).send(body);
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    expect((await request(app).post(`${new URL(started.body.data.url).pathname}/pay`)).status).toBe(303);
    return (await store(who, 'get', '/subscriptions')).body.data;
  }
  /** Each paid period's invoice id, oldest first. */
  const invoiceIds = async (subscriptionId: string): Promise<string[]> =>
    (
      await db()('subscriptionPeriods')
        .where({ subscriptionId, outcome: 'paid' })
        .orderBy('periodStart')
        .select('invoiceId')
    ).map((row: { invoiceId: string }) => row.invoiceId);
  async function pdfOf(who: SignedIn, invoiceId: string): Promise<Uint8Array> {
    const answer = await store(who, 'get', `/invoices/${invoiceId}.pdf`)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(answer.status).toBe(200);
    return new Uint8Array(answer.body as Buffer);
  }
  const yen = (amount: number) => `¥${amount.toLocaleString('en-US')}`;
  const won = (amount: number) => `₩${amount.toLocaleString('en-US')}`;

  it.each(Object.entries(BUYERS))(
    'names a %s buyer and their company on every period’s invoice, in whole yen, drawn and copied back as written',
    async (script, buyer) => {
      clock.set(start);
      const pass = await createProduct(db(), {
        name: `Yen pass ${script}`,
        productType: 'membership',
        billingInterval: 'month',
        unitAmount: 2980,
        currency: 'jpy',
      });
      const learner = await signedIn(db());
      expect((await store(learner, 'put', '/me/name').send({ name: buyer.name })).status).toBe(200);
      const billing = { company: buyer.company, address: buyer.address, country: 'JP', postalCode: '100-0001' };
      const [subscription] = await paid(learner, '/subscriptions', { productId: pass.id, billing });
      expect((await renew(subscription!.id, 'paid')).status).toBe(200);

      const tax = taxOnTop(2980, 1000);
      const ids = await invoiceIds(subscription!.id);
      expect(ids).toHaveLength(2);
      for (const id of ids) {
        const invoice = (await store(learner, 'get', `/invoices/${id}`)).body;
        expect(invoice).toMatchObject({
          currency: 'jpy',
          subtotal: 2980,
          taxable: 2980,
          total: 2980 + tax,
          tax: { country: 'JP', amount: tax, inclusive: false },
          buyer: { company: buyer.company, country: 'JP' },
        });
        // The name as they gave it, spaced once: nothing dropped, nothing reordered.
        expect(invoice.buyer.name.normalize('NFC')).toBe(buyer.name.normalize('NFC'));

        const pdf = await pdfOf(learner, id);
        const { blankGlyphs, lines } = await pdfText(pdf);
        expect(blankGlyphs).toEqual([]);
        // Only the title is bold: a name in any script is set in the regular weight the Latin beside it is.
        const bold = fontsOf(pdf).filter((font) => /Bold/.test(font));
        expect(bold).toEqual(['NotoSans-Bold']);
        // Poppler guesses spaces from the glyphs' gaps (a Thai vowel, a mark under a letter): compared without them.
        const copied = popplerText(pdf);
        const unspaced = copied.replace(/\s+/g, '').normalize('NFC');
        for (const text of [buyer.name, buyer.company])
          expect(unspaced).toContain(text.normalize('NFC').replace(/\s+/g, ''));
        // Each word of the address whole and in its reading order (Poppler places a right-to-left line's number by its own rules).
        for (const word of buyer.address.normalize('NFC').split(/\s+/)) expect(copied).toContain(word);
        const drawn = lines.join('\n');
        for (const amount of [yen(2980), yen(tax), yen(2980 + tax)]) expect(drawn).toContain(amount);
        // Whole yen: no amount with a decimal point.
        expect(drawn).not.toMatch(/¥[\d,]*\.\d/);
      }
    },
  );

  it('prices a payment plan in won at the regional price, every instalment whole won, and invoices each as quoted', async () => {
    clock.set(start);
    const course = await createProduct(db(), { name: 'Won course', unitAmount: 300_000, currency: 'krw' });
    const created = await as(admin, request(app).post('/api/admin/payment-plans')).send({
      productId: course.id,
      instalments: 3,
      instalmentAmount: 104_999,
      currency: 'krw',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const learner = await signedIn(db());
    expect((await store(learner, 'put', '/me/name', 'IN').send({ name: 'אבי ليلى Kim' })).status).toBe(200);
    const bp = pppForCountry('IN')!;
    expect(bp).toBeGreaterThan(0);

    const quote = await store(learner, 'post', '/payment-plans/quote', 'IN').send({ productId: course.id, ppp: true });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    const regional = 104_999 - percentOf(104_999, bp);
    expect(quote.body.data).toMatchObject({ currency: 'krw', instalments: 3, total: 3 * regional });
    for (const payment of quote.body.data.payments)
      expect(payment).toMatchObject({ amount: regional, charged: regional });

    const [plan] = await paid(learner, '/payment-plans', { productId: course.id, ppp: true }, 'IN');
    for (let n = 0; n < 2; n++) expect((await renew(plan!.id, 'paid')).status).toBe(200);
    const ids = await invoiceIds(plan!.id);
    expect(ids).toHaveLength(3);
    for (const id of ids) {
      const invoice = (await store(learner, 'get', `/invoices/${id}`, 'IN')).body;
      expect(invoice).toMatchObject({ currency: 'krw', subtotal: 104_999, total: regional, tax: null });
      const drawn = (await pdfText(await pdfOf(learner, id))).lines.join('\n');
      for (const amount of [won(104_999), won(regional), `−${won(104_999 - regional)}`])
        expect(drawn).toContain(amount);
      expect(drawn).toContain('Regional price (India');
      expect(drawn).not.toMatch(/₩[\d,]*\.\d/);
    }
    const purchase = await db()('purchases').where({ userId: learner.user.id, productId: course.id }).first();
    expect(purchase).toMatchObject({ paidInFull: true, totalAmount: 3 * regional });
  });

  it('prorates a switch to yearly in whole yen: the quote, the charge, its invoice and its PDF agree', async () => {
    clock.set(start);
    const pass = await createProduct(db(), {
      name: 'Yen pass switched',
      productType: 'membership',
      billingInterval: 'month',
      unitAmount: 1000,
      yearlyAmount: 9999,
      currency: 'jpy',
    });
    const learner = await signedIn(db());
    const [subscription] = await paid(learner, '/subscriptions', { productId: pass.id });
    const id = subscription!.id;
    // An awkward moment: a third of a yen's worth of the month used up is not a yen.
    clock.advance(10 * DAY + 7 * HOUR + 13_000);
    const credit = unusedCredit(1000, { start, end: periodEnd(start, 'month') }, clock.now());
    const tax = taxOnTop(9999 - credit, 1000);
    const quote = (await store(learner, 'get', `/subscriptions/${id}/billing`)).body.data.switch;
    expect(quote).toMatchObject({
      interval: 'year',
      currency: 'jpy',
      amount: 9999,
      credit,
      tax: { amount: tax, inclusive: false },
      dueNow: 9999 - credit + tax,
    });
    for (const amount of [quote.credit, quote.tax.amount, quote.dueNow]) expect(Number.isInteger(amount)).toBe(true);
    const switched = await store(learner, 'post', `/subscriptions/${id}/switch`).send({
      interval: 'year',
      dueNow: quote.dueNow,
    });
    expect(switched.status, JSON.stringify(switched.body)).toBe(200);

    const last = (await invoiceIds(id)).at(-1)!;
    const invoice = (await store(learner, 'get', `/invoices/${last}`)).body;
    expect(invoice).toMatchObject({ currency: 'jpy', total: quote.dueNow, tax: { amount: tax } });
    const drawn = (await pdfText(await pdfOf(learner, last))).lines.join('\n');
    expect(drawn).toContain(yen(quote.dueNow));
    expect(drawn).not.toMatch(/¥[\d,]*\.\d/);
  });

  it('names a yen coupon on the periods it covers, rounded to the yen, and bills the full price after', async () => {
    clock.set(start);
    const pass = await createProduct(db(), {
      name: 'Yen pass with a coupon',
      productType: 'membership',
      billingInterval: 'month',
      unitAmount: 2980,
      currency: 'jpy',
    });
    const coupon = await createCoupon(db(), { percentageDiscount: 0.15 });
    await db()('coupons').where({ id: coupon.id }).update({ duration: 'repeating', durationPeriods: 1 });
    const learner = await signedIn(db());
    const [subscription] = await paid(learner, '/subscriptions', { productId: pass.id, coupon: coupon.code });
    expect((await renew(subscription!.id, 'paid')).status).toBe(200);
    // 15 % of ¥2,980 is ¥447 (447.0), and tax on top of what is left.
    const off = percentOf(2980, 1500);
    const [first, second] = await invoiceIds(subscription!.id);
    const discounted = (await store(learner, 'get', `/invoices/${first}`)).body;
    expect(discounted).toMatchObject({ subtotal: 2980, discount: off, taxable: 2980 - off });
    expect(discounted.lines).toContainEqual(
      expect.objectContaining({ kind: 'discount', description: `Coupon ${coupon.code} (15 %)`, amount: -off }),
    );
    const drawn = (await pdfText(await pdfOf(learner, first!))).lines.join('\n');
    expect(drawn).toContain(`Coupon ${coupon.code} (15 %)`);
    expect(drawn).toContain(`−${yen(off)}`);
    const full = (await store(learner, 'get', `/invoices/${second}`)).body;
    expect(full).toMatchObject({ subtotal: 2980, discount: 0, taxable: 2980 });
    expect(full.lines.map((l: { kind: string }) => l.kind)).toEqual(['item']);
    // Every invoice written so far adds up: items, discount lines, taxable amount, tax and total.
    await expectTaxInvariants(db());
  });

  it('refuses memberships and payment plans in a three-decimal currency, naming the field', async () => {
    const membership = await as(admin, request(app).post('/api/admin/products')).send({
      name: 'Dinar pass',
      productType: 'membership',
      billingInterval: 'month',
      unitAmount: 5000,
      currency: 'kwd',
      status: 'active',
    });
    expect(membership.status).toBe(400);
    expect(membership.body).toMatchObject({ code: 'validation-failed' });
    expect(membership.body.errors.currency).toMatch(/counted differently/);
    const course = await createProduct(db(), { name: 'Dinar course', unitAmount: 30_000 });
    const plan = await as(admin, request(app).post('/api/admin/payment-plans')).send({
      productId: course.id,
      instalments: 3,
      instalmentAmount: 10_000,
      currency: 'kwd',
    });
    expect(plan.status).toBe(400);
    expect(plan.body.errors.currency).toMatch(/counted differently/);
    expect(await db()('paymentPlans').where({ productId: course.id })).toEqual([]);
  });

  it('tells learners in Auckland and Los Angeles when their courses close, each in their own zone', async () => {
    // The grace ends at midnight in Auckland: still the day before in Los Angeles, and in UTC.
    const graceEnd = aucklandMidnightAfterAWeek();
    clock.set(new Date(graceEnd.getTime() - 7 * DAY));
    const pass = await createProduct(db(), {
      name: 'Yen pass far apart',
      productType: 'membership',
      billingInterval: 'month',
      unitAmount: 2980,
      currency: 'jpy',
    });
    const zones = ['Pacific/Auckland', 'America/Los_Angeles'] as const;
    for (const zone of zones) {
      const learner = await signedIn(db());
      expect((await store(learner, 'put', '/me/time-zone').send({ timeZone: zone })).status).toBe(200);
      const [subscription] = await paid(learner, '/subscriptions', { productId: pass.id });
      // The period renews on the day it ends where the learner is (the storefront writes it in their zone).
      const { currentPeriodEnd } = subscription as unknown as { currentPeriodEnd: string };
      const end = new Date(currentPeriodEnd);
      expect(formatDate(currentPeriodEnd, { timeZone: zone })).toBe(
        new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: zone }).format(end),
      );

      expect((await renew(subscription!.id, 'failed')).status).toBe(200);
      const email = await lastEmailTo(db(), learner.user.email);
      expect(email.kind).toBe('subscription-payment-failed');
      expect(email.textBody).toContain(yen(2980 + taxOnTop(2980, 1000)));
      // The day, the hour and the zone as the learner's clock reads them.
      const until = formatEmailDate(graceEnd, zone);
      expect(email.textBody).toContain(`Your courses stay open until ${until};`);
      expect(email.textBody).toContain(`(${zone})`);
      const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: zone }).format(graceEnd);
      expect(until).toContain(day);
      if (zone === 'Pacific/Auckland') expect(until).toMatch(/12:00\sAM/);
    }
  });
});
