import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import type { Product } from '../../api/src/catalog/models';
import { WAITLIST_OPENING } from '../../api/src/catalog/waitlist/waitlist';
import { OutboxEmail } from '../support/models';
import { createServices, type Services } from '../../api/src/services';
import { createProduct, createPurchase, createUser } from '../../seeds/factories';
import { deliveredEmails, testConfig, testDeps } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { boughtWithTestProvider } from '../support/checkout';
import { manualClock, onTheHour } from '../support/clock';
import { useTestDatabase } from '../support/db';

const HOUR = 60 * 60 * 1000;

describe('waitlists (issue 17, point 2)', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let services: Services;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let support: SignedIn;
  let counter = 0;
  const address = (what: string) => `${what}-${++counter}@example.com`;

  beforeAll(async () => {
    const deps = testDeps(db());
    services = createServices(deps);
    app = createApp(deps, { services }).callback();
    support = await signedIn(db(), ['support']);
  });

  const join = (productId: string, body: object, on = app) =>
    request(on).post(`/api/store/products/${productId}/waitlist`).send(body);

  /** A product nobody can buy: one seat, taken. */
  async function soldOut(name: string, seats = 1): Promise<Product> {
    const product = await createProduct(db(), { name, quantityAvailable: seats });
    for (let i = 0; i < seats; i++) await createPurchase(db(), { user: await createUser(db()), product });
    return product;
  }

  const waitlistEmails = (productName: string) =>
    OutboxEmail.query(db()).where('kind', 'waitlist-open').where('subject', 'like', `%${productName}%`);

  /** What each of these addresses was sent about `productName`. */
  async function sentTo(productName: string): Promise<string[]> {
    return (await waitlistEmails(productName)).map((e) => e.toAddress).sort();
  }

  /** The sweep from `count` replicas at once, then the openings' jobs they queued, run to the end. */
  async function sweepAndSend(count = 1, replicas: Services[] = [services]) {
    const all = Array.from({ length: count }, (_, i) => replicas[i % replicas.length]!);
    await Promise.all(all.map((s) => s.waitlist.sweep()));
    await Promise.all(all.map((s) => s.jobs.runDue(WAITLIST_OPENING)));
    await services.outbox.flush();
  }

  describe('joining', () => {
    it('puts an address on the list once: a second join says so, in any letter case', async () => {
      const product = await soldOut('Joinable Sold Out');
      const email = address('Ada');
      const first = await join(product.id, { email: `  ${email.toUpperCase()} ` });
      expect(first.status).toBe(201);
      expect(first.body).toEqual({ status: 'joined', productId: product.id, email: email.toLowerCase() });
      const again = await join(product.id, { email: email.toLowerCase() });
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ status: 'already-joined', productId: product.id, email: email.toLowerCase() });
      expect(await db()('waitlistEntries').where({ productId: product.id })).toHaveLength(1);
    });

    it('answers the same whether or not the address has an account', async () => {
      const product = await soldOut('Account Blind');
      const member = await createUser(db(), { email: address('member') });
      const stranger = address('stranger');
      const known = await join(product.id, { email: member.email });
      const unknown = await join(product.id, { email: stranger });
      expect([known.status, unknown.status]).toEqual([201, 201]);
      expect(Object.keys(known.body).sort()).toEqual(Object.keys(unknown.body).sort());
      expect(known.body.status).toBe(unknown.body.status);
      expect(await db()('users').where({ email: stranger }).first()).toBeUndefined();
    });

    it.each([
      ['no email', {}, 'email'],
      ['an address that is no address', { email: 'not-an-address' }, 'email'],
      ['an address too long', { email: `${'a'.repeat(250)}@example.com` }, 'email'],
      ['an unknown field', { email: 'ok@example.com', admin: true }, '_'],
    ])('refuses %s with the field named, writing nothing', async (_what, body, field) => {
      const product = await soldOut(`Validated ${field} ${counter++}`);
      const response = await join(product.id, body);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('validation-failed');
      expect(Object.keys(response.body.errors)).toEqual([field]);
      expect(await db()('waitlistEntries').where({ productId: product.id })).toHaveLength(0);
    });

    it('refuses a malformed id, an unknown or archived product and one that is on sale', async () => {
      expect((await join('nope', { email: address('x') })).body.errors).toEqual({ id: 'must be an id' });
      const unknown = await join('00000000-0000-4000-8000-000000000000', { email: address('x') });
      expect([unknown.status, unknown.body.code]).toEqual([404, 'product-not-found']);
      const archived = await createProduct(db(), { name: 'Archived One', status: 'archived' });
      expect((await join(archived.id, { email: address('x') })).status).toBe(404);
      const onSale = await createProduct(db(), { name: 'On Sale Now', quantityAvailable: 10 });
      const refused = await join(onSale.id, { email: address('x') });
      expect([refused.status, refused.body.code]).toEqual([409, 'product-on-sale']);
      expect(await db()('waitlistEntries').whereIn('productId', [archived.id, onSale.id])).toHaveLength(0);
    });

    it('takes sign-ups for a product not on sale yet, not open yet, or closed', async () => {
      const unpriced = await createProduct(db(), { name: 'Priced Later' });
      await db()('prices').where({ productId: unpriced.id }).update({ status: 'archived' });
      const later = await createProduct(db(), { name: 'Opens Later', enrollmentOpensAt: new Date(Date.now() + HOUR) });
      const closed = await createProduct(db(), {
        name: 'Closed Already',
        enrollmentOpensAt: new Date(Date.now() - 2 * HOUR),
        enrollmentClosesAt: new Date(Date.now() - HOUR),
      });
      for (const product of [unpriced, later, closed])
        expect((await join(product.id, { email: address('early') })).status).toBe(201);
      const reasons = await db()('waitlistProducts')
        .whereIn('productId', [unpriced.id, later.id, closed.id])
        .select('productId', 'closedReason');
      expect(Object.fromEntries(reasons.map((r) => [r.productId, r.closedReason]))).toEqual({
        [unpriced.id]: 'not-on-sale',
        [later.id]: 'not-open',
        [closed.id]: 'closed',
      });
    });

    it('is rate limited per address and per network, with Retry-After', async () => {
      // A day back: windows of their own, apart from this file's other joins (counted on the real clock).
      const clock = manualClock(new Date(onTheHour().getTime() - 24 * HOUR + 60_000));
      const limited = createApp(
        testDeps(db(), { clock, config: testConfig({ COMMERCE_LIMIT_SCALE: '1' }) }),
      ).callback();
      const products = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => soldOut(`Limited ${i}`)));
      const email = address('eager');
      for (const product of products.slice(0, 5)) expect((await join(product.id, { email }, limited)).status).toBe(201);
      const sixth = await join(products[5]!.id, { email }, limited);
      expect([sixth.status, sixth.body.code]).toEqual([429, 'rate-limited']);
      expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
      expect(await db()('waitlistEntries').where({ productId: products[5]!.id })).toHaveLength(0);

      // Per network: 20 joins in ten minutes from one address, whatever the emails.
      const statuses: number[] = [];
      for (let i = 0; i < 16; i++)
        statuses.push((await join(products[5]!.id, { email: address('many') }, limited)).status);
      // 5 counted already from this network above, plus the refused sixth: 14 more pass, then 429.
      expect(statuses.filter((s) => s === 201)).toHaveLength(14);
      expect(statuses.slice(14)).toEqual([429, 429]);
    });
  });

  describe('the console list', () => {
    it('lists entries for admin and support, filtered by product, never the leave token; learners get 403', async () => {
      const product = await soldOut('Listed Sold Out');
      const emails = [address('one'), address('two')];
      for (const email of emails) await join(product.id, { email });
      const admin = await signedIn(db(), ['admin']);
      for (const staff of [admin, support]) {
        const list = await as(staff, request(app).get('/api/admin/waitlist-entries')).query({
          filter: JSON.stringify({ productId: product.id }),
          sort: JSON.stringify(['createdAt', 'ASC']),
        });
        expect(list.status).toBe(200);
        expect(list.headers['content-range']).toMatch(/ 0-1\/2$/);
        expect(list.body.map((r: { email: string }) => r.email)).toEqual(emails);
        expect(Object.keys(list.body[0]).sort()).toEqual(
          ['createdAt', 'email', 'id', 'notifiedAt', 'notifiedOpening', 'outboxEmailId', 'productId'].sort(),
        );
      }
      const learner = await signedIn(db(), ['learner']);
      expect((await as(learner, request(app).get('/api/admin/waitlist-entries'))).status).toBe(403);
      expect((await request(app).get('/api/admin/waitlist-entries')).status).toBe(401);
    });
  });

  describe('emails when it opens', () => {
    it('emails everyone waiting once when the capacity is raised, however many sweeps and replicas race', async () => {
      const product = await soldOut('Raised Capacity');
      const waiting = [address('w1'), address('w2'), address('w3')];
      for (const email of waiting) await join(product.id, { email });

      await sweepAndSend(2);
      expect(await sentTo('Raised Capacity')).toEqual([]);

      const raised = await as(support, request(app).put(`/api/admin/products/${product.id}`)).send({
        quantityAvailable: 3,
      });
      expect(raised.status).toBe(200);
      const replica = createServices(testDeps(db()));
      await sweepAndSend(4, [services, replica]);
      await sweepAndSend(2, [services, replica]);
      expect(await sentTo('Raised Capacity')).toEqual(waiting.sort());

      const [email] = await waitlistEmails('Raised Capacity').where('toAddress', waiting[0]!);
      expect(email!.subject).toBe('Seats are available again for Raised Capacity');
      expect(email!.textBody).toContain('/products/raised-capacity\n');
      expect(email!.textBody).toContain('2 seats are left');
      // The leave link's token is the email's secret: stored redacted, sent whole.
      expect(email!.textBody).toMatch(/\/waitlist\/leave\?entry=[0-9a-f-]{36}&token=\[redacted\]/);
      expect(deliveredEmails.get(email!.id)?.text).toMatch(/\/waitlist\/leave\?entry=[0-9a-f-]{36}&token=[\w-]{43}\n/);
      const entries = await db()('waitlistEntries').where({ productId: product.id });
      expect(entries.every((e) => e.notifiedOpening === 1 && e.notifiedAt !== null && e.outboxEmailId)).toBe(true);
    });

    it('emails when a refund frees a seat, and again (once) at the next opening', async () => {
      const product = await createProduct(db(), { name: 'Refund Frees', quantityAvailable: 1 });
      const buyer = await createUser(db());
      const purchaseId = await boughtWithTestProvider(services, db(), { buyer, productId: product.id });
      const email = address('patient');
      expect((await join(product.id, { email })).status).toBe(201);
      await sweepAndSend();
      expect(await sentTo('Refund Frees')).toEqual([]);

      const refund = await as(support, request(app).post(`/api/admin/purchases/${purchaseId}/refund`)).send({
        reasonCode: 'customer-request',
        reason: 'asked',
      });
      expect(refund.status).toBe(200);
      await sweepAndSend(3);
      expect(await sentTo('Refund Frees')).toEqual([email]);

      // Sold out again: noted, nobody emailed. Then a seat more: the second opening, one more email.
      await createPurchase(db(), { user: await createUser(db()), product });
      await sweepAndSend(2);
      expect(await db()('waitlistProducts').where({ productId: product.id }).first()).toMatchObject({
        open: false,
        opening: 1,
        closedReason: 'sold-out',
      });
      expect(await sentTo('Refund Frees')).toEqual([email]);
      await db()('products').where({ id: product.id }).update({ quantityAvailable: 2 });
      await sweepAndSend(2);
      expect(await sentTo('Refund Frees')).toEqual([email, email]);
    });

    it('emails when an enrollment window opens by time, once, with two sweeps racing', async () => {
      const opensAt = new Date(Date.now() + 2 * HOUR);
      const clock = manualClock(new Date(opensAt.getTime() - HOUR));
      const timed = createServices(testDeps(db(), { clock }));
      const timedApp = createApp(testDeps(db(), { clock }), { services: timed }).callback();
      const product = await createProduct(db(), { name: 'Window Opens', enrollmentOpensAt: opensAt });
      const waiting = [address('early1'), address('early2')];
      for (const email of waiting) expect((await join(product.id, { email }, timedApp)).status).toBe(201);

      await sweepAndSend(2, [timed]);
      expect(await sentTo('Window Opens')).toEqual([]);

      clock.set(new Date(opensAt.getTime() + 1000));
      const replica = createServices(testDeps(db(), { clock }));
      await sweepAndSend(2, [timed, replica]);
      await sweepAndSend(2, [timed, replica]);
      expect(await sentTo('Window Opens')).toEqual(waiting.sort());
      const [email] = await waitlistEmails('Window Opens');
      expect(email!.subject).toBe('Enrollment for Window Opens is open');
    });

    it('emails nobody about a product still closed, whatever else opens', async () => {
      const closed = await soldOut('Still Closed');
      const later = await createProduct(db(), {
        name: 'Still Not Open',
        enrollmentOpensAt: new Date(Date.now() + 24 * HOUR),
      });
      await join(closed.id, { email: address('nope1') });
      await join(later.id, { email: address('nope2') });
      const other = await soldOut('Opens Meanwhile');
      await join(other.id, { email: address('yes') });
      await db()('products').where({ id: other.id }).update({ quantityAvailable: 5 });
      await sweepAndSend(3);
      expect(await sentTo('Opens Meanwhile')).toHaveLength(1);
      expect(await sentTo('Still Closed')).toEqual([]);
      expect(await sentTo('Still Not Open')).toEqual([]);
      expect(
        await db()('waitlistEntries').whereIn('productId', [closed.id, later.id]).whereNotNull('notifiedAt'),
      ).toEqual([]);
    });

    it('an opening job that finds the product closed again emails nobody; the next opening does', async () => {
      const product = await soldOut('Closes Before Its Job');
      const email = address('late');
      await join(product.id, { email });
      // The opening counted and its job queued (as a sweep does, but not woken here), then the seat sells at once.
      await db()('products').where({ id: product.id }).update({ quantityAvailable: 2 });
      await db()('waitlistProducts').where({ productId: product.id }).update({ open: true, opening: 1 });
      await services.jobs.add(db(), WAITLIST_OPENING, { productId: product.id, opening: 1 });
      await createPurchase(db(), { user: await createUser(db()), product });
      await services.jobs.runDue(WAITLIST_OPENING);
      expect(await sentTo('Closes Before Its Job')).toEqual([]);

      await db()('products').where({ id: product.id }).update({ quantityAvailable: 3 });
      await sweepAndSend(2);
      expect(await sentTo('Closes Before Its Job')).toEqual([email]);
    });

    it('two opening jobs of one product running at once email each person once', async () => {
      const product = await soldOut('Racing Jobs');
      const waiting = Array.from({ length: 120 }, () => address('crowd'));
      await db()('waitlistProducts').insert({ productId: product.id, closedReason: 'sold-out' });
      await db()('waitlistEntries').insert(waiting.map((email) => ({ productId: product.id, email })));
      await db()('products').where({ id: product.id }).update({ quantityAvailable: 500 });
      await db()('waitlistProducts').where({ productId: product.id }).update({ open: true, opening: 1 });
      const replica = createServices(testDeps(db()));
      const counts = await Promise.all([
        services.waitlist.notifyOpening(product.id),
        replica.waitlist.notifyOpening(product.id),
        services.waitlist.notifyOpening(product.id),
      ]);
      expect(counts.reduce((a, b) => a + b, 0)).toBe(120);
      expect(await sentTo('Racing Jobs')).toEqual(waiting.sort());
    });

    it('takes buyers off the list instead of emailing them', async () => {
      const product = await soldOut('Bought Meanwhile');
      const buyer = await createUser(db(), { email: address('buyer') });
      await join(product.id, { email: buyer.email });
      await db()('products').where({ id: product.id }).update({ quantityAvailable: 3 });
      await createPurchase(db(), { user: buyer, product });
      await sweepAndSend();
      expect(await sentTo('Bought Meanwhile')).toEqual([]);
      expect(await db()('waitlistEntries').where({ productId: product.id })).toEqual([]);
    });
  });

  describe('leaving', () => {
    it('leaves with the link of the last email; a wrong token is refused, a second leave says not on the list', async () => {
      const product = await soldOut('Leave Me');
      const email = address('leaver');
      await join(product.id, { email });
      await db()('products').where({ id: product.id }).update({ quantityAvailable: 2 });
      await sweepAndSend();
      const [sent] = await waitlistEmails('Leave Me');
      const link = new URL(/(http\S+\/waitlist\/leave\S+)/.exec(deliveredEmails.get(sent!.id)!.text)![1]!);
      const entry = link.searchParams.get('entry')!;
      const token = link.searchParams.get('token')!;

      const wrong = await request(app)
        .post('/api/store/waitlist/leave')
        .send({ entry, token: `${token}x` });
      expect([wrong.status, wrong.body.code]).toEqual([400, 'waitlist-link-invalid']);
      const bad = await request(app).post('/api/store/waitlist/leave').send({ entry: 'x', token });
      expect(bad.body.errors).toEqual({ entry: 'must be the entry id from the link' });

      const left = await request(app).post('/api/store/waitlist/leave').send({ entry, token });
      expect(left.status).toBe(200);
      expect(left.body).toEqual({
        status: 'left',
        product: { id: product.id, name: 'Leave Me', slug: product.slug },
      });
      expect(await db()('waitlistEntries').where({ id: entry }).first()).toBeUndefined();
      const again = await request(app).post('/api/store/waitlist/leave').send({ entry, token });
      expect(again.body).toEqual({ status: 'not-on-list', product: null });
    });
  });
});
