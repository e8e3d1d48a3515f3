import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { AuditLog, type Product } from '../support/models';
import { OutboxEmail } from '../../api/src/mail/models';
import { createServices, type Services } from '../../api/src/services';
import { createProduct, createResource, createUser } from '../../seeds/factories';
import { testDeps } from '../support/app';
import { as, signedIn, signedInByEmail, type SignedIn } from '../support/auth';
import { boughtWithTestProvider } from '../support/checkout';
import { useTestDatabase } from '../support/db';
import { lastEmailTo, tokenFrom } from '../support/outbox';

/**
 * Support sends a purchase's receipt again (the buyer lost it): written afresh with a new sign-in link (the first
 * one works once and is never stored) and the link to the invoice, to the payer, one email per click.
 */
describe('a receipt sent again from the console', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let services: Services;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let course: Product;
  let courseSlug: string;
  let support: SignedIn;

  beforeAll(async () => {
    const deps = testDeps(db());
    services = createServices(deps);
    app = createApp(deps, { services }).callback();
    course = await createProduct(db(), { name: 'Receipts Course', unitAmount: 4_900 });
    const resource = await createResource(db(), 'course', { title: 'Receipts Course' });
    await db()('productContentResources').insert({ productId: course.id, resourceId: resource.id, position: 0 });
    courseSlug = resource.fields.slug!;
    support = await signedIn(db(), ['support']);
  });

  const sendAgain = (who: SignedIn, purchaseId: string, requestKey: string = randomUUID()) =>
    as(who, request(app).post(`/api/admin/purchases/${purchaseId}/receipt`)).send({ requestKey });
  const consume = (email: string, token: string) =>
    request(app).post('/api/store/auth/email/consume').send({ email, token });
  const receiptsTo = (email: string) => OutboxEmail.query(db()).where({ toAddress: email, kind: 'receipt' });

  it('sends one new receipt per click, whose new sign-in link leads into the course, audited', async () => {
    const buyer = await createUser(db(), { email: 'lost.receipt@example.com' });
    const purchaseId = await boughtWithTestProvider(services, db(), { buyer, productId: course.id });
    const first = await lastEmailTo(db(), buyer.email);
    expect((await consume(buyer.email, tokenFrom(first.link).token)).status).toBe(200);

    // A double click: the same key twice at once makes one email.
    const key = randomUUID();
    const answers = await Promise.all([sendAgain(support, purchaseId, key), sendAgain(support, purchaseId, key)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 201]);
    expect(answers[0]!.body.data.emailId).toBe(answers[1]!.body.data.emailId);
    expect(answers[0]!.body.data.toAddress).toBe(buyer.email);
    expect(await receiptsTo(buyer.email)).toHaveLength(2);

    const again = await lastEmailTo(db(), buyer.email);
    expect(again.id).toBe(answers[0]!.body.data.emailId);
    expect(again.subject).toBe('Your receipt for Receipts Course');
    expect(again.textBody).toContain('$49.00');
    const fresh = tokenFrom(again.link);
    expect(fresh.token).not.toBe(tokenFrom(first.link).token);
    const entered = await consume(buyer.email, fresh.token);
    expect(entered.status).toBe(200);
    expect(entered.body.redirectTo).toBe(`/courses/${courseSlug}`);

    const audit = await AuditLog.query(db()).where({ action: 'receipt-resent', recordId: purchaseId });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorId: support.user.id, after: { emailId: again.id } });

    // The copy on the person's page says where a receipt is sent again from.
    const listed = await as(support, request(app).get(`/api/admin/users/${buyer.id}/emails`));
    const original = listed.body.data.find((e: { id: string }) => e.id === first.id);
    expect(original).toMatchObject({ resendable: false, whyNot: expect.stringContaining('Send receipt again') });
  });

  it('sends it to the payer after the purchase was given away, leading to their invoices, and links the invoice', async () => {
    const buyer = await createUser(db(), { email: 'generous.payer@example.com' });
    const purchaseId = await boughtWithTestProvider(services, db(), { buyer, productId: course.id });
    const { merchantChargeId } = await db()('purchases').where({ id: purchaseId }).first('merchantChargeId');
    const invoice = await db()('invoices').where({ merchantChargeId, kind: 'invoice' }).first('id', 'number');
    await services.transfers.moveDirectly(
      { id: support.user.id, email: support.user.email },
      purchaseId,
      'given.friend@example.com',
      null,
    );
    const answer = await sendAgain(support, purchaseId);
    expect(answer.status).toBe(201);
    expect(answer.body.data.toAddress).toBe(buyer.email);
    expect(await receiptsTo('given.friend@example.com')).toHaveLength(0);
    const audit = await AuditLog.query(db()).where({ action: 'receipt-resent', recordId: purchaseId }).first();
    expect(audit).toMatchObject({ after: { toAddress: buyer.email } });

    // The payer no longer holds the course: the sign-in leads to their invoices.
    const again = await lastEmailTo(db(), buyer.email);
    expect(again.id).toBe(answer.body.data.emailId);
    const entered = await consume(buyer.email, tokenFrom(again.link).token);
    expect(entered.status).toBe(200);
    expect(entered.body.redirectTo).toBe('/invoices');

    // Its invoice link names the issued invoice, whose page and answer open for the payer.
    const link = new URL(/https?:\/\/\S+\/invoices\/[0-9a-f-]{36}/.exec(again.textBody!)![0]);
    expect(link.pathname).toBe(`/invoices/${invoice.id}`);
    const payer = await signedInByEmail(db(), buyer.email);
    const page = await as(payer, request(app).get(link.pathname));
    expect(page.status).toBe(200);
    expect(page.type).toBe('text/html');
    const document = await as(payer, request(app).get(`/api/store${link.pathname}`));
    expect(document.status).toBe(200);
    expect(document.body).toMatchObject({ id: invoice.id, number: invoice.number, buyer: { email: buyer.email } });
  });

  it('refuses a purchase with no receipt or one that ended, bad input and non-support staff', async () => {
    const buyer = await createUser(db(), { email: 'refunded.receipt@example.com' });
    const purchaseId = await boughtWithTestProvider(services, db(), { buyer, productId: course.id });
    const used = randomUUID();
    expect((await sendAgain(support, purchaseId, used)).status).toBe(201);
    const before = await OutboxEmail.query(db()).resultSize();

    await services.lifecycle.refund(
      purchaseId,
      { reasonCode: 'customer-request' },
      { id: support.user.id, email: support.user.email },
    );
    const ended = await sendAgain(support, purchaseId);
    expect(ended.status).toBe(409);
    expect(ended.body.code).toBe('receipt-not-available');

    const seat = await db()('purchases')
      .insert({ userId: buyer.id, productId: course.id, status: 'Valid', totalAmount: 0 })
      .returning('id');
    const free = await sendAgain(support, seat[0].id);
    expect(free.status).toBe(409);
    expect(free.body.code).toBe('receipt-not-available');

    const other = await boughtWithTestProvider(services, db(), {
      buyer: await createUser(db()),
      productId: course.id,
    });
    // A key is one click on one purchase: the same key on another purchase is that purchase's own click.
    expect((await sendAgain(support, other, used)).status).toBe(201);
    expect((await sendAgain(support, randomUUID())).status).toBe(404);
    expect((await sendAgain(support, purchaseId, 'short')).status).toBe(400);
    const finance = await signedIn(db(), ['finance']);
    expect((await sendAgain(finance, other)).status).toBe(403);
    // The refund's own email and the other purchase's receipt aside, nothing more was written.
    expect(await OutboxEmail.query(db()).where('kind', '!=', 'refund').resultSize()).toBe(before + 2);
  });
});
