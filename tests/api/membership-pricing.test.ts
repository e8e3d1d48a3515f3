import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCourse, createCoupon, createProduct } from '../../seeds/factories';
import { percentOf } from '../../api/src/commerce/pricing/prices';
import { pppForCountry } from '../../api/src/commerce/pricing/ppp';
import { testProviderFee } from '../../api/src/payments/test-provider';
import { taxInside, taxOnTop } from '../../api/src/tax/amounts';
import { unusedCredit } from '../../api/src/shared/proration';
import type { Product } from '../../api/src/catalog/models';
import { testApp, testConfig } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { manualClock, onTheHour } from '../support/clock';
import { useTestDatabase } from '../support/db';
import { setSchoolTax } from '../support/school-tax';

/**
 * What each period of a membership costs (docs/domain.md §22): a coupon for its first periods or for ever, the
 * regional price, tax on every period's invoice as on a one-time purchase's, and a team's seats. The school is
 * established in Germany, registered for the EU's One-Stop Shop, in the United Kingdom and in Washington State; euro
 * prices include tax, others do not.
 */
describe('membership pricing with the built-in test provider', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const clock = manualClock(onTheHour());
  const config = testConfig({ TRUST_PROXY: 'true', COUNTRY_HEADER: 'cf-ipcountry', REGION_HEADER: 'cf-region' });
  let app: ReturnType<typeof testApp>;
  let monthly: Product;

  beforeAll(async () => {
    app = testApp(db(), { clock, config });
    await setSchoolTax(db(), {
      registrations: [
        { country: 'US', region: 'WA' },
        { country: 'GB', region: null },
      ],
    });
    monthly = await membership('Monthly pass', 2900, 'usd');
  });

  const membership = (name: string, unitAmount: number, currency: string) =>
    createProduct(db(), { name, productType: 'membership', billingInterval: 'month', unitAmount, currency });
  const store = (who: SignedIn, path: string, body?: object, from: Record<string, string> = { 'cf-ipcountry': 'AU' }) =>
    as(who, request(app).post(`/api/store${path}`).set(from)).send(body);
  const renew = (id: string, outcome: 'paid' | 'failed' = 'paid') =>
    request(app).post(`/test-provider/subscriptions/${id}/renew`).send({ outcome });

  /** Subscribes at the provider's page; the learner's subscription's id. */
  async function subscribe(who: SignedIn, body: object, from?: Record<string, string>): Promise<string> {
    const started = await store(who, '/subscriptions', body, from);
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const { pathname } = new URL(started.body.data.url);
    expect((await request(app).post(`${pathname}/pay`)).status).toBe(303);
    const [sub] = (await as(who, request(app).get('/api/store/subscriptions'))).body.data as { id: string }[];
    return sub!.id;
  }
  /** What the Billing page says the next period will be charged. */
  const nextCharge = async (who: SignedIn, id: string) =>
    (await as(who, request(app).get(`/api/store/subscriptions/${id}/billing`))).body.data.nextCharge.amount as number;
  /** Each paid period's charge with its invoice's tax, oldest first. */
  const periods = (subscriptionId: string) =>
    db()('subscriptionPeriods as sp')
      .join('merchantCharges as c', 'c.id', 'sp.merchantChargeId')
      .join('invoices as i', 'i.id', 'sp.invoiceId')
      .where('sp.subscriptionId', subscriptionId)
      .orderBy('sp.periodStart')
      .select(
        'c.amount',
        'c.fee',
        'c.taxAmount',
        'c.taxInclusive',
        'c.metadata',
        'sp.discountAmount',
        'sp.couponId',
        'i.taxAmount as invoiceTax',
        'i.taxRateBp as invoiceRate',
        'i.taxReverseCharge as reverseCharge',
      );
  const coupon = async (percentageDiscount: number, duration: object) => {
    const made = await createCoupon(db(), { percentageDiscount });
    await db()('coupons').where({ id: made.id }).update(duration);
    return made;
  };

  it('takes a coupon off the first two periods, then bills the full price, and counts one redemption', async () => {
    const learner = await signedIn(db());
    const half = await coupon(0.5, { duration: 'repeating', durationPeriods: 2 });
    const id = await subscribe(learner, { productId: monthly.id, coupon: half.code!.toLowerCase() });
    expect(await nextCharge(learner, id)).toBe(1450);
    await renew(id);
    expect(await nextCharge(learner, id)).toBe(2900);
    await renew(id);
    const paid = await periods(id);
    expect(paid.map((p) => [p.amount, p.discountAmount, p.couponId])).toEqual([
      [1450, 1450, half.id],
      [1450, 1450, half.id],
      [2900, 0, null],
    ]);
    expect(paid.map((p) => p.fee)).toEqual([1450, 1450, 2900].map(testProviderFee));
    expect(paid[0]!.metadata).toMatchObject({ subscriptionId: id, couponId: half.id });
    expect(await db()('coupons').where({ id: half.id }).first('usedCount')).toEqual({ usedCount: 1 });
    expect(await db()('subscriptions').where({ id }).first('couponId', 'quantity')).toEqual({
      couponId: half.id,
      quantity: 1,
    });
  });

  it('keeps a coupon for ever on every period, and a one-time coupon on the first period only', async () => {
    const forever = await coupon(0.25, { duration: 'forever' });
    const learner = await signedIn(db());
    const id = await subscribe(learner, { productId: monthly.id, coupon: forever.code });
    await renew(id, 'failed');
    await renew(id);
    await renew(id);
    expect((await periods(id)).map((p) => p.amount)).toEqual([2175, 2175, 2175]);

    const once = await createCoupon(db(), { percentageDiscount: 0.2 });
    const other = await signedIn(db());
    const onceId = await subscribe(other, { productId: monthly.id, coupon: once.code });
    await renew(onceId);
    expect((await periods(onceId)).map((p) => p.amount)).toEqual([2320, 2900]);
  });

  it('prices a single seat at the regional price for ever when asked, and the full price when not', async () => {
    const bp = pppForCountry('IN')!;
    expect(bp).toBeGreaterThan(0);
    const regional = await signedIn(db());
    const id = await subscribe(regional, { productId: monthly.id, ppp: true }, { 'cf-ipcountry': 'IN' });
    await renew(id);
    const price = 2900 - percentOf(2900, bp);
    expect(await nextCharge(regional, id)).toBe(price);
    expect((await periods(id)).map((p) => [p.amount, p.discountAmount])).toEqual([
      [price, 0],
      [price, 0],
    ]);
    const full = await signedIn(db());
    const fullId = await subscribe(full, { productId: monthly.id }, { 'cf-ipcountry': 'IN' });
    expect((await periods(fullId)).map((p) => p.amount)).toEqual([2900]);
  });

  it("taxes every period's invoice: inside a euro price, on top of a dollar or yen one, reverse-charged to an EU business", async () => {
    const euro = await membership('Euro pass', 1190, 'eur');
    const german = await signedIn(db());
    const euroId = await subscribe(german, { productId: euro.id }, { 'cf-ipcountry': 'DE' });
    await renew(euroId);
    const inside = taxInside(1190, 1900);
    expect((await periods(euroId)).map((p) => [p.amount, p.taxAmount, p.taxInclusive, p.invoiceTax])).toEqual([
      [1190, inside, true, inside],
      [1190, inside, true, inside],
    ]);

    // Washington: 6.5 % added to each period, after the coupon.
    const tenth = await coupon(0.1, { duration: 'once' });
    const seattle = await signedIn(db());
    const waId = await subscribe(
      seattle,
      { productId: monthly.id, coupon: tenth.code },
      { 'cf-ipcountry': 'US', 'cf-region': 'WA' },
    );
    expect(await nextCharge(seattle, waId)).toBe(2900 + taxOnTop(2900, 650));
    await renew(waId);
    const onTop = (amount: number) => [amount + taxOnTop(amount, 650), taxOnTop(amount, 650), false, 650];
    expect((await periods(waId)).map((p) => [p.amount, p.taxAmount, p.taxInclusive, p.invoiceRate])).toEqual([
      onTop(2610),
      onTop(2900),
    ]);

    // Yen are whole: 20 % on ¥3,000 is ¥600.
    const yen = await membership('Yen pass', 3000, 'jpy');
    const londoner = await signedIn(db());
    const yenId = await subscribe(londoner, { productId: yen.id }, { 'cf-ipcountry': 'GB' });
    await renew(yenId);
    expect((await periods(yenId)).map((p) => [p.amount, p.taxAmount, p.invoiceTax])).toEqual([
      [3600, 600, 600],
      [3600, 600, 600],
    ]);

    const business = await signedIn(db());
    const frId = await subscribe(
      business,
      { productId: euro.id, billing: { country: 'FR', vatId: 'FR12345678901' } },
      { 'cf-ipcountry': 'FR' },
    );
    await renew(frId);
    expect((await periods(frId)).map((p) => [p.amount, p.taxAmount, p.reverseCharge])).toEqual([
      [1190, 0, true],
      [1190, 0, true],
    ]);
  });

  it("lets a team membership's seats be taken through its invite link while it lasts, one each, no more than bought", async () => {
    const owner = await signedIn(db());
    const course = await createCourse(
      db(),
      {
        title: 'Team course',
        modules: [{ title: 'M', sections: [{ title: 'S', lessons: [{ title: 'L', body: 'x' }] }] }],
      },
      { products: [monthly] },
    );
    const id = await subscribe(owner, { productId: monthly.id, quantity: 3 });
    expect((await periods(id)).map((p) => p.amount)).toEqual([8700]);
    const seats = await as(owner, request(app).get(`/api/store/subscriptions/${id}/seats`));
    expect(seats.body.data).toMatchObject({ quantity: 3, free: 2, holders: [] });
    const code = seats.body.data.inviteCode as string;
    const opens = async (who: SignedIn) =>
      (await as(who, request(app).get(`/api/store/courses/${course.course.fields.slug}`))).body.access.full as boolean;

    const [a, b, c] = [await signedIn(db()), await signedIn(db()), await signedIn(db())];
    expect(await opens(a)).toBe(false);
    const taken = await Promise.all([a, b, c].map((who) => store(who, `/subscription-seats/${code}`)));
    expect(taken.map((r) => r.status).sort()).toEqual([200, 200, 409]);
    expect(taken.find((r) => r.status === 409)!.body.code).toBe('coupon-used-up');
    const holders = taken.map((r, i) => (r.status === 200 ? [a, b, c][i]! : null)).filter((w) => w !== null);
    expect(await opens(holders[0]!)).toBe(true);
    expect((await store(holders[0]!, `/subscription-seats/${code}`)).status).toBe(200);
    expect((await store(owner, `/subscription-seats/${code}`)).body.code).toBe('already-subscribed');
    expect((await as(a, request(app).get(`/api/store/subscriptions/${id}/seats`))).status).toBe(404);
    expect((await store(a, '/subscription-seats/not-a-code-at-all')).body.code).toBe('coupon-not-found');

    // Cancelled and past its period, the seats close with it.
    await store(owner, `/subscriptions/${id}/cancel`);
    const end = (await db()('subscriptions').where({ id }).first('currentPeriodEnd')) as { currentPeriodEnd: Date };
    const before = clock.now();
    clock.set(new Date(end.currentPeriodEnd.getTime() + 1000));
    expect(await opens(holders[0]!)).toBe(false);
    clock.set(before);
  });

  it('adds seats to a team membership, the rest of the period billed at once, every seat from the next period', async () => {
    const owner = await signedIn(db());
    const half = await coupon(0.5, { duration: 'forever' });
    const id = await subscribe(owner, { productId: monthly.id, quantity: 2, coupon: half.code });
    const period = (await db()('subscriptions').where({ id }).first('currentPeriodStart', 'currentPeriodEnd')) as {
      currentPeriodStart: Date;
      currentPeriodEnd: Date;
    };
    const before = clock.now();
    clock.advance(10 * 86_400_000);
    const added = await store(owner, `/subscriptions/${id}/seats`, { quantity: 2 });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.data).toMatchObject({ quantity: 4, free: 3 });
    const span = { start: new Date(period.currentPeriodStart), end: new Date(period.currentPeriodEnd) };
    const due = unusedCredit(4 * 2900, span, clock.now()) - unusedCredit(2 * 2900, span, clock.now());
    await renew(id);
    const paid = await periods(id);
    expect(paid.map((p) => [p.amount, p.discountAmount])).toEqual([
      [2900, 2900],
      [due - percentOf(due, 5000), percentOf(due, 5000)],
      [5800, 5800],
    ]);
    expect(await db()('subscriptions').where({ id }).first('quantity', 'status')).toEqual({
      quantity: 4,
      status: 'active',
    });
    // Not the subscriber's, or not a whole number of seats: refused.
    const stranger = await signedIn(db());
    expect((await store(stranger, `/subscriptions/${id}/seats`, { quantity: 1 })).status).toBe(404);
    expect((await store(owner, `/subscriptions/${id}/seats`, { quantity: 1.5 })).body.code).toBe('validation-failed');
    expect((await store(owner, `/subscriptions/${id}/seats`, { quantity: 97 })).body.code).toBe('validation-failed');
    clock.set(before);
  });

  it("lets the console set a coupon's duration, and refuses a number of periods where it has no meaning", async () => {
    const admin = await signedIn(db(), ['admin']);
    const write = (method: 'post' | 'put', path: string, body: object) =>
      as(admin, request(app)[method](`/api/admin/coupons${path}`)).send(body);
    const made = await write('post', '', {
      code: 'THREEMONTHS',
      percentageDiscount: 0.3,
      duration: 'repeating',
      durationPeriods: 3,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ duration: 'repeating', durationPeriods: 3 });
    const plain = await write('post', '', { code: 'PLAINCODE', percentageDiscount: 0.1 });
    expect(plain.body).toMatchObject({ duration: 'once', durationPeriods: null });
    const missing = await write('post', '', { code: 'NOPERIODS', percentageDiscount: 0.1, duration: 'repeating' });
    expect([missing.status, Object.keys(missing.body.errors ?? {})]).toEqual([400, ['durationPeriods']]);
    const stray = await write('put', `/${plain.body.id}`, { durationPeriods: 2 });
    expect([stray.status, Object.keys(stray.body.errors ?? {})]).toEqual([400, ['durationPeriods']]);
    const forever = await write('put', `/${made.body.id}`, { duration: 'forever', durationPeriods: null });
    expect(forever.body).toMatchObject({ duration: 'forever', durationPeriods: null });
    const bad = await write('put', `/${made.body.id}`, { duration: 'weekly' });
    expect([bad.status, bad.body.code]).toEqual([400, 'validation-failed']);

    const learner = await signedIn(db());
    const id = await subscribe(learner, { productId: monthly.id, coupon: 'threemonths' });
    await renew(id);
    expect((await periods(id)).map((p) => p.amount)).toEqual([2030, 2030]);
  });

  it('refuses bad input with its code and writes nothing', async () => {
    const learner = await signedIn(db());
    const refused = async (body: object, code: string, status: number, from?: Record<string, string>) => {
      const answer = await store(learner, '/subscriptions', body, from);
      expect([answer.status, answer.body.code]).toEqual([status, code]);
    };
    await refused({ productId: monthly.id, quantity: 0 }, 'validation-failed', 400);
    await refused({ productId: monthly.id, quantity: 101 }, 'validation-failed', 400);
    await refused({ productId: monthly.id, coupon: 'NO-SUCH-CODE' }, 'coupon-not-found', 400);
    const free = await coupon(1, { duration: 'forever' });
    await refused({ productId: monthly.id, coupon: free.code }, 'coupon-not-for-membership', 400);
    const spent = await createCoupon(db(), { maxUses: 1 });
    await db()('coupons').where({ id: spent.id }).update({ usedCount: 1 });
    await refused({ productId: monthly.id, coupon: spent.code }, 'coupon-used-up', 409);
    await refused({ productId: monthly.id, billing: { country: 'US', region: 'ZZ' } }, 'billing-region-invalid', 422, {
      'cf-ipcountry': 'US',
    });
    await refused({ productId: monthly.id, billing: { country: 'FR', vatId: 'DE123' } }, 'vat-id-invalid', 422);
    expect(await db()('testProviderSubscriptions').whereRaw(`metadata->>'userId' = ?`, [learner.user.id])).toEqual([]);
    const add = await store(learner, `/subscriptions/${crypto.randomUUID()}/seats`, { quantity: 1 });
    expect(add.status).toBe(404);
    const zero = await store(learner, `/subscriptions/${crypto.randomUUID()}/seats`, { quantity: 0 });
    expect([zero.status, zero.body.code]).toEqual([400, 'validation-failed']);
  });

  it('keeps the regional price through a switch to yearly: quoted and charged alike, and billed each year after', async () => {
    const bp = pppForCountry('IN')!;
    const both = await createProduct(db(), {
      name: 'Regional monthly or yearly',
      productType: 'membership',
      billingInterval: 'month',
      unitAmount: 3000,
      yearlyAmount: 30000,
    });
    const learner = await signedIn(db());
    const id = await subscribe(learner, { productId: both.id, ppp: true }, { 'cf-ipcountry': 'IN' });
    clock.advance(3 * 86_400_000);
    const billing = (await as(learner, request(app).get(`/api/store/subscriptions/${id}/billing`))).body.data;
    const yearly = 30000 - percentOf(30000, bp);
    expect(billing.switch).toMatchObject({ interval: 'year', amount: yearly });
    const switched = await as(learner, request(app).post(`/api/store/subscriptions/${id}/switch`)).send({
      interval: 'year',
    });
    expect(switched.status, JSON.stringify(switched.body)).toBe(200);
    expect((await periods(id)).map((p) => p.amount)).toEqual([3000 - percentOf(3000, bp), billing.switch.dueNow]);
    expect(await db()('testProviderSubscriptions').where({ reference: id }).first('amount')).toEqual({
      amount: yearly,
    });
    expect(await nextCharge(learner, id)).toBe(yearly);
  });

  it('emails a failed renewal with what the period is charged: the regional price, not the list price', async () => {
    const bp = pppForCountry('IN')!;
    const learner = await signedIn(db());
    const id = await subscribe(learner, { productId: monthly.id, ppp: true }, { 'cf-ipcountry': 'IN' });
    expect((await renew(id, 'failed')).status).toBe(200);
    const email = await db()('outboxEmails')
      .where({ toAddress: learner.user.email, kind: 'subscription-payment-failed' })
      .first('textBody');
    const price = ((2900 - percentOf(2900, bp)) / 100).toFixed(2);
    expect(email.textBody).toContain(`$${price}`);
    expect(email.textBody).not.toContain('$29.00');
  });
});
