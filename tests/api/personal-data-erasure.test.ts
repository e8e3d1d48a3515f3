import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import type { MailTransport } from '../../api/src/mail/transport';
import { DELETED_ACCOUNT_TEXT } from '../../api/src/privacy/erase-person';
import { createServices, type Services } from '../../api/src/services';
import type { User } from '../../api/src/identity/models';
import { up as clearMovedNetworks } from '../../migrations/20261128231000_clear_moved_purchase_networks';
import { createProduct } from '../../seeds/factories';
import { testDeps } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { paidTestCheckout, sessionOfCheckout } from '../support/checkout';
import { expectCommerceInvariants, rowDigests } from '../support/commerce-invariants';
import { useTestDatabase } from '../support/db';
import type { Product } from '../support/models';

/** An address whose mailbox is down: an email to it stays pending (due again later), as the outbox retries. */
const UNREACHABLE = 'friend.of.pat@example.com';

/** A person's data after a transfer, and erasing a person (docs/domain.md §16) beside what others do meanwhile. */
describe('personal data: what moves with a purchase, and what a deletion erases', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let services: Services;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let course: Product;
  let guide: Product;
  let book: Product;

  const store = (who: SignedIn | undefined, method: 'get' | 'post' | 'put' | 'delete', path: string, body?: object) =>
    as(who, request(app)[method](`/api/store${path}`)).send(body);
  const admin = (who: SignedIn, path: string, body?: object) =>
    as(who, request(app).post(`/api/admin${path}`)).send(body);

  /** Bought, paid and fulfilled from a network and a town: the purchase's id. */
  const boughtFrom = async (buyer: User, productId: string, place: { ip: string; city: string; country: string }) => {
    const { checkoutId } = await services.checkouts.create({
      productId,
      quantity: 1,
      team: false,
      ppp: false,
      buyer,
      country: place.country,
      city: place.city,
      state: 'Region',
      ip: place.ip,
    });
    await services.testProvider.pay(await sessionOfCheckout(db(), checkoutId));
    return (await services.checkouts.fulfil(checkoutId)).purchaseId!;
  };

  /** `from` offers the purchase to `to`, who verifies and accepts it. */
  const given = async (from: SignedIn, purchaseId: string, to: SignedIn) => {
    const transferId = (await store(from, 'get', `/purchases/${purchaseId}/transfer`)).body.data.id;
    expect((await store(from, 'post', `/purchases/${purchaseId}/transfer`, { email: to.user.email })).status).toBe(200);
    expect((await store(to, 'post', `/transfers/${transferId}/verify`)).status).toBe(200);
    expect((await store(to, 'post', `/transfers/${transferId}/accept`)).body.data).toMatchObject({
      state: 'COMPLETED',
    });
  };

  beforeAll(async () => {
    const failing: MailTransport = {
      name: 'log',
      timeoutSeconds: 5,
      send: async (email) => {
        if (email.to === UNREACHABLE) throw new Error('mailbox unreachable');
      },
    };
    const deps = testDeps(db(), { mailTransport: failing });
    services = createServices(deps);
    app = createApp(deps, { services }).callback();
    course = await createProduct(db(), { name: 'Race Course', unitAmount: 4_000 });
    guide = await createProduct(db(), { name: 'Given Guide', unitAmount: 3_000 });
    book = await createProduct(db(), { name: 'Own Book', unitAmount: 2_000 });
  });

  it('gives a purchase without its buyer’s network or town: not on the row, not in the new owner’s download', async () => {
    const giver = await signedIn(db(), ['learner'], 'giver.porto@example.com');
    const person = await signedIn(db(), ['learner'], 'receiver@example.com');
    const giftId = await boughtFrom(giver.user, guide.id, { ip: '198.51.100.23', city: 'Porto', country: 'PT' });
    const ownId = await boughtFrom(person.user, book.id, { ip: '203.0.113.40', city: 'Lisbon', country: 'PT' });
    await given(giver, giftId, person);

    // The row keeps the country (the sale's tax evidence), nothing of the giver's network or town.
    expect(
      await db()('purchases').where({ id: giftId }).first('userId', 'ipAddress', 'city', 'state', 'country'),
    ).toEqual({ userId: person.user.id, ipAddress: null, city: null, state: null, country: 'PT' });
    const data = (await store(person, 'get', '/me/export')).body;
    const byId = (id: string) => data.purchases.find((p: { id: string }) => p.id === id);
    expect(byId(giftId)).toMatchObject({
      product: 'Given Guide',
      ipAddress: null,
      city: null,
      region: null,
      country: null,
    });
    expect(byId(ownId)).toMatchObject({ ipAddress: '203.0.113.40', city: 'Lisbon', region: 'Region', country: 'PT' });
    expect(JSON.stringify(data)).not.toMatch(/198\.51\.100\.23|Porto/);

    // A purchase moved before moves cleared this: the release clears it, and leaves what was bought alone.
    await db()('purchases').where({ id: giftId }).update({ ipAddress: '198.51.100.23', city: 'Porto', state: 'Norte' });
    await clearMovedNetworks(db());
    expect(await db()('purchases').where({ id: giftId }).first('ipAddress', 'city', 'state', 'country')).toEqual({
      ipAddress: null,
      city: null,
      state: null,
      country: 'PT',
    });
    expect(await db()('purchases').where({ id: ownId }).first('ipAddress', 'city')).toEqual({
      ipAddress: '203.0.113.40',
      city: 'Lisbon',
    });
  });

  it('takes the deleted person’s address out of other people’s emails, and cancels the offers they had sent', async () => {
    const person = await signedIn(db(), ['learner'], "Pat.O'Neil@Example.com");
    const giver = await signedIn(db(), ['learner'], 'giver.of.book@example.com');
    const friend = await signedIn(db(), ['learner'], UNREACHABLE);
    // person offers their guide to friend (the email cannot go yet), and accepts giver's book.
    const guideId = await boughtFrom(person.user, guide.id, { ip: '203.0.113.41', city: 'Faro', country: 'PT' });
    const offer = await store(person, 'post', `/purchases/${guideId}/transfer`, { email: friend.user.email });
    expect(offer.status).toBe(200);
    const bookId = await boughtFrom(giver.user, book.id, { ip: '203.0.113.42', city: 'Braga', country: 'PT' });
    await given(giver, bookId, person);
    // A note to someone else naming an address that only ends like the person's, and one that goes on past it.
    const near = "jo.pat.o'neil@example.com and pat.o'neil@example.com.au";
    const [note] = await db()('outboxEmails')
      .insert({
        toAddress: 'colleague@example.com',
        subject: `Ask jo.pat.o'neil@example.com`,
        textBody: `Ask ${near}, not PAT.O'NEIL@EXAMPLE.COM.`,
        htmlBody: `<p>Ask jo.pat.o&#39;neil@example.com and pat.o&#39;neil@example.com.au, not <b>pat.o&#39;neil@EXAMPLE.com</b>.</p>`,
        kind: 'test-note',
        status: 'sent',
        sentAt: new Date(),
      })
      .returning('id');
    await services.outbox.flush();
    const pendingOffer = await db()('outboxEmails').where({ toAddress: UNREACHABLE, kind: 'transfer-offer' }).first();
    expect(pendingOffer).toMatchObject({
      status: 'pending',
      subject: `Pat.O'Neil@Example.com is giving you Given Guide`,
    });
    expect(pendingOffer.htmlBody).toContain('Pat.O&#39;Neil@Example.com wants to give you');

    expect((await store(person, 'delete', '/me', { confirm: "pat.o'neil@example.com" })).status).toBe(204);

    // The offer that can no longer be accepted is not sent, nor sent again from the console.
    expect(await db()('outboxEmails').where({ id: pendingOffer.id }).first('status', 'subject', 'textBody')).toEqual({
      status: 'failed',
      subject: `${DELETED_ACCOUNT_TEXT} is giving you Given Guide`,
      textBody: null,
    });
    // giver's news of the completed transfer still reads, naming nobody.
    const completed = await db()('outboxEmails')
      .where({ toAddress: giver.user.email, kind: 'transfer-completed' })
      .first();
    expect(completed.subject).toBe(`Own Book now belongs to ${DELETED_ACCOUNT_TEXT}`);
    expect(completed.textBody).toContain(`${DELETED_ACCOUNT_TEXT} accepted your purchase of Own Book.`);
    expect(completed.htmlBody).toContain(`<p>${DELETED_ACCOUNT_TEXT} accepted your purchase`);
    // Other addresses stay whole; the person's goes in any case and escaped form.
    expect(await db()('outboxEmails').where({ id: note.id }).first('subject', 'textBody', 'htmlBody')).toEqual({
      subject: `Ask jo.pat.o'neil@example.com`,
      textBody: `Ask ${near}, not ${DELETED_ACCOUNT_TEXT}.`,
      htmlBody: `<p>Ask jo.pat.o&#39;neil@example.com and pat.o&#39;neil@example.com.au, not <b>${DELETED_ACCOUNT_TEXT}</b>.</p>`,
    });
    // Nowhere in the outbox any more.
    const everything = (await db()('outboxEmails').select('toAddress', 'subject', 'textBody', 'htmlBody'))
      .map((row) => Object.values(row).join(' '))
      .join('\n')
      .replaceAll("jo.pat.o'neil@example.com", '')
      .replaceAll('jo.pat.o&#39;neil@example.com', '')
      .toLowerCase();
    expect(everything).not.toMatch(/pat\.o('|&#39;)neil@example\.com(?!\.au)/);
  });

  it('forgets the billing details kept for a next checkout; an issued invoice keeps the buyer it named', async () => {
    const person = await signedIn(db(), ['learner'], 'billed.business@example.com');
    const billing = {
      company: 'Atelier Rive SARL',
      address: '3 quai Est, 69002 Lyon',
      country: 'FR',
      postalCode: '69002',
      vatId: 'FR40303265045',
    };
    expect((await store(person, 'put', '/billing', billing)).status).toBe(200);
    const { checkoutId } = await services.checkouts.create({
      productId: book.id,
      quantity: 1,
      team: false,
      ppp: false,
      buyer: person.user,
      country: 'FR',
      ip: '203.0.113.51',
      billing,
    });
    await services.testProvider.pay(await sessionOfCheckout(db(), checkoutId));
    await services.checkouts.fulfil(checkoutId);
    const issued = await db()('invoices').where({ payerUserId: person.user.id }).first('id', 'buyer');
    expect(issued.buyer).toMatchObject({ company: billing.company, address: billing.address, vatId: billing.vatId });
    // Their download holds both: the details kept for next time, and the invoice issued to them.
    const download = JSON.parse((await store(person, 'get', '/me/export')).text);
    expect(download.billing).toMatchObject({
      company: billing.company,
      vatId: billing.vatId,
      country: 'FR',
      postalCode: '69002',
    });
    expect(download.invoices).toEqual([expect.objectContaining({ kind: 'invoice', buyer: issued.buyer })]);

    expect((await store(person, 'delete', '/me', { confirm: person.user.email })).status).toBe(204);

    expect(await db()('billingProfiles').where({ userId: person.user.id }).first()).toBeUndefined();
    expect(
      await db()('checkouts')
        .where({ id: checkoutId })
        .first('billingCompany', 'billingAddress', 'billingPostalCode', 'billingVatId', 'billingCountry'),
    ).toEqual({
      billingCompany: null,
      billingAddress: null,
      billingPostalCode: null,
      billingVatId: null,
      billingCountry: 'FR',
    });
    expect(await db()('invoices').where({ id: issued.id }).first('buyer')).toEqual({ buyer: issued.buyer });
  });

  it('refuses to delete a blocked account, which would free its address; once unblocked it is deleted', async () => {
    const support = await signedIn(db(), ['support']);
    const banned = await signedIn(db(), ['learner'], 'banned.buyer@example.com');
    const reason = 'Charged back every purchase it made.';
    expect((await admin(support, `/users/${banned.user.id}/block`, { reason })).status).toBe(200);
    const before = await rowDigests(db(), 'users');

    const refused = await admin(support, `/users/${banned.user.id}/delete-account`, { confirm: banned.user.email });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('account-is-blocked');
    expect(await rowDigests(db(), 'users')).toEqual(before);
    // The block still keeps the address out of the shop.
    const checkout = await request(app)
      .post('/api/store/checkout')
      .send({ productId: book.id, email: banned.user.email });
    expect(checkout.body.code).toBe('buyer-blocked');

    expect((await admin(support, `/users/${banned.user.id}/unblock`)).status).toBe(200);
    const deleted = await admin(support, `/users/${banned.user.id}/delete-account`, { confirm: banned.user.email });
    expect(deleted.status).toBe(200);
  });

  it('answers an unsubscribe link of a deleted account as done, and writes nothing for it', async () => {
    const leaving = await signedIn(db());
    const { oneClick } = await services.replyEmailLinks.links(leaving.user.id);
    await services.personalData.deleteOwn(leaving.user.id, leaving.user.email, null);
    const url = new URL(oneClick);
    const answer = await request(app).post(`${url.pathname}${url.search}`).send();
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ replies: false });
    expect(await db()('userPrefs').where({ userId: leaving.user.id })).toEqual([]);
  });

  it('settles a payment and deletes its buyer at the same moment without a deadlock, whichever goes first', async () => {
    for (let round = 0; round < 12; round++) {
      const leaving = await signedIn(db());
      const checkoutId = await paidTestCheckout(services, db(), { buyer: leaving.user, productId: course.id });
      const [settled, deleted] = await Promise.allSettled([
        services.checkouts.fulfil(checkoutId),
        services.personalData.deleteOwn(leaving.user.id, leaving.user.email, null),
      ]);
      expect(settled.status === 'rejected' ? settled.reason : null).toBeNull();
      expect(deleted.status === 'rejected' ? deleted.reason : null).toBeNull();
      // First the sale (then anonymised), or first the deletion (then refunded in full).
      expect(['fulfilled', 'refunded']).toContain(settled.status === 'fulfilled' && settled.value.status);
    }
    await expectCommerceInvariants(db());
  });
});
