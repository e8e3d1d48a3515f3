import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog, DeviceAccessToken } from '../support/models';
import { issueSignInLink } from '../../api/src/identity/sign-in/email-sign-in';
import { hashSecret, newSecret } from '../../api/src/identity/secrets';
import { createCourse, createProduct, createUser } from '../../seeds/factories';
import { testApp, testConfig } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { sessionOfCheckout } from '../support/checkout';
import { useTestDatabase } from '../support/db';
import { deliverSigned, standInEnv, startStripeStandIn, type StandIn } from '../support/stripe-stand-in';

/** Support's tools on a person's page: their emails and Resend, blocking, changing their email; lesson video authorship. */
describe('support tools about people', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const app = () => testApp(db());

  /** An email in the outbox, as a template would have written it (sent unless said). */
  async function emailTo(to: string, fields: Record<string, unknown> = {}): Promise<string> {
    const [row] = await db()('outboxEmails')
      .insert({
        toAddress: to,
        subject: 'Refund for TypeScript',
        textBody: 'We refunded your purchase.\n',
        htmlBody: '<p>We refunded your purchase.</p>',
        kind: 'refund',
        status: 'sent',
        sentAt: new Date(),
        ...fields,
      })
      .returning('id');
    return row.id;
  }
  const count = async (table: string, where: Record<string, unknown> = {}) =>
    Number((await db()(table).where(where).count({ n: '*' }))[0]!.n);
  const post = (who: SignedIn, url: string, body: object = {}) => as(who, request(app()).post(url)).send(body);

  describe('the emails on a person’s page', () => {
    it('lists what was sent to them, without bodies, and says which can be resent', async () => {
      const support = await signedIn(db(), ['support']);
      const person = await createUser(db(), { email: 'reader@example.com' });
      const refund = await emailTo('reader@example.com');
      const signIn = await emailTo('reader@example.com', {
        kind: 'sign-in',
        subject: 'Your sign-in link',
        textBody: 'Sign in: http://x/login/continue?token=[redacted]',
      });
      await emailTo('someone.else@example.com');

      const listed = await as(support, request(app()).get(`/api/admin/users/${person.id}/emails`));
      expect(listed.status).toBe(200);
      expect(listed.body.total).toBe(2);
      const byId = Object.fromEntries(listed.body.data.map((e: { id: string }) => [e.id, e]));
      expect(byId[refund]).toMatchObject({ subject: 'Refund for TypeScript', status: 'sent', resendable: true });
      expect(byId[refund]).not.toHaveProperty('textBody');
      expect(byId[signIn]).toMatchObject({ resendable: false, whyNot: expect.stringContaining('one-time') });

      const learner = await signedIn(db());
      expect((await as(learner, request(app()).get(`/api/admin/users/${person.id}/emails`))).status).toBe(403);
      const finance = await signedIn(db(), ['finance']);
      expect((await as(finance, request(app()).get(`/api/admin/users/${person.id}/emails`))).status).toBe(403);
    });

    it('resends a copy to their current address, exactly once per request key, audited', async () => {
      const support = await signedIn(db(), ['support']);
      const person = await createUser(db(), { email: 'resend.me@example.com' });
      const original = await emailTo('resend.me@example.com');
      const url = `/api/admin/users/${person.id}/emails/${original}/resend`;
      const key = randomUUID();

      // A double click: the same key twice at once.
      const answers = await Promise.all([
        post(support, url, { requestKey: key }),
        post(support, url, { requestKey: key }),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 201]);
      expect(answers[0]!.body.email.id).toBe(answers[1]!.body.email.id);
      const copies = await db()('outboxEmails').where({ resentFromId: original });
      expect(copies).toHaveLength(1);
      expect(copies[0]).toMatchObject({
        toAddress: 'resend.me@example.com',
        subject: 'Refund for TypeScript',
        textBody: 'We refunded your purchase.\n',
        kind: 'refund',
        resendKey: key,
      });
      expect(await count('auditLogs', { action: 'resend', resource: 'outbox-emails', recordId: original })).toBe(1);

      // Another click is another copy.
      const again = await post(support, url, { requestKey: randomUUID() });
      expect(again.status).toBe(201);
      expect(await count('outboxEmails', { resentFromId: original })).toBe(2);
      // A key already spent on another email is refused rather than answered with the wrong copy.
      const other = await emailTo('resend.me@example.com');
      const reused = await post(support, `/api/admin/users/${person.id}/emails/${other}/resend`, { requestKey: key });
      expect(reused.status).toBe(409);
      expect(await count('outboxEmails', { resentFromId: other })).toBe(0);
    });

    it('refuses one-time links, dropped bodies and other people’s emails, writing nothing', async () => {
      const support = await signedIn(db(), ['support']);
      const person = await createUser(db(), { email: 'careful@example.com' });
      const signIn = await emailTo('careful@example.com', {
        kind: 'sign-in',
        textBody: 'Sign in: http://x/login/continue?token=[redacted]',
      });
      const dropped = await emailTo('careful@example.com', { textBody: null, htmlBody: null });
      const stranger = await emailTo('stranger@example.com');
      const before = await count('outboxEmails');
      const resend = (id: string) =>
        post(support, `/api/admin/users/${person.id}/emails/${id}/resend`, { requestKey: randomUUID() });
      for (const id of [signIn, dropped]) {
        const refused = await resend(id);
        expect(refused.status).toBe(409);
        expect(refused.body.code).toBe('email-not-resendable');
      }
      expect((await resend(stranger)).status).toBe(404);
      expect((await post(support, `/api/admin/users/${person.id}/emails/${stranger}/resend`, {})).status).toBe(400);
      expect(await count('outboxEmails')).toBe(before);
    });
  });

  describe('blocking a person', () => {
    it('signs them out everywhere, refuses their sign-ins, and is audited on their timeline', async () => {
      const support = await signedIn(db(), ['support']);
      const person = await signedIn(db(), ['learner'], 'troublemaker@example.com');
      const secret = newSecret();
      await DeviceAccessToken.query(db()).insert({
        token: hashSecret(secret),
        userId: person.user.id,
        clientId: 'cli',
      });
      const link = new URL(
        await issueSignInLink(db(), {
          publicUrl: 'http://localhost:3000',
          email: 'troublemaker@example.com',
          redirectTo: null,
          now: new Date(),
          lifetimeMs: 60_000,
        }),
      );

      const noReason = await post(support, `/api/admin/users/${person.user.id}/block`, { reason: ' ' });
      expect(noReason.status).toBe(400);
      expect(noReason.body.errors).toHaveProperty('reason');

      const blocked = await post(support, `/api/admin/users/${person.user.id}/block`, { reason: 'Chargeback fraud' });
      expect(blocked.status).toBe(200);
      expect(blocked.body).toMatchObject({
        blockedReason: 'Chargeback fraud',
        blockedById: support.user.id,
        signedOut: { sessions: 1, devices: 1 },
      });
      expect((await as(person, request(app()).get('/api/store/me'))).status).toBe(401);
      expect((await request(app()).get('/api/store/me').set('Authorization', `Bearer ${secret}`)).status).toBe(401);
      const signIn = await request(app())
        .post('/api/store/auth/email/consume')
        .send({ email: 'troublemaker@example.com', token: link.searchParams.get('token') });
      expect(signIn.status).toBe(403);
      expect(signIn.body.code).toBe('account-blocked');
      expect(await count('sessions', { userId: person.user.id })).toBe(0);

      const again = await post(support, `/api/admin/users/${person.user.id}/block`, { reason: 'Twice' });
      expect(again.status).toBe(409);
      const timeline = await as(support, request(app()).get(`/api/admin/users/${person.user.id}/timeline`));
      expect(timeline.body.data).toContainEqual(
        expect.objectContaining({ kind: 'staff-action', summary: 'User blocked', by: support.user.email }),
      );
      const entry = await AuditLog.query(db()).findOne({ action: 'user.blocked', recordId: person.user.id });
      expect(entry?.after).toMatchObject({ reason: 'Chargeback fraud', sessionsEnded: 1, deviceTokensRevoked: 1 });
    });

    it('refuses a guest checkout with their email before anything is charged or written; unblocking lets them buy', async () => {
      const support = await signedIn(db(), ['support']);
      const person = await createUser(db(), { email: 'Blocked.Buyer@Example.com' });
      const product = await createProduct(db(), { name: 'Blocked Buyer Course', unitAmount: 5000 });
      expect((await post(support, `/api/admin/users/${person.id}/block`, { reason: 'Abusive refunds' })).status).toBe(
        200,
      );
      const before = {
        checkouts: await count('checkouts'),
        sessions: await count('merchantSessions'),
        charges: await count('merchantCharges'),
        users: await count('users'),
      };
      const checkout = (email: string) =>
        request(app()).post('/api/store/checkout').send({ productId: product.id, email });
      const refused = await checkout('  blocked.buyer@EXAMPLE.com ');
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({
        code: 'buyer-blocked',
        errors: { email: 'cannot be used to buy here: contact our support team' },
      });
      expect({
        checkouts: await count('checkouts'),
        sessions: await count('merchantSessions'),
        charges: await count('merchantCharges'),
        users: await count('users'),
      }).toEqual(before);

      expect((await post(support, `/api/admin/users/${person.id}/unblock`)).status).toBe(200);
      const bought = await checkout('blocked.buyer@example.com');
      expect(bought.status).toBe(201);
      const entries = await AuditLog.query(db()).where({ recordId: person.id }).orderBy('id');
      expect(entries.map((e) => e.action)).toEqual(['user.blocked', 'user.unblocked']);
    });

    it('refunds in full a payment that completes for a blocked email, and leaves earlier purchases alone', async () => {
      const support = await signedIn(db(), ['support']);
      const person = await createUser(db(), { email: 'late.block@example.com' });
      const product = await createProduct(db(), { name: 'Late Block Course', unitAmount: 7000 });
      const started = await request(app())
        .post('/api/store/checkout')
        .send({ productId: product.id, email: 'late.block@example.com' });
      expect(started.status).toBe(201);
      // Blocked while paying at the provider.
      expect((await post(support, `/api/admin/users/${person.id}/block`, { reason: 'Stolen card' })).status).toBe(200);
      const { pathname } = new URL(started.body.url);
      expect((await request(app()).post(`${pathname}/pay`)).status).toBe(303);
      const outcome = await request(app()).get(`/api/store/checkouts/${started.body.checkoutId}`);
      expect(outcome.body.status).toBe('refunded');
      const purchase = await db()('purchases').where({ id: outcome.body.purchaseId }).first();
      expect(purchase).toMatchObject({ userId: person.id, status: 'Refunded' });
      const charge = await db()('merchantCharges').where({ id: purchase.merchantChargeId }).first();
      expect(charge.refundAmount).toBe(charge.amount);
      expect(
        await db()('outboxEmails').where({ kind: 'unfulfillable-refund', toAddress: 'late.block@example.com' }),
      ).toHaveLength(1);
      expect(await db()('outboxEmails').where({ kind: 'receipt', toAddress: 'late.block@example.com' })).toHaveLength(
        0,
      );
    });

    describe('at Stripe', () => {
      let stripe: StandIn;
      let stripeApp: ReturnType<typeof testApp>;
      beforeAll(async () => {
        stripe = await startStripeStandIn();
        stripeApp = testApp(db(), { config: testConfig(standInEnv(stripe)) });
      });
      afterAll(() => stripe?.close());
      const sessionsAtStripe = () => [...stripe.objects.values()].filter((o) => o.object === 'checkout.session').length;

      it('refunds in full a Stripe payment completing for a blocked email, and opens no session for a new one', async () => {
        const support = await signedIn(db(), ['support']);
        const person = await createUser(db(), { email: 'stripe.blocked@example.com' });
        const product = await createProduct(db(), { name: 'Stripe Block Course', unitAmount: 6000 });
        const checkout = (email: string) =>
          request(stripeApp).post('/api/store/checkout').send({ productId: product.id, email });
        const started = await checkout('stripe.blocked@example.com');
        expect(started.status).toBe(201);
        const completed = stripe.pay(await sessionOfCheckout(db(), started.body.checkoutId));
        expect(
          (await as(support, request(stripeApp).post(`/api/admin/users/${person.id}/block`)).send({ reason: 'Fraud' }))
            .status,
        ).toBe(200);
        expect((await deliverSigned(stripeApp, completed)).body).toEqual({ received: true });

        const settled = await db()('checkouts').where({ id: started.body.checkoutId }).first();
        expect(settled.status).toBe('refunded');
        const purchase = await db()('purchases').where({ id: settled.purchaseId }).first();
        expect(purchase).toMatchObject({ userId: person.id, status: 'Refunded' });
        const charge = await db()('merchantCharges').where({ id: purchase.merchantChargeId }).first();
        expect(charge.refundAmount).toBe(charge.amount);
        const refunded = [...stripe.objects.values()].filter((o) => o.object === 'refund');
        expect(refunded).toContainEqual(expect.objectContaining({ amount: charge.amount }));

        const sessions = sessionsAtStripe();
        const refused = await checkout('STRIPE.blocked@example.com');
        expect(refused.status).toBe(403);
        expect(refused.body.code).toBe('buyer-blocked');
        expect(sessionsAtStripe()).toBe(sessions);
      });
    });

    it('gives no device token for a code its approver was blocked after approving', async () => {
      const support = await signedIn(db(), ['support']);
      const person = await signedIn(db());
      const deviceApp = app();
      const poll = (deviceCode: string) =>
        request(deviceApp).post('/oauth/token').type('form').send({
          grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
          device_code: deviceCode,
          client_id: 'course-cli',
        });
      const approved = async () => {
        const { device_code, user_code } = (
          await request(deviceApp).post('/oauth/device/code').type('form').send({ client_id: 'course-cli' })
        ).body;
        const approval = await as(person, request(deviceApp).post('/api/store/device/approve')).send({
          userCode: user_code,
        });
        expect(approval.status).toBe(200);
        return device_code as string;
      };
      // A block racing the approval (written as another process would): the token endpoint still refuses.
      const racing = await approved();
      await db()('users').where({ id: person.user.id }).update({ blockedAt: new Date(), blockedReason: 'Racing' });
      expect((await poll(racing)).body.error).toBe('access_denied');
      await db()('users').where({ id: person.user.id }).update({ blockedAt: null, blockedReason: null });
      // Blocked from the console: the approved code ends with their sessions.
      const ended = await approved();
      expect(
        (await post(support, `/api/admin/users/${person.user.id}/block`, { reason: 'Shared account' })).status,
      ).toBe(200);
      expect((await poll(ended)).body.error).toBe('expired_token');
      expect(await count('deviceAccessTokens', { userId: person.user.id })).toBe(0);
    });

    it('lets only administrators block staff, and nobody block themselves', async () => {
      const support = await signedIn(db(), ['support']);
      const admin = await signedIn(db(), ['admin']);
      const colleague = await createUser(db(), { roles: ['finance'] });
      const byColleague = await post(support, `/api/admin/users/${colleague.id}/block`, { reason: 'Left the company' });
      expect(byColleague.status).toBe(403);
      expect((await post(support, `/api/admin/users/${support.user.id}/block`, { reason: 'Testing' })).status).toBe(
        400,
      );
      expect((await post(admin, `/api/admin/users/${admin.user.id}/block`, { reason: 'Testing' })).status).toBe(400);
      expect((await post(admin, `/api/admin/users/${colleague.id}/block`, { reason: 'Left the company' })).status).toBe(
        200,
      );
      expect((await post(support, `/api/admin/users/${colleague.id}/unblock`)).status).toBe(403);
    });
  });

  describe('changing a person’s email', () => {
    it('answers 409 on the field when another account has the address in any case, writing nothing', async () => {
      const support = await signedIn(db(), ['support']);
      const person = await signedIn(db(), ['learner'], 'keeps.address@example.com');
      await createUser(db(), { email: 'Taken.Address@Example.com' });
      const before = { outbox: await count('outboxEmails'), audit: await count('auditLogs') };
      const refused = await post(support, `/api/admin/users/${person.user.id}/change-email`, {
        email: ' TAKEN.address@example.com ',
      });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ code: 'already-exists', errors: { email: 'already has an account' } });
      expect((await db()('users').where({ id: person.user.id }).first()).email).toBe('keeps.address@example.com');
      expect({ outbox: await count('outboxEmails'), audit: await count('auditLogs') }).toEqual(before);
      expect((await as(person, request(app()).get('/api/store/me'))).status).toBe(200);

      const notAnEmail = await post(support, `/api/admin/users/${person.user.id}/change-email`, { email: 'nope' });
      expect(notAnEmail.status).toBe(400);
      expect(notAnEmail.body.errors).toHaveProperty('email');
    });

    it('changes it, audited, tells both addresses, signs them out and ends links sent to the old address', async () => {
      const support = await signedIn(db(), ['support']);
      const person = await signedIn(db(), ['learner'], 'old.address@example.com');
      await emailTo('old.address@example.com');
      const link = new URL(
        await issueSignInLink(db(), {
          publicUrl: 'http://localhost:3000',
          email: 'old.address@example.com',
          redirectTo: null,
          now: new Date(),
          lifetimeMs: 60_000,
        }),
      );
      const changed = await post(support, `/api/admin/users/${person.user.id}/change-email`, {
        email: '  New.Address@Example.COM ',
      });
      expect(changed.status).toBe(200);
      expect(changed.body).toEqual({
        id: person.user.id,
        email: 'new.address@example.com',
        previousEmail: 'old.address@example.com',
        signedOut: { sessions: 1, devices: 0 },
      });
      expect(await db()('users').where({ id: person.user.id }).first()).toMatchObject({
        email: 'new.address@example.com',
        emailVerified: null,
      });
      const entry = await AuditLog.query(db()).findOne({ action: 'user.email-changed', recordId: person.user.id });
      expect(entry).toMatchObject({
        actorId: support.user.id,
        before: { email: 'old.address@example.com' },
        after: { email: 'new.address@example.com' },
      });
      const notices = await db()('outboxEmails').whereIn('kind', [
        'email-changed-old-address',
        'email-changed-new-address',
      ]);
      expect(notices.map((n: { toAddress: string }) => n.toAddress).sort()).toEqual([
        'new.address@example.com',
        'old.address@example.com',
      ]);
      expect((await as(person, request(app()).get('/api/store/me'))).status).toBe(401);
      const oldLink = await request(app())
        .post('/api/store/auth/email/consume')
        .send({ email: 'old.address@example.com', token: link.searchParams.get('token') });
      expect(oldLink.status).toBe(400);
      expect(oldLink.body.code).toBe('sign-in-link-invalid');

      // Their page still lists what went to the old address, and Resend sends it to the new one.
      const listed = await as(support, request(app()).get(`/api/admin/users/${person.user.id}/emails`));
      expect(listed.body.data.map((e: { toAddress: string }) => e.toAddress)).toContain('old.address@example.com');
      const refund = listed.body.data.find((e: { kind: string }) => e.kind === 'refund');
      const resent = await post(support, `/api/admin/users/${person.user.id}/emails/${refund.id}/resend`, {
        requestKey: randomUUID(),
      });
      expect(resent.body.email.toAddress).toBe('new.address@example.com');
    });

    it('leaves staff accounts’ addresses to administrators', async () => {
      const support = await signedIn(db(), ['support']);
      const admin = await signedIn(db(), ['admin']);
      const chief = await createUser(db(), { roles: ['admin'], email: 'chief.two@example.com' });
      const refused = await post(support, `/api/admin/users/${chief.id}/change-email`, { email: 'mine@example.com' });
      expect(refused.status).toBe(403);
      expect((await db()('users').where({ id: chief.id }).first()).email).toBe('chief.two@example.com');
      expect(
        (await post(admin, `/api/admin/users/${chief.id}/change-email`, { email: 'chief.new@example.com' })).status,
      ).toBe(200);
    });
  });

  describe('lesson videos', () => {
    const UPLOADS = '/api/admin/uploads/videos';
    const metadata = (fields: Record<string, string>) =>
      Object.entries(fields)
        .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
        .join(',');

    it('are changed by their lesson’s author, support and admins; another contributor gets 403', async () => {
      const author = await signedIn(db(), ['contributor']);
      const other = await signedIn(db(), ['contributor']);
      const support = await signedIn(db(), ['support']);
      const { lessons } = await createCourse(
        db(),
        {
          title: 'Authored',
          modules: [{ title: 'M', sections: [{ title: 'S', lessons: [{ title: 'Mine', body: '<p>Watch</p>' }] }] }],
        },
        { createdById: author.user.id },
      );
      const lesson = lessons[0]!;
      const [video] = await db()('lessonVideos')
        .insert({
          lessonId: lesson.id,
          status: 'failed',
          error: 'ffmpeg could not read the file',
          sourceKey: 'videos/x/source/v1.mp4',
          sourceName: 'a.mp4',
          sourceSize: 10,
        })
        .returning('id');
      const startUpload = (who: SignedIn) =>
        as(who, request(app()).post(UPLOADS))
          .set('Tus-Resumable', '1.0.0')
          .set('Upload-Length', '1000')
          .set('Upload-Metadata', metadata({ lessonId: lesson.id, filename: 'a.mp4', filetype: 'video/mp4' }));
      const caption = { label: 'English', vtt: 'WEBVTT\n\n00:00.000 --> 00:01.000\nHello\n' };

      const refusals = [
        await startUpload(other),
        await as(other, request(app()).put(`/api/admin/videos/${video.id}/captions/en`)).send(caption),
        await as(other, request(app()).post(`/api/admin/videos/${video.id}/retry`)),
        await as(other, request(app()).delete(`/api/admin/videos/${video.id}`)),
      ];
      for (const refused of refusals) {
        expect(refused.status).toBe(403);
        expect(refused.body).toMatchObject({
          code: 'forbidden',
          message: 'Contributors can change only the content they created.',
        });
      }
      expect(await count('videoCaptions')).toBe(0);
      expect((await db()('lessonVideos').where({ id: video.id }).first()).status).toBe('failed');

      const started = await startUpload(author);
      expect(started.status).toBe(201);
      // The author's upload under way is theirs alone to continue.
      const location = started.headers.location!;
      const peek = await as(other, request(app()).head(location)).set('Tus-Resumable', '1.0.0');
      expect(peek.status).toBe(403);
      expect((await as(author, request(app()).head(location)).set('Tus-Resumable', '1.0.0')).status).toBe(200);

      expect(
        (await as(author, request(app()).put(`/api/admin/videos/${video.id}/captions/en`)).send(caption)).status,
      ).toBe(200);
      expect((await as(support, request(app()).post(`/api/admin/videos/${video.id}/retry`))).status).toBe(200);
    });
  });
});
