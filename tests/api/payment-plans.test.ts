import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ContentResource } from '../support/models';
import { createCoupon, createCourse, createProduct, createRevenueSplit, makeUpgradable } from '../../seeds/factories';
import { percentOf } from '../../api/src/commerce/pricing/prices';
import { pppForCountry } from '../../api/src/commerce/pricing/ppp';
import { setSchoolTax } from '../support/school-tax';
import { testApp, testConfig } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { manualClock, onTheHour } from '../support/clock';
import { useTestDatabase } from '../support/db';
import { testProviderFee } from '../../api/src/payments/test-provider';
import { taxInside, taxOnTop } from '../../api/src/tax/amounts';
import type { Product } from '../../api/src/catalog/models';

const DAY = 86_400_000;
const INSTALMENT = 21000;

describe('payment plans: a course in instalments with the built-in test provider', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  // Sessions are made at the real time and last 30 days: the test's clock stays within them.
  const start = onTheHour();
  const clock = manualClock(start);
  let app: ReturnType<typeof testApp>;
  let planned: Product;
  let pro: Product;
  let course: { course: ContentResource; lessons: ContentResource[] };

  beforeAll(async () => {
    app = testApp(db(), { clock, config: testConfig({ SUBSCRIPTION_GRACE_DAYS: '7', TRANSFER_WINDOW_DAYS: '14' }) });
    planned = await createProduct(db(), { name: 'Course in instalments', unitAmount: 60000 });
    await db()('paymentPlans').insert({
      productId: planned.id,
      instalments: 3,
      instalmentAmount: INSTALMENT,
      currency: 'usd',
    });
    await createRevenueSplit(db(), { productId: planned.id, type: 'platform', percent: 0.3 });
    pro = await createProduct(db(), { name: 'Course in instalments, Pro', unitAmount: 90000 });
    await makeUpgradable(db(), planned, pro);
    course = await createCourse(
      db(),
      {
        title: 'Instalments course',
        modules: [
          {
            title: 'One',
            sections: [{ title: 'A', lessons: [1, 2].map((n) => ({ title: `L${n}`, body: '<p>x</p>' })) }],
          },
        ],
      },
      { products: [planned] },
    );
  });

  const store = (who: SignedIn, method: 'get' | 'post' | 'put', path: string, body?: object) =>
    as(who, request(app)[method](`/api/store${path}`)).send(body);
  const lessonOpen = async (who: SignedIn) => {
    const lesson = await store(who, 'get', `/courses/${course.course.fields.slug}/lessons/${course.lessons[1]!.id}`);
    expect(lesson.status).toBe(200);
    return lesson.body.open as boolean;
  };
  const renew = (id: string, outcome: 'paid' | 'failed') =>
    request(app).post(`/test-provider/subscriptions/${id}/renew`).send({ outcome });
  const plan = async (who: SignedIn) =>
    (await store(who, 'get', '/subscriptions')).body.data.find(
      (s: { productId: string }) => s.productId === planned.id,
    );
  const purchase = (who: SignedIn) => db()('purchases').where({ userId: who.user.id, productId: planned.id }).first();
  const charges = (userId: string) =>
    db()('merchantCharges').where({ userId }).orderBy('createdAt').select('id', 'amount', 'fee', 'net');

  /** Buys the plan at the provider's page: the first instalment is paid there. */
  async function buyPlan(who: SignedIn) {
    const started = await store(who, 'post', '/payment-plans', { productId: planned.id });
    expect(started.status).toBe(201);
    const { pathname } = new URL(started.body.data.url);
    const paid = await request(app).post(`${pathname}/pay`);
    expect(paid.status).toBe(303);
    return plan(who);
  }

  it('offers the plan on the sales page beside the one-time price', async () => {
    const page = await request(app).get(`/api/store/products/${planned.slug}`);
    expect(page.body.paymentPlan).toEqual({ instalments: 3, instalmentAmount: INSTALMENT, currency: 'usd' });
    const none = await request(app).get(`/api/store/products/${pro.slug}`);
    expect(none.body.paymentPlan).toBeNull();
    const learner = await signedIn(db());
    const refused = await store(learner, 'post', '/payment-plans', { productId: pro.id });
    expect([refused.status, refused.body.code]).toEqual([409, 'no-payment-plan']);
  });

  it('opens the course from the first instalment; upgrades and transfers wait for the last, which the provider bills exactly once', async () => {
    const learner = await signedIn(db());
    expect(await lessonOpen(learner)).toBe(false);
    const sub = await buyPlan(learner);
    expect(sub).toMatchObject({ kind: 'payment-plan', status: 'active', instalmentsPaid: 1, instalments: 3 });
    expect(await lessonOpen(learner)).toBe(true);
    const bought = await purchase(learner);
    expect(bought).toMatchObject({ status: 'Valid', totalAmount: INSTALMENT, paidInFull: false });
    expect(bought.paymentPlanSubscriptionId).toBe(sub.id);

    // Bought again, or bought at once beside it: already theirs.
    expect((await store(learner, 'post', '/payment-plans', { productId: planned.id })).body.code).toBe(
      'already-purchased',
    );
    // Not yet paid in full: no transfer, no upgrade credit, no escape by cancelling.
    const transfer = await store(learner, 'post', `/purchases/${bought.id}/transfer`, { email: 'friend@example.com' });
    expect([transfer.status, transfer.body.code]).toEqual([409, 'payment-plan-not-paid']);
    const upgrade = await store(learner, 'get', `/products/${pro.id}/quote?upgradeFrom=${bought.id}`);
    expect([upgrade.status, upgrade.body.code]).toEqual([409, 'payment-plan-not-paid']);
    const credit = await store(learner, 'get', `/products/${pro.id}/quote`);
    expect([credit.status, credit.body.upgrade]).toEqual([200, null]);
    const support = await signedIn(db(), ['support']);
    const moved = await as(support, request(app).post(`/api/admin/purchases/${bought.id}/move`)).send({
      email: 'typo@example.com',
    });
    expect([moved.status, moved.body.code]).toEqual([409, 'payment-plan-not-paid']);
    const cancel = await store(learner, 'post', `/subscriptions/${sub.id}/cancel`);
    expect([cancel.status, cancel.body.code]).toEqual([409, 'payment-plan-not-cancelable']);
    // Someone else's plan is not theirs to know of.
    const stranger = await store(await signedIn(db()), 'post', `/subscriptions/${sub.id}/cancel`);
    expect([stranger.status, stranger.body.code]).toEqual([404, 'not-found']);

    expect((await renew(sub.id, 'paid')).status).toBe(200);
    expect(await plan(learner)).toMatchObject({ instalmentsPaid: 2 });
    expect(await purchase(learner)).toMatchObject({ totalAmount: 2 * INSTALMENT, paidInFull: false });
    expect((await renew(sub.id, 'paid')).status).toBe(200);

    // Paid in full: the plan ends by itself, and the purchase is a one-time one's equal.
    expect(await plan(learner)).toMatchObject({ instalmentsPaid: 3, instalments: 3, cancelAtPeriodEnd: true });
    expect(await purchase(learner)).toMatchObject({ totalAmount: 3 * INSTALMENT, paidInFull: true });
    const fourth = await renew(sub.id, 'paid');
    expect([fourth.status, fourth.body.code]).toEqual([409, 'subscription-not-renewable']);
    expect(await charges(learner.user.id)).toHaveLength(3);
    expect(
      await db()('testProviderSubscriptionInvoices')
        .join(
          'testProviderSubscriptions as s',
          's.identifier',
          'testProviderSubscriptionInvoices.subscriptionIdentifier',
        )
        .where({ 's.reference': sub.id, 'testProviderSubscriptionInvoices.status': 'paid' }),
    ).toHaveLength(3);

    // Once the plan's subscription has ended (as its provider's last event records it), the purchase opens the course.
    await db()('subscriptions').where({ id: sub.id }).update({ status: 'canceled' });
    expect(await lessonOpen(learner)).toBe(true);
    const quote = await store(learner, 'get', `/products/${pro.id}/quote?upgradeFrom=${bought.id}`);
    expect(quote.status).toBe(200);
    expect(quote.body.upgrade).toMatchObject({ fromPurchaseId: bought.id, credit: 3 * INSTALMENT });
    const given = await store(learner, 'post', `/purchases/${bought.id}/transfer`, { email: 'friend@example.com' });
    expect(given.status).toBe(200);
    expect(given.body.data.state).toBe('INITIATED');
  });

  it('gives each instalment its charge, split lines and invoice', async () => {
    const learner = await signedIn(db());
    const sub = await buyPlan(learner);
    await renew(sub.id, 'paid');
    const paid = await charges(learner.user.id);
    expect(paid).toHaveLength(2);
    for (const charge of paid) {
      expect(charge).toMatchObject({
        amount: INSTALMENT,
        fee: testProviderFee(INSTALMENT),
        net: INSTALMENT - testProviderFee(INSTALMENT),
      });
      const lines = await db()('splitLines').where({ merchantChargeId: charge.id }).sum({ sum: 'amount' });
      expect(Number(lines[0]!.sum)).toBe(charge.net);
      expect(await db()('invoices').where({ merchantChargeId: charge.id, kind: 'invoice' })).toHaveLength(1);
    }
    const periods = await db()('subscriptionPeriods').where({ subscriptionId: sub.id, outcome: 'paid' });
    expect(periods.map((p) => p.merchantChargeId).sort()).toEqual(paid.map((c) => c.id).sort());
  });

  it('keeps access through the grace of a failed instalment, closes the course after it, and opens it once paid', async () => {
    const learner = await signedIn(db());
    const sub = await buyPlan(learner);
    await store(learner, 'put', `/progress/lessons/${course.lessons[1]!.id}`, {});
    expect((await renew(sub.id, 'failed')).status).toBe(200);
    expect(await plan(learner)).toMatchObject({ status: 'past_due', instalmentsPaid: 1 });
    clock.advance(6 * DAY);
    expect(await lessonOpen(learner)).toBe(true);
    clock.advance(1 * DAY + 1000);
    expect(await plan(learner)).toMatchObject({ status: 'lapsed' });
    expect(await lessonOpen(learner)).toBe(false);
    expect(await purchase(learner)).toMatchObject({ status: 'Valid', paidInFull: false });

    expect((await renew(sub.id, 'paid')).status).toBe(200);
    expect(await plan(learner)).toMatchObject({ status: 'active', instalmentsPaid: 2 });
    expect(await lessonOpen(learner)).toBe(true);
    clock.set(start);
  });

  it('lets staff offer a new plan in the console, archiving the one before; a membership is not sold in instalments', async () => {
    const staff = await signedIn(db(), ['support']);
    const course = await createProduct(db(), { name: 'Course with a new plan', unitAmount: 30000 });
    const create = (productId: string, instalments: number, instalmentAmount: number) =>
      as(staff, request(app).post('/api/admin/payment-plans')).send({ productId, instalments, instalmentAmount });
    const first = await create(course.id, 3, 10500);
    expect(first.status).toBe(201);
    const second = await create(course.id, 6, 5300);
    expect(second.status).toBe(201);
    const plans = await db()('paymentPlans').where({ productId: course.id }).orderBy('createdAt');
    expect(plans.map((p) => [p.instalments, p.status])).toEqual([
      [3, 'archived'],
      [6, 'active'],
    ]);
    expect((await request(app).get(`/api/store/products/${course.slug}`)).body.paymentPlan).toMatchObject({
      instalments: 6,
      instalmentAmount: 5300,
    });
    const membership = await createProduct(db(), { productType: 'membership', billingInterval: 'month' });
    const refused = await create(membership.id, 3, 1000);
    expect([refused.status, refused.body.errors]).toEqual([400, { productId: 'must not be a membership' }]);
    const tooFew = await create(course.id, 1, 1000);
    expect(tooFew.status).toBe(400);
    expect(tooFew.body.errors.instalments).toBeDefined();
    expect(await db()('paymentPlans').where({ productId: course.id })).toHaveLength(2);
  });

  it('counts no plan as a subscriber or recurring revenue on the Finance page', async () => {
    const learner = await signedIn(db());
    await buyPlan(learner);
    const finance = await signedIn(db(), ['finance']);
    const day = start.toISOString().slice(0, 10);
    const figures = await as(finance, request(app).get('/api/admin/finance/subscriptions')).query({
      from: day,
      to: day,
    });
    expect(figures.status).toBe(200);
    expect(figures.body).toMatchObject({ activeSubscribers: 0, trials: 0, mrr: [] });
  });

  it('records each instalment once, whatever is delivered twice or out of order', async () => {
    const learner = await signedIn(db());
    const sub = await buyPlan(learner);
    const { createServices } = await import('../../api/src/services');
    const { createLogger } = await import('../../api/src/logger');
    const services = createServices({ db: db(), clock, config: testConfig(), logger: createLogger('silent') });
    const accountId = await services.testProvider.accountId();
    const second = await services.testProvider.subscriptions.renew(sub.id, 'paid', null);
    const third = await services.testProvider.subscriptions.renew(sub.id, 'paid', null);
    // The last arrives first, twice at once; the second late.
    const results = await Promise.all(
      [third, third, second].map((e) => services.subscriptions.recordEvent(accountId, e)),
    );
    expect(results.filter((r) => r.recorded)).toHaveLength(2);
    await services.subscriptions.recordEvent(accountId, second);
    expect(await purchase(learner)).toMatchObject({ totalAmount: 3 * INSTALMENT, paidInFull: true });
    expect(await charges(learner.user.id)).toHaveLength(3);
    expect(await db()('purchases').where({ userId: learner.user.id })).toHaveLength(1);
  });
});

/**
 * Each instalment taxed as a membership's period is (docs/domain.md §23): the school is established in Germany,
 * registered for the EU's One-Stop Shop and in Washington State; euro prices include tax, dollar ones do not.
 */
describe("payment plans: tax on every instalment's invoice", () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const clock = manualClock(onTheHour());
  const config = testConfig({ TRUST_PROXY: 'true', COUNTRY_HEADER: 'cf-ipcountry', REGION_HEADER: 'cf-region' });
  let app: ReturnType<typeof testApp>;

  beforeAll(async () => {
    app = testApp(db(), { clock, config });
    await setSchoolTax(db(), { registrations: [{ country: 'US', region: 'WA' }] });
  });

  /** A course offered in 3 monthly instalments of `each`. */
  async function plannedCourse(name: string, each: number, currency: string) {
    const product = await createProduct(db(), { name, unitAmount: 3 * each, currency });
    await db()('paymentPlans').insert({ productId: product.id, instalments: 3, instalmentAmount: each, currency });
    return product;
  }
  /** Buys the plan from `from` (the detected country and region), pays the first instalment, then the other two. */
  async function payInFull(who: SignedIn, productId: string, from: Record<string, string>, body: object = {}) {
    const started = await as(who, request(app).post('/api/store/payment-plans').set(from)).send({ productId, ...body });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const { pathname } = new URL(started.body.data.url);
    expect((await request(app).post(`${pathname}/pay`)).status).toBe(303);
    const [sub] = (await as(who, request(app).get('/api/store/subscriptions'))).body.data as { id: string }[];
    for (const _ of [2, 3])
      expect(
        (await request(app).post(`/test-provider/subscriptions/${sub!.id}/renew`).send({ outcome: 'paid' })).status,
      ).toBe(200);
    return sub!.id;
  }
  /** Each paid instalment's charge with its invoice, oldest first. */
  const instalments = (subscriptionId: string) =>
    db()('subscriptionPeriods as sp')
      .join('merchantCharges as c', 'c.id', 'sp.merchantChargeId')
      .join('invoices as i', 'i.id', 'sp.invoiceId')
      .where('sp.subscriptionId', subscriptionId)
      .orderBy('sp.periodStart')
      .select(
        'c.amount',
        'c.taxAmount',
        'c.taxInclusive',
        'i.taxable',
        'i.taxAmount as invoiceTax',
        'i.taxRateBp as invoiceRate',
        'i.total',
      );

  it('keeps the tax inside a euro instalment, for the country the buyer is in', async () => {
    const course = await plannedCourse('Euro course in instalments', 1190, 'eur');
    const learner = await signedIn(db());
    const id = await payInFull(learner, course.id, { 'cf-ipcountry': 'DE' });
    const inside = taxInside(1190, 1900);
    const paid = await instalments(id);
    expect(paid).toEqual(
      [1, 2, 3].map(() => ({
        amount: 1190,
        taxAmount: inside,
        taxInclusive: true,
        taxable: 1190 - inside,
        invoiceTax: inside,
        invoiceRate: 1900,
        total: 1190,
      })),
    );
    // Tax inside: the instalments paid add up to the plan's price, and so does the purchase.
    expect(paid.reduce((sum, p) => sum + p.total, 0)).toBe(3 * 1190);
    expect(await db()('purchases').where({ productId: course.id }).first()).toMatchObject({
      totalAmount: 3 * 1190,
      paidInFull: true,
    });
  });

  it('bills tax on top of a dollar instalment, and a buyer taxed nowhere pays the instalment alone', async () => {
    const course = await plannedCourse('Dollar course in instalments', 21000, 'usd');
    const seattle = await signedIn(db());
    const id = await payInFull(seattle, course.id, { 'cf-ipcountry': 'US', 'cf-region': 'WA' });
    const onTop = taxOnTop(21000, 650);
    const paid = await instalments(id);
    expect(paid).toEqual(
      [1, 2, 3].map(() => ({
        amount: 21000 + onTop,
        taxAmount: onTop,
        taxInclusive: false,
        taxable: 21000,
        invoiceTax: onTop,
        invoiceRate: 650,
        total: 21000 + onTop,
      })),
    );
    // The instalments' net of tax add up to the plan's price.
    expect(paid.reduce((sum, p) => sum + p.taxable, 0)).toBe(3 * 21000);

    // Billing details given name the place: Oregon is not taxed here.
    const portland = await signedIn(db());
    const untaxed = await payInFull(
      portland,
      course.id,
      { 'cf-ipcountry': 'US', 'cf-region': 'WA' },
      { billing: { country: 'US', region: 'OR' } },
    );
    expect((await instalments(untaxed)).map((p) => [p.amount, p.taxAmount, p.total])).toEqual(
      [1, 2, 3].map(() => [21000, 0, 21000]),
    );
  });

  it('refuses a billing place the tax cannot tell, before the provider is asked', async () => {
    const course = await plannedCourse('Course refused in instalments', 5000, 'usd');
    const learner = await signedIn(db());
    const refused = await as(learner, request(app).post('/api/store/payment-plans').set({ 'cf-ipcountry': 'US' })).send(
      {
        productId: course.id,
        billing: { country: 'US', region: 'ZZ' },
      },
    );
    expect([refused.status, refused.body.code]).toEqual([422, 'billing-region-invalid']);
    expect(await db()('testProviderSubscriptions').where({ customerEmail: learner.user.email })).toHaveLength(0);
  });
});

/**
 * A plan priced as its course is (docs/domain.md §23): a coupon for its duration's instalments, or the regional price
 * for all of them, one percentage discount (the one saving the most on the first), tax on each; the quote the sales page
 * shows is what every instalment charges, to the cent.
 */
describe('payment plans: coupons and regional prices on the instalments', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const clock = manualClock(onTheHour());
  const config = testConfig({ TRUST_PROXY: 'true', COUNTRY_HEADER: 'cf-ipcountry', REGION_HEADER: 'cf-region' });
  const SEATTLE = { 'cf-ipcountry': 'US', 'cf-region': 'WA' };
  let app: ReturnType<typeof testApp>;

  beforeAll(async () => {
    app = testApp(db(), { clock, config });
    await setSchoolTax(db(), { registrations: [{ country: 'US', region: 'WA' }] });
  });

  async function plannedCourse(name: string, each = INSTALMENT, currency = 'usd') {
    const product = await createProduct(db(), { name, unitAmount: 3 * each, currency });
    await db()('paymentPlans').insert({ productId: product.id, instalments: 3, instalmentAmount: each, currency });
    return product;
  }
  const coupon = async (percentageDiscount: number, duration: object) => {
    const made = await createCoupon(db(), { percentageDiscount });
    await db()('coupons').where({ id: made.id }).update(duration);
    return made.code!;
  };
  const quote = (who: SignedIn | null, from: Record<string, string>, body: object) => {
    const call = request(app).post('/api/store/payment-plans/quote').set(from);
    return (who ? as(who, call) : call).send(body);
  };
  /** Buys the plan with these terms and pays every instalment; what each was charged, oldest first. */
  async function payInFull(
    who: SignedIn,
    from: Record<string, string>,
    body: { productId: string; [k: string]: unknown },
  ) {
    const started = await as(who, request(app).post('/api/store/payment-plans').set(from)).send(body);
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const { pathname } = new URL(started.body.data.url);
    expect((await request(app).post(`${pathname}/pay`)).status).toBe(303);
    const [sub] = (await as(who, request(app).get('/api/store/subscriptions'))).body.data as { id: string }[];
    for (const _ of [2, 3])
      expect(
        (await request(app).post(`/test-provider/subscriptions/${sub!.id}/renew`).send({ outcome: 'paid' })).status,
      ).toBe(200);
    const charged = await db()('subscriptionPeriods as sp')
      .join('merchantCharges as c', 'c.id', 'sp.merchantChargeId')
      .where('sp.subscriptionId', sub!.id)
      .orderBy('sp.periodStart')
      .select('c.amount', 'c.taxAmount');
    const purchase = await db()('purchases').where({ userId: who.user.id, productId: body.productId }).first();
    return { charged, purchase };
  }
  const chargesOf = (payments: { charged: number; tax: number }[]) =>
    payments.map((p) => ({ amount: p.charged, taxAmount: p.tax }));

  it('takes a coupon off the instalments its duration covers, tax on top of what is left, charged as quoted', async () => {
    const course = await plannedCourse('Plan with a coupon');
    const code = await coupon(0.5, { duration: 'repeating', durationPeriods: 2 });
    const learner = await signedIn(db());
    const quoted = await quote(learner, SEATTLE, { productId: course.id, coupon: code });
    expect(quoted.status, JSON.stringify(quoted.body)).toBe(200);
    const half = INSTALMENT - percentOf(INSTALMENT, 5000);
    const payment = (discount: number) => ({
      amount: INSTALMENT,
      discount,
      tax: taxOnTop(INSTALMENT - discount, 650),
      charged: INSTALMENT - discount + taxOnTop(INSTALMENT - discount, 650),
    });
    expect(quoted.body.data).toMatchObject({
      instalments: 3,
      currency: 'usd',
      coupon: { code, percent: 50, periods: 2 },
      pppPercent: null,
      tax: { name: 'Sales tax', rate: 650, inclusive: false },
      payments: [payment(INSTALMENT - half), payment(INSTALMENT - half), payment(0)],
    });
    const { charged, purchase } = await payInFull(learner, SEATTLE, { productId: course.id, coupon: code });
    expect(charged).toEqual(chargesOf(quoted.body.data.payments));
    expect(purchase).toMatchObject({ status: 'Valid', paidInFull: true, totalAmount: quoted.body.data.total });
    expect(await db()('coupons').where({ code }).first('usedCount')).toEqual({ usedCount: 1 });

    // A coupon for ever takes off every instalment; one for once the first only (tax inside a euro price).
    const forever = await coupon(0.2, { duration: 'forever' });
    const all = await quote(null, SEATTLE, { productId: course.id, coupon: forever });
    expect(all.body.data.payments.map((p: { discount: number }) => p.discount)).toEqual([4200, 4200, 4200]);
    const euro = await plannedCourse('Euro plan with a coupon', 1190, 'eur');
    const once = await coupon(0.1, { duration: 'once' });
    const berlin = { 'cf-ipcountry': 'DE' };
    const first = await quote(learner, berlin, { productId: euro.id, coupon: once });
    expect(first.body.data.payments).toEqual([
      { amount: 1190, discount: 119, tax: taxInside(1071, 1900), charged: 1071 },
      { amount: 1190, discount: 0, tax: taxInside(1190, 1900), charged: 1190 },
      { amount: 1190, discount: 0, tax: taxInside(1190, 1900), charged: 1190 },
    ]);
    const bought = await payInFull(await signedIn(db()), berlin, { productId: euro.id, coupon: once });
    expect(bought.charged).toEqual(chargesOf(first.body.data.payments));
  });

  it('bills every instalment at the regional price when asked, the course Restricted to that country', async () => {
    const course = await plannedCourse('Plan at a regional price');
    const india = { 'cf-ipcountry': 'IN' };
    const bp = pppForCountry('IN')!;
    const regional = INSTALMENT - percentOf(INSTALMENT, bp);
    const learner = await signedIn(db());
    const quoted = await quote(learner, india, { productId: course.id, ppp: true });
    expect(quoted.body.data).toMatchObject({ pppPercent: bp / 100, coupon: null, tax: null, total: 3 * regional });
    expect(quoted.body.data.payments).toEqual(
      [1, 2, 3].map(() => ({ amount: regional, discount: 0, tax: 0, charged: regional })),
    );
    // Not asked for: the plan's own price.
    const full = await quote(learner, india, { productId: course.id });
    expect(full.body.data.payments[0]).toMatchObject({ amount: INSTALMENT, charged: INSTALMENT });

    const { charged, purchase } = await payInFull(learner, india, { productId: course.id, ppp: true });
    expect(charged).toEqual(chargesOf(quoted.body.data.payments));
    expect(purchase).toMatchObject({
      status: 'Restricted',
      country: 'IN',
      paidInFull: true,
      totalAmount: 3 * regional,
    });
  });

  it('applies one discount when both are asked for: the one saving the most on the first instalment', async () => {
    const course = await plannedCourse('Plan with a coupon or a regional price');
    const brazil = { 'cf-ipcountry': 'BR' };
    const bp = pppForCountry('BR')!;
    // A coupon saving less than the regional price gives way to it, on every instalment.
    const small = await coupon(0.1, { duration: 'forever' });
    const learner = await signedIn(db());
    const regional = await quote(learner, brazil, { productId: course.id, ppp: true, coupon: small });
    expect(regional.body.data).toMatchObject({ coupon: null, pppPercent: bp / 100 });
    // One saving more wins for its instalments; the rest are at the plan's own price, the course not Restricted.
    const big = await coupon(0.6, { duration: 'repeating', durationPeriods: 2 });
    const quoted = await quote(learner, brazil, { productId: course.id, ppp: true, coupon: big });
    expect(quoted.body.data).toMatchObject({ coupon: { code: big, percent: 60, periods: 2 }, pppPercent: null });
    expect(quoted.body.data.payments.map((p: { charged: number }) => p.charged)).toEqual([
      INSTALMENT - percentOf(INSTALMENT, 6000),
      INSTALMENT - percentOf(INSTALMENT, 6000),
      INSTALMENT,
    ]);
    const { charged, purchase } = await payInFull(learner, brazil, {
      productId: course.id,
      ppp: true,
      coupon: big,
    });
    expect(charged).toEqual(chargesOf(quoted.body.data.payments));
    expect(purchase).toMatchObject({ status: 'Valid', country: null });
  });

  it('refuses a coupon as checkout does: the reason to a signed-in buyer, one answer to a guest, nothing started', async () => {
    const course = await plannedCourse('Plan refusing a coupon');
    const learner = await signedIn(db());
    const unknown = await quote(learner, SEATTLE, { productId: course.id, coupon: 'NO-SUCH-CODE' });
    expect([unknown.status, unknown.body.code]).toEqual([400, 'coupon-not-found']);
    const guest = await quote(null, SEATTLE, { productId: course.id, coupon: 'NO-SUCH-CODE' });
    expect([guest.status, guest.body.code]).toEqual([400, 'coupon-not-valid']);
    const bought = await as(learner, request(app).post('/api/store/payment-plans').set(SEATTLE)).send({
      productId: course.id,
      coupon: 'NO-SUCH-CODE',
    });
    expect(bought.body.code).toBe('coupon-not-found');
    expect(await db()('testProviderSubscriptions').where({ customerEmail: learner.user.email })).toHaveLength(0);
    const none = await quote(null, SEATTLE, { productId: (await createProduct(db(), {})).id });
    expect([none.status, none.body.code]).toEqual([409, 'no-payment-plan']);
  });
});
