import { parse as parseCsv } from 'csv-parse/sync';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { AuditLog, Purchase, type Product } from '../support/models';
import { OutboxEmail } from '../../api/src/mail/models';
import { createServices, type Services } from '../../api/src/services';
import { createProduct, createResource, createUser } from '../../seeds/factories';
import { testDeps } from '../support/app';
import { as, signedIn, signedInByEmail, type SignedIn } from '../support/auth';
import { boughtWithTestProvider } from '../support/checkout';
import { useTestDatabase } from '../support/db';
import { csvRows, listExport } from '../support/csv';
import { lastEmailTo, tokenFrom } from '../support/outbox';

/**
 * Staff give one person a course from their page (a comp): a Valid purchase of kind comp, nothing paid and no charge,
 * with a reason, audited, emailed the receipt's way in; never revenue in the ledger or Finance. And the person's
 * lifetime totals, summed from the charges Finance lists.
 */
describe('giving a person a course, and their lifetime totals', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let services: Services;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let course: Product;
  let courseSlug: string;
  let support: SignedIn;
  let finance: SignedIn;
  const today = new Date().toISOString().slice(0, 10);

  beforeAll(async () => {
    const deps = testDeps(db());
    services = createServices(deps);
    app = createApp(deps, { services }).callback();
    course = await createProduct(db(), { name: 'Given Course', unitAmount: 4_900 });
    const resource = await createResource(db(), 'course', { title: 'Given Course' });
    await db()('productContentResources').insert({ productId: course.id, resourceId: resource.id, position: 0 });
    courseSlug = resource.fields.slug!;
    support = await signedIn(db(), ['support']);
    finance = await signedIn(db(), ['finance']);
  });

  const give = (who: SignedIn | undefined, userId: string, body: Record<string, unknown>) =>
    as(who, request(app).post(`/api/admin/users/${userId}/comps`)).send(body);
  const totalsOf = (who: SignedIn, userId: string) =>
    as(who, request(app).get(`/api/admin/users/${userId}/purchase-totals`));
  const summary = async () =>
    (await as(finance, request(app).get('/api/admin/finance/summary').query({ from: today, to: today }))).body;
  const chargesCsv = async () =>
    (
      await as(finance, request(app).get('/api/admin/exports/charges.csv').query({ from: today, to: today })).buffer(
        true,
      )
    ).text;
  const ledger = async () =>
    (await db()('splitLines').select(db().raw('count(*)::int AS n, COALESCE(sum(amount), 0)::int AS cents')))[0];
  const consume = (email: string, token: string) =>
    request(app).post('/api/store/auth/email/consume').send({ email, token });

  it('gives the course: Valid, kind comp, nothing paid, no charge; emailed a way into the course; audited', async () => {
    const learner = await createUser(db(), { email: 'given.learner@example.com' });
    const answer = await give(support, learner.id, { productId: course.id, reason: '  Speaker at our conference ' });
    expect(answer.status).toBe(201);
    expect(answer.body.data).toMatchObject({
      userId: learner.id,
      productId: course.id,
      productName: 'Given Course',
      emailedTo: learner.email,
    });
    const purchase = await Purchase.query(db()).findById(answer.body.data.purchaseId);
    expect(purchase).toMatchObject({
      userId: learner.id,
      status: 'Valid',
      kind: 'comp',
      totalAmount: 0,
      currency: 'usd',
      merchantChargeId: null,
      couponId: null,
      compReason: 'Speaker at our conference',
      compedById: support.user.id,
    });
    // No offer to give it away: a comp is the person's own.
    expect(await db()('purchaseUserTransfers').where({ purchaseId: purchase!.id })).toHaveLength(0);

    const audit = await AuditLog.query(db()).where({ action: 'purchase.comped', recordId: purchase!.id });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actorId: support.user.id,
      resource: 'purchases',
      after: { reason: 'Speaker at our conference', totalAmount: 0, kind: 'comp' },
    });

    // The usual way in: a sign-in link that lands on the course, which is then theirs.
    const email = await lastEmailTo(db(), learner.email);
    expect(email).toMatchObject({ kind: 'course-given', subject: 'Given Course is yours' });
    expect(email.textBody).toContain('nothing to pay');
    const entered = await consume(learner.email, tokenFrom(email.link).token);
    expect(entered.status).toBe(200);
    expect(entered.body.redirectTo).toBe(`/courses/${courseSlug}`);
    const me = await signedInByEmail(db(), learner.email);
    const owned = await as(me, request(app).get('/api/store/owned-products'));
    expect(owned.status).toBe(200);
    expect(JSON.stringify(owned.body)).toContain(course.id);

    // The person's timeline says it was given, with no money, and who gave it and why.
    const timeline = await as(support, request(app).get(`/api/admin/users/${learner.id}/timeline`));
    const lines = timeline.body.data as { kind: string; summary: string; detail: string | null; by: string | null }[];
    expect(lines.find((l) => l.kind === 'purchase')).toMatchObject({
      summary: 'Was given Given Course (comp: nothing paid, no revenue)',
      detail: 'Status: Valid · Reason: Speaker at our conference',
    });
    expect(lines.find((l) => l.kind === 'staff-action')).toMatchObject({
      summary: 'Course given',
      detail: 'Reason: Speaker at our conference',
      by: support.user.email,
    });
    expect(lines.some((l) => l.kind === 'payment')).toBe(false);
  });

  it('refuses, with its code and nothing written, an owner, an archived or draft product, a blocked person and bad input', async () => {
    const buyer = await createUser(db(), { email: 'owner.already@example.com' });
    await boughtWithTestProvider(services, db(), { buyer, productId: course.id });
    const archived = await createProduct(db(), { name: 'Old Course', status: 'archived' });
    const draft = await createProduct(db(), { name: 'Next Course', status: 'draft' });
    const someone = await createUser(db(), { email: 'someone.else@example.com' });
    const blocked = await createUser(db(), { email: 'blocked.person@example.com' });
    await services.blocks.block(blocked.id, 'Chargeback fraud', { actor: support.user, requestId: null });
    const counts = async () => ({
      purchases: await Purchase.query(db()).resultSize(),
      emails: await OutboxEmail.query(db()).resultSize(),
      audits: await AuditLog.query(db()).where({ action: 'purchase.comped' }).resultSize(),
    });
    const before = await counts();
    const reason = 'Make good on a lost order';

    const refusals: [SignedIn | undefined, string, Record<string, unknown>, number, string][] = [
      [support, buyer.id, { productId: course.id, reason }, 409, 'already-purchased'],
      [support, someone.id, { productId: archived.id, reason }, 409, 'product-archived'],
      [support, someone.id, { productId: draft.id, reason }, 409, 'product-draft'],
      [support, blocked.id, { productId: course.id, reason }, 409, 'person-blocked'],
      [support, someone.id, { productId: '00000000-0000-4000-8000-000000000000', reason }, 404, 'product-not-found'],
      [support, '00000000-0000-4000-8000-000000000000', { productId: course.id, reason }, 404, 'not-found'],
      [support, someone.id, { productId: course.id, reason: '  ok ' }, 400, 'validation-failed'],
      [support, someone.id, { productId: course.id }, 400, 'validation-failed'],
      [support, someone.id, { productId: course.id, reason, amount: 100 }, 400, 'validation-failed'],
      [finance, someone.id, { productId: course.id, reason }, 403, 'forbidden'],
      [await signedIn(db()), someone.id, { productId: course.id, reason }, 403, 'forbidden'],
      [undefined, someone.id, { productId: course.id, reason }, 401, 'unauthenticated'],
    ];
    for (const [who, userId, body, status, code] of refusals) {
      const answer = await give(who, userId, body);
      expect({ body, status: answer.status, code: answer.body.code }).toEqual({ body, status, code });
    }
    const short = await give(support, someone.id, { productId: course.id, reason: 'ok' });
    expect(short.body.errors).toEqual({ reason: 'Say why, in a few words.' });
    expect(await counts()).toEqual(before);

    const already = await give(support, buyer.id, { productId: course.id, reason });
    expect(already.body.message).toBe('owner.already@example.com already has Given Course.');
  });

  it('gives one course however many clicks arrive at once', async () => {
    const learner = await createUser(db(), { email: 'double.click@example.com' });
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => give(support, learner.id, { productId: course.id, reason: 'Scholarship' })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect(answers.filter((a) => a.status === 409).every((a) => a.body.code === 'already-purchased')).toBe(true);
    expect(await Purchase.query(db()).where({ userId: learner.id, productId: course.id })).toHaveLength(1);
    expect(await OutboxEmail.query(db()).where({ toAddress: learner.email, kind: 'course-given' })).toHaveLength(1);
    expect(
      await AuditLog.query(db())
        .where({ action: 'purchase.comped' })
        .whereJsonSupersetOf('after', { userId: learner.id }),
    ).toHaveLength(1);
  });

  it('is not the person’s to give away, and has nothing to refund', async () => {
    const learner = await signedIn(db());
    const given = await give(support, learner.user.id, { productId: course.id, reason: 'Beta tester' });
    expect(given.status).toBe(201);
    const purchaseId = given.body.data.purchaseId as string;

    const offer = await as(learner, request(app).post(`/api/store/purchases/${purchaseId}/transfer`)).send({
      email: 'a.friend@example.com',
    });
    expect(offer.status).toBe(409);
    expect(offer.body.code).toBe('transfer-not-available');
    expect(await db()('purchaseUserTransfers').where({ purchaseId })).toHaveLength(0);

    const refund = await as(support, request(app).post(`/api/admin/purchases/${purchaseId}/refund`)).send({
      reasonCode: 'customer-request',
    });
    expect(refund.status).toBe(409);
    expect(refund.body.code).toBe('refund-not-possible');
    expect(await Purchase.query(db()).findById(purchaseId)).toMatchObject({ status: 'Valid', kind: 'comp' });
  });

  it('takes a seat of a limited product, and is refused once none is left', async () => {
    const cohort = await createProduct(db(), { name: 'Small Cohort', quantityAvailable: 1 });
    const first = await createUser(db());
    const second = await createUser(db());
    expect((await give(support, first.id, { productId: cohort.id, reason: 'Mentor seat' })).status).toBe(201);
    const refused = await give(support, second.id, { productId: cohort.id, reason: 'Mentor seat' });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('sold-out');
  });

  it('moves no money: the ledger, the charges export and Finance are unchanged; Finance and the purchases export count the comp', async () => {
    const learner = await createUser(db(), { email: 'money.check@example.com' });
    const [ledgerBefore, summaryBefore, chargesBefore] = [await ledger(), await summary(), await chargesCsv()];
    expect((await give(support, learner.id, { productId: course.id, reason: 'Giveaway winner' })).status).toBe(201);
    const [ledgerAfter, summaryAfter, chargesAfter] = [await ledger(), await summary(), await chargesCsv()];

    expect(ledgerAfter).toEqual(ledgerBefore);
    expect(chargesAfter).toBe(chargesBefore);
    expect(summaryAfter.totals).toEqual(summaryBefore.totals);
    expect(summaryAfter.days).toEqual(summaryBefore.days);
    expect(summaryAfter.products).toEqual(summaryBefore.products);
    expect(summaryAfter.recipients).toEqual(summaryBefore.recipients);
    expect(summaryAfter.comps).toBe(summaryBefore.comps + 1);

    // The purchases list, and its export, say what it is.
    const exported = csvRows(
      (await listExport(app, support, 'purchases', { filter: { userId: learner.id } })).body as string,
    );
    expect(exported).toHaveLength(1);
    expect(exported[0]).toMatchObject({ Kind: 'Comp (given by staff)', Status: 'Valid' });
  });

  it('sums a person’s purchases per currency from the charges Finance exports, comps counted and adding nothing', async () => {
    const person = await createUser(db(), { email: 'totals.person@example.com' });
    const euro = await createProduct(db(), { name: 'Euro Course', unitAmount: 3_000, currency: 'eur' });
    const second = await createProduct(db(), { name: 'Second Course', unitAmount: 2_500 });
    await boughtWithTestProvider(services, db(), { buyer: person, productId: course.id });
    const refunded = await boughtWithTestProvider(services, db(), { buyer: person, productId: second.id });
    await boughtWithTestProvider(services, db(), { buyer: person, productId: euro.id });
    await services.lifecycle.refund(
      refunded,
      { amount: 1_000, reasonCode: 'customer-request' },
      { id: support.user.id, email: support.user.email },
    );
    const gift = await createProduct(db(), { name: 'Gift Course', unitAmount: 9_900 });
    expect((await give(support, person.id, { productId: gift.id, reason: 'Loyal customer' })).status).toBe(201);

    const answer = await totalsOf(finance, person.id);
    expect(answer.status).toBe(200);
    const totals = answer.body.currencies as Record<string, number | string>[];

    // What Finance's charges export says of this person's charges, per currency.
    const rows = parseCsv(await chargesCsv(), { columns: true, bom: true }) as Record<string, string>[];
    const header = (start: string) => Object.keys(rows[0]!).find((h) => h.startsWith(start))!;
    const cents = (row: Record<string, string>, start: string) => {
      const h = header(start);
      const value = Number(row[h]!.replace(/[^0-9.-]/g, ''));
      return h.includes('(cents)') ? value : Math.round(value * 100);
    };
    const theirs = rows.filter((r) => r[header('Buyer email')] === person.email);
    expect(theirs).toHaveLength(3);
    const exported = (currency: string) => {
      const mine = theirs.filter((r) => r[header('Currency')]!.toLowerCase() === currency);
      const paid = mine.reduce((sum, r) => sum + cents(r, 'Gross'), 0);
      const refundedCents = mine.reduce((sum, r) => sum + cents(r, 'Refunded'), 0);
      return { paid, refunded: refundedCents, net: paid - refundedCents };
    };

    expect(totals).toEqual([
      { currency: 'eur', ...exported('eur'), purchases: 1, charges: 1, refunds: 0, comps: 0 },
      { currency: 'usd', ...exported('usd'), purchases: 3, charges: 2, refunds: 1, comps: 1 },
    ]);
    expect(totals[1]).toMatchObject({ paid: 7_400, refunded: 1_000, net: 6_400 });

    expect((await totalsOf(support, person.id)).status).toBe(200);
    const learner = await signedIn(db());
    expect((await totalsOf(learner, person.id)).status).toBe(403);
    const unknown = await totalsOf(support, '00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
  });
});
