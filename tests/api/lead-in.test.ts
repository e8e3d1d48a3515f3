import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { Coupon, type Product, Purchase, VerificationToken } from '../support/models';
import type { User } from '../../api/src/identity/models';
import { OutboxEmail } from '../../api/src/mail/models';
import { SECRET_PLACEHOLDER } from '../../api/src/mail/outbox';
import { createServices, type Services } from '../../api/src/services';
import { createProduct, createResource, createUser, makeUpgradable } from '../../seeds/factories';
import { testDeps } from '../support/app';
import { as, signedIn, signedInByEmail, type SignedIn } from '../support/auth';
import { boughtWithTestProvider, sessionOfCheckout } from '../support/checkout';
import { manualClock } from '../support/clock';
import { useTestDatabase } from '../support/db';
import { lastEmailTo, tokenFrom } from '../support/outbox';

const DAY_MS = 86_400_000;

/**
 * Emails and answers that lead people in (issue 17, point 4): the receipt's sign-in link into the course, the
 * thank-you page's answer, the team emails, the revoked member's email, the transfer offer's dates and preview.
 */
describe('lead-in emails and answers', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const clock = manualClock();
  let services: Services;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let course: Product;
  let courseSlug: string;

  beforeAll(async () => {
    const deps = testDeps(db(), { clock });
    services = createServices(deps);
    app = createApp(deps, { services }).callback();
    course = await createProduct(db(), { name: 'Lead-in Course', unitAmount: 4_900 });
    courseSlug = await grantCourse(course, 'Lead-in Course', 0);
  });

  /** A published course granted by the product at `position`; answers its slug. */
  async function grantCourse(product: Product, title: string, position: number): Promise<string> {
    const resource = await createResource(db(), 'course', { title });
    await db()('productContentResources').insert({ productId: product.id, resourceId: resource.id, position });
    return resource.fields.slug!;
  }

  /** A guest (no account, not signed in) buys and pays on the test provider's page; answers the checkout. */
  async function guestBuys(email: string, product: Product = course, quantity = 1): Promise<string> {
    const { checkoutId } = await services.checkouts.create({
      productId: product.id,
      quantity,
      team: quantity > 1,
      ppp: false,
      buyer: null,
      email,
      country: 'US',
      ip: null,
    });
    await services.testProvider.pay(await sessionOfCheckout(db(), checkoutId));
    return checkoutId;
  }

  const consume = (email: string, token: string) =>
    request(app).post('/api/store/auth/email/consume').send({ email, token });

  it("gives a guest's receipt a sign-in link into the course that a GET does not use up, and that works once", async () => {
    const email = 'guest-receipt@example.com';
    const checkoutId = await guestBuys(email);
    const outcome = await request(app).get(`/api/store/checkouts/${checkoutId}`);
    expect(outcome.body.status).toBe('fulfilled');

    const receipt = await lastEmailTo(db(), email);
    expect(receipt.kind).toBe('receipt');
    expect(receipt.subject).toBe('Your receipt for Lead-in Course');
    // The receipt's first link is the sign-in link; its token is the email's secret, never in the stored bodies.
    expect(receipt.link?.pathname).toBe('/login/continue');
    const { token } = tokenFrom(receipt.link);
    const stored = (await OutboxEmail.query(db()).findById(receipt.id))!;
    expect(stored.textBody).toContain(`token=${SECRET_PLACEHOLDER}`);
    expect(stored.textBody).not.toContain(token);
    expect(stored.htmlBody).not.toContain(token);
    expect(stored.textBody).toContain('$49.00');
    expect(stored.textBody).toMatch(/works once and lasts 7 days/);
    expect(stored.textBody).toContain(`/invoices/${outcome.body.receipt.invoiceId}`);

    // A mail scanner fetching the link loads the page: the token is still there afterwards.
    await request(app).get(`${receipt.link!.pathname}${receipt.link!.search}`);
    await request(app).head(`${receipt.link!.pathname}${receipt.link!.search}`);
    expect(await VerificationToken.query(db()).where('identifier', email).resultSize()).toBe(1);

    const entered = await consume(email, token);
    expect(entered.status).toBe(200);
    expect(entered.body.user).toMatchObject({ email });
    expect(entered.body.user.emailVerified).toBeTruthy();
    expect(entered.body.redirectTo).toBe(`/courses/${courseSlug}`);

    const again = await consume(email, token);
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('sign-in-link-invalid');
  });

  it('gives a signed-in buyer whose address has capitals a receipt link that works', async () => {
    const buyer = await createUser(db(), { email: 'Mixed.Case.Buyer@Example.com' });
    await boughtWithTestProvider(services, db(), { buyer, productId: course.id });
    const receipt = await lastEmailTo(db(), buyer.email);
    const { email, token } = tokenFrom(receipt.link);
    expect(email).toBe('mixed.case.buyer@example.com');
    const entered = await consume(email, token);
    expect(entered.status).toBe(200);
    expect(entered.body.user.id).toBe(buyer.id);
    expect(entered.body.redirectTo).toBe(`/courses/${courseSlug}`);
  });

  it('keeps the receipt link for 7 days and then refuses it, saying how long it lasted', async () => {
    const early = 'receipt-early@example.com';
    const late = 'receipt-late@example.com';
    await request(app).get(`/api/store/checkouts/${await guestBuys(early)}`);
    await request(app).get(`/api/store/checkouts/${await guestBuys(late)}`);
    const earlyToken = tokenFrom((await lastEmailTo(db(), early)).link).token;
    const lateToken = tokenFrom((await lastEmailTo(db(), late)).link).token;

    clock.advance(7 * DAY_MS - 60_000);
    expect((await consume(early, earlyToken)).status).toBe(200);
    clock.advance(2 * 60_000);
    const expired = await consume(late, lateToken);
    clock.set(new Date());
    expect(expired.status).toBe(400);
    expect(expired.body.code).toBe('sign-in-link-expired');
    expect(expired.body.message).toContain('7 days');
  });

  it('lands on the course the product grants of its own when it grants several (Pro, not Fundamentals)', async () => {
    const fundamentals = await createProduct(db(), { name: 'Lead-in Fundamentals', unitAmount: 4_900 });
    const pro = await createProduct(db(), { name: 'Lead-in Pro', unitAmount: 19_900 });
    await makeUpgradable(db(), fundamentals, pro);
    const shared = await grantCourse(fundamentals, 'Shared Basics', 0);
    await db()('productContentResources').insert({
      productId: pro.id,
      resourceId: (await db()('contentResources').whereRaw(`fields->>'slug' = ?`, [shared]).first('id')).id,
      position: 0,
    });
    const own = await grantCourse(pro, 'Pro Only', 1);

    for (const [product, email, slug] of [
      [pro, 'buys-pro@example.com', own],
      [fundamentals, 'buys-fundamentals@example.com', shared],
    ] as const) {
      const checkoutId = await guestBuys(email, product);
      const outcome = await request(app).get(`/api/store/checkouts/${checkoutId}`);
      expect(outcome.body.receipt.coursePath).toBe(`/courses/${slug}`);
      const { token } = tokenFrom((await lastEmailTo(db(), email)).link);
      expect((await consume(email, token)).body.redirectTo).toBe(`/courses/${slug}`);
    }
  });

  it("answers the thank-you page with the product, the amount in cents, the receipt's address and the invoice", async () => {
    const email = 'thanks-page@example.com';
    const checkoutId = await guestBuys(email);
    const answer = await request(app).get(`/api/store/checkouts/${checkoutId}`);
    expect(answer.status).toBe(200);
    const purchase = (await Purchase.query(db()).findById(answer.body.purchaseId))!;
    const issued = await db()('invoices')
      .where({ merchantChargeId: purchase.merchantChargeId, kind: 'invoice' })
      .first('id');
    expect(answer.body).toMatchObject({
      status: 'fulfilled',
      team: null,
      receipt: {
        product: { id: course.id, name: 'Lead-in Course', slug: course.slug },
        quantity: 1,
        amount: 4_900,
        currency: 'usd',
        email,
        invoiceId: issued.id,
        coursePath: `/courses/${courseSlug}`,
      },
    });
    // The invoice link works once the buyer is signed in (as the receipt's link signs them in).
    const buyer = await signedInByEmail(db(), email);
    const invoice = await as(buyer, request(app).get(`/api/store/invoices/${answer.body.receipt.invoiceId}`));
    expect(invoice.status).toBe(200);
    expect(invoice.body.total).toBe(4_900);

    // Not settled yet: nothing to name.
    const { checkoutId: open } = await services.checkouts.create({
      productId: course.id,
      quantity: 1,
      team: false,
      ppp: false,
      buyer: null,
      email: 'not-paid-yet@example.com',
      country: 'US',
      ip: null,
    });
    expect((await request(app).get(`/api/store/checkouts/${open}`)).body).toMatchObject({
      status: 'open',
      receipt: null,
    });
  });

  it("leads a team's buyer to take their seat on the team page and gives them the invite link", async () => {
    const owner = await signedIn(db());
    const teamId = await boughtWithTestProvider(services, db(), {
      buyer: owner.user,
      productId: course.id,
      quantity: 3,
    });
    const coupon = (await Coupon.query(db()).findById((await Purchase.query(db()).findById(teamId))!.bulkCouponId!))!;
    const inviteUrl = `http://localhost:3000/invites/${coupon.inviteCode}`;

    const receipt = await lastEmailTo(db(), owner.user.email);
    expect(receipt.kind).toBe('receipt');
    expect(receipt.textBody).toContain('3 seats of Lead-in Course');
    expect(receipt.textBody).toContain('To take your own seat, open your team page with this link.');
    expect(receipt.htmlBody).toContain('>Take your seat</a>');
    expect(receipt.textBody).toContain(inviteUrl);
    expect(receipt.htmlBody).toContain(`href="${inviteUrl}"`);
    const { token } = tokenFrom(receipt.link);
    expect((await consume(owner.user.email, token)).body.redirectTo).toBe(`/teams/${teamId}`);

    const checkout = await db()('checkouts').where({ purchaseId: teamId }).first('id');
    const answer = await request(app).get(`/api/store/checkouts/${checkout.id}`);
    expect(answer.body).toMatchObject({
      team: { teamId, seats: 3, ownerHasSeat: false, buyerHasCourse: false, inviteUrl },
      receipt: { quantity: 3, amount: 3 * 4_900, email: owner.user.email, coursePath: null },
    });
    // An hour on, the thank-you address (if shared) names neither the address nor the invite link; the buyer signed
    // in still sees both.
    const now = clock.now();
    clock.advance(61 * 60_000);
    try {
      const later = await request(app).get(`/api/store/checkouts/${checkout.id}`);
      expect(later.body.team).toMatchObject({ teamId, inviteUrl: null });
      expect(later.body.receipt).toMatchObject({ quantity: 3, email: null });
      const asBuyer = await as(owner, request(app).get(`/api/store/checkouts/${checkout.id}`));
      expect(asBuyer.body).toMatchObject({ team: { inviteUrl }, receipt: { email: owner.user.email } });
    } finally {
      clock.set(now);
    }

    // More seats later: the receipt leads to the same team.
    const more = await boughtWithTestProvider(services, db(), { buyer: owner.user, productId: course.id, quantity: 2 });
    expect(more).not.toBe(teamId);
    const second = await lastEmailTo(db(), owner.user.email);
    expect(second.id).not.toBe(receipt.id);
    expect(second.textBody).toContain(inviteUrl);
    expect((await consume(owner.user.email, tokenFrom(second.link).token)).body.redirectTo).toBe(`/teams/${teamId}`);
  });

  it("welcomes a member with the course's own page, not its sales page, and answers the seat with it", async () => {
    const owner = await signedIn(db());
    const teamId = await boughtWithTestProvider(services, db(), {
      buyer: owner.user,
      productId: course.id,
      quantity: 2,
    });
    const coupon = (await Coupon.query(db()).findById((await Purchase.query(db()).findById(teamId))!.bulkCouponId!))!;
    const member = await signedIn(db());
    const seat = await as(member, request(app).post(`/api/store/invites/${coupon.inviteCode}/redeem`));
    expect(seat.status).toBe(201);
    expect(seat.body.coursePath).toBe(`/courses/${courseSlug}`);
    const welcome = await lastEmailTo(db(), member.user.email);
    expect(welcome.kind).toBe('team-welcome');
    expect(welcome.link?.toString()).toBe(`http://localhost:3000/courses/${courseSlug}`);
    expect(welcome.textBody).not.toContain('/products/');
  });

  describe('a revoked member', () => {
    async function teamWithMember(): Promise<{ owner: SignedIn; teamId: string; member: User; seatId: string }> {
      const owner = await signedIn(db());
      const teamId = await boughtWithTestProvider(services, db(), {
        buyer: owner.user,
        productId: course.id,
        quantity: 2,
      });
      const coupon = (await Coupon.query(db()).findById((await Purchase.query(db()).findById(teamId))!.bulkCouponId!))!;
      const member = await signedIn(db());
      const seat = await as(member, request(app).post(`/api/store/invites/${coupon.inviteCode}/redeem`));
      return { owner, teamId, member: member.user, seatId: seat.body.purchaseId };
    }

    it('is told by email who removed them, from which course, and that their progress stays, in the same transaction', async () => {
      const { owner, teamId, member, seatId } = await teamWithMember();
      const revoked = await as(owner, request(app).delete(`/api/store/teams/${teamId}/members/${seatId}`));
      expect(revoked.status).toBe(200);
      const email = await lastEmailTo(db(), member.email);
      expect(email.kind).toBe('team-seat-revoked');
      expect(email.subject).toBe('Your seat in Lead-in Course was removed');
      expect(email.textBody).toContain(`removed by the team's owner (${owner.user.email})`);
      expect(email.textBody).toContain('Your progress is kept');
      // Written by the transaction that removed the seat: now() is the transaction's start, the same on both rows (the
      // email's row is updated when sent, so its xmin cannot tell).
      const [emailRow, revocation] = await Promise.all([
        db()('outboxEmails').where({ id: email.id }).first(db().raw('created_at::text as at')),
        db()('teamSeatRevocations').where({ userId: member.id }).first(db().raw('created_at::text as at')),
      ]);
      expect(emailRow.at).toBe(revocation.at);
    });

    it('hears that our support team removed them when staff did', async () => {
      const { owner, teamId, member, seatId } = await teamWithMember();
      const support = await signedIn(db(), ['support']);
      const revoked = await as(support, request(app).delete(`/api/admin/bulk-purchases/${teamId}/members/${seatId}`));
      expect(revoked.status).toBe(200);
      const email = await lastEmailTo(db(), member.email);
      expect(email.kind).toBe('team-seat-revoked');
      expect(email.textBody).toContain(`removed by our support team, for the team's owner (${owner.user.email})`);
    });
  });

  describe('a transfer offer', () => {
    async function offer(recipientEmail: string) {
      const owner = await signedIn(db());
      const purchaseId = await boughtWithTestProvider(services, db(), { buyer: owner.user, productId: course.id });
      const offered = await as(
        owner,
        request(app).post(`/api/store/purchases/${purchaseId}/transfer`).send({ email: recipientEmail }),
      );
      expect(offered.status).toBe(200);
      return { owner, transfer: offered.body.data as { id: string; expiresAt: string } };
    }

    it("prints its end in the recipient's time zone when their settings name one, else in UTC, never as ISO", async () => {
      const zoned = await createUser(db(), { email: 'zoned-recipient@example.com' });
      await db()('userPrefs').insert({ userId: zoned.id, type: 'global', fields: { timeZone: 'America/New_York' } });
      const { transfer } = await offer(zoned.email);
      const expires = new Date(transfer.expiresAt);
      const inZone = (timeZone: string) =>
        new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', timeZone }).format(expires);
      const zonedEmail = await lastEmailTo(db(), zoned.email);
      expect(zonedEmail.kind).toBe('transfer-offer');
      expect(zonedEmail.textBody).toContain(`${inZone('America/New_York')} E`); // EST or EDT
      expect(zonedEmail.textBody).toContain('(America/New_York)');
      expect(zonedEmail.textBody).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
      expect(zonedEmail.textBody).not.toContain('GMT');

      const plain = 'plain-recipient@example.com';
      await offer(plain);
      const plainEmail = await lastEmailTo(db(), plain);
      expect(plainEmail.textBody).toContain(`${inZone('UTC')} UTC`);
      expect(plainEmail.textBody).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
    });

    it('falls back to UTC for a time zone nobody knows', async () => {
      const odd = await createUser(db(), { email: 'odd-zone@example.com' });
      await db()('userPrefs').insert({ userId: odd.id, type: 'global', fields: { timeZone: 'Mars/Olympus_Mons' } });
      await offer(odd.email);
      const email = await lastEmailTo(db(), odd.email);
      expect(email.textBody).toMatch(/ UTC\./);
      expect(email.textBody).not.toContain('Mars');
    });

    it('is previewed before sign-in (course, giver, the address it went to) only while it is open', async () => {
      const { owner, transfer } = await offer('preview-recipient@example.com');
      const preview = await request(app).get(`/api/store/transfers/${transfer.id}/preview`);
      expect(preview.status).toBe(200);
      expect(preview.headers['cache-control']).toBe('no-store');
      expect(preview.body.data).toEqual({
        product: { name: 'Lead-in Course' },
        from: owner.user.name,
        recipientEmail: 'preview-recipient@example.com',
      });

      const canceled = await as(owner, request(app).post(`/api/store/transfers/${transfer.id}/cancel`));
      expect(canceled.status).toBe(200);
      const after = await request(app).get(`/api/store/transfers/${transfer.id}/preview`);
      expect(after.status).toBe(404);
      expect(after.body.code).toBe('transfer-not-found');
      // The fresh AVAILABLE offer names nobody: nothing to preview either.
      const fresh = await request(app).get(`/api/store/transfers/${canceled.body.data.id}/preview`);
      expect(fresh.status).toBe(404);
      const malformed = await request(app).get('/api/store/transfers/not-an-id/preview');
      expect(malformed.status).toBe(400);
    });
  });
});
