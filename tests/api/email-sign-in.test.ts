import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { Session, User, VerificationToken } from '../support/models';
import { SIGN_IN_LIMITS } from '../../api/src/identity/sign-in/email-sign-in';
import { SESSION_TTL_MS, sessions } from '../../api/src/identity/sign-in/sessions';
import { testApp, testConfig } from '../support/app';
import { as, signedIn } from '../support/auth';
import { manualClock, onTheHour } from '../support/clock';
import { useTestDatabase } from '../support/db';
import { lastEmailTo, tokenFrom } from '../support/outbox';

function cookiesOf(response: request.Response): Record<string, string> {
  const header = response.headers['set-cookie'] as unknown as string[] | undefined;
  return Object.fromEntries((header ?? []).map((c) => [c.split('=')[0]!, c]));
}

describe('email sign-in (magic link)', () => {
  const database = useTestDatabase();
  const db = () => database().db;

  async function requestLink(app: ReturnType<typeof testApp>, email: string, extra: object = {}, ip = '203.0.113.1') {
    return request(app)
      .post('/api/store/auth/email')
      .set('X-Forwarded-For', ip)
      .send({ email, ...extra });
  }

  it('emails a single-use link, stores only its hash, and signs in (creating the account) with Continue', async () => {
    const app = testApp(db());
    const sent = await requestLink(app, ' New.Person@Example.com ', { redirectTo: '/activate?user_code=BCDF-GHJK' });
    expect(sent.status).toBe(202);
    expect(sent.body).toEqual({ status: 'sent', email: 'new.person@example.com' });
    expect(await User.query(db()).where('email', 'new.person@example.com').resultSize()).toBe(0);

    const email = await lastEmailTo(db(), 'new.person@example.com');
    expect(email.kind).toBe('sign-in');
    expect(email.link?.pathname).toBe('/login/continue');
    const { token } = tokenFrom(email.link);
    const stored = await VerificationToken.query(db()).where('identifier', 'new.person@example.com');
    expect(stored).toHaveLength(1);
    expect(stored[0]!.token).not.toBe(token);
    expect(stored[0]!.token).toMatch(/^[0-9a-f]{64}$/);

    const consumed = await request(app)
      .post('/api/store/auth/email/consume')
      .send({ email: 'new.person@example.com', token });
    expect(consumed.status).toBe(200);
    expect(consumed.body.user).toMatchObject({ email: 'new.person@example.com', roles: ['learner'] });
    expect(consumed.body.user.emailVerified).toBeTruthy();
    expect(consumed.body.redirectTo).toBe('/activate?user_code=BCDF-GHJK');
    const cookies = cookiesOf(consumed);
    expect(cookies.lp_session).toMatch(/httponly/i);
    expect(cookies.lp_session).toMatch(/samesite=lax/i);
    expect(cookies.lp_session).not.toMatch(/secure/i);
    expect(cookies.lp_csrf).not.toMatch(/httponly/i);

    const cookie = [cookies.lp_session!.split(';')[0], cookies.lp_csrf!.split(';')[0]].join('; ');
    const me = await request(app).get('/api/store/me').set('Cookie', cookie);
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe('new.person@example.com');
    expect(me.body.csrfToken).toBe(consumed.body.csrfToken);

    const reused = await request(app)
      .post('/api/store/auth/email/consume')
      .send({ email: 'new.person@example.com', token });
    expect(reused.status).toBe(400);
    expect(reused.body.code).toBe('sign-in-link-invalid');
  });

  it('refuses wrong tokens and a token used with another email', async () => {
    const app = testApp(db());
    await requestLink(app, 'someone@example.com');
    const { token } = tokenFrom((await lastEmailTo(db(), 'someone@example.com')).link);
    for (const body of [
      { email: 'someone@example.com', token: 'x'.repeat(43) },
      { email: 'other@example.com', token },
    ]) {
      const response = await request(app).post('/api/store/auth/email/consume').send(body);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('sign-in-link-invalid');
    }
    const missing = await request(app).post('/api/store/auth/email/consume').send({ email: 'someone@example.com' });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toHaveProperty('token');
    // The right pair still works: a wrong guess does not burn the token.
    expect(
      (await request(app).post('/api/store/auth/email/consume').send({ email: 'someone@example.com', token })).status,
    ).toBe(200);
  });

  it('expires links after 15 minutes and deletes them', async () => {
    const clock = manualClock();
    const app = testApp(db(), { clock });
    await requestLink(app, 'late@example.com');
    const { token } = tokenFrom((await lastEmailTo(db(), 'late@example.com')).link);
    clock.advance(15 * 60 * 1000 + 1000);
    const response = await request(app)
      .post('/api/store/auth/email/consume')
      .send({ email: 'late@example.com', token });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('sign-in-link-expired');
    expect(await VerificationToken.query(db()).where('identifier', 'late@example.com').resultSize()).toBe(0);
  });

  it('rejects a malformed address and never redirects off the site', async () => {
    const app = testApp(db());
    const bad = await requestLink(app, 'not-an-email');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'validation-failed', errors: { email: 'must be an email address' } });
    await requestLink(app, 'redirect@example.com', { redirectTo: '//evil.example/x' });
    const { token } = tokenFrom((await lastEmailTo(db(), 'redirect@example.com')).link);
    const consumed = await request(app)
      .post('/api/store/auth/email/consume')
      .send({ email: 'redirect@example.com', token });
    expect(consumed.body.redirectTo).toBe('/');
  });

  it('rate-limits per email (a ceiling over every network) and per IP with 429 and Retry-After', async () => {
    const app = createTrustedApp(db());
    for (let i = 0; i < SIGN_IN_LIMITS.perEmail.max; i++)
      expect((await requestLink(app, 'busy@example.com', {}, `198.51.100.${i}`)).status).toBe(202);
    const limited = await requestLink(app, 'busy@example.com', {}, '198.51.100.99');
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('rate-limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);

    for (let i = 0; i < SIGN_IN_LIMITS.perIp.max; i++) {
      expect((await requestLink(app, `ip-${i}@example.com`, {}, '192.0.2.7')).status).toBe(202);
    }
    const fromIp = await requestLink(app, 'fresh@example.com', {}, '192.0.2.7');
    expect(fromIp.status).toBe(429);
    expect(fromIp.headers['retry-after']).toBeDefined();
    expect((await requestLink(app, 'fresh@example.com', {}, '192.0.2.8')).status).toBe(202);
  });

  it('leaves an address’s owner their sign-in emails while a stranger uses up theirs from another network', async () => {
    const app = createTrustedApp(db());
    const sent = async () =>
      Number((await db()('outboxEmails').where({ toAddress: 'owner@example.com' }).count({ n: '*' }))[0]!.n);
    // A stranger's network, rotating through the addresses of one IPv6 /64: one client network to the limit.
    for (let i = 1; i <= SIGN_IN_LIMITS.perEmailPerNetwork.max; i++)
      expect((await requestLink(app, 'owner@example.com', {}, `2001:db8:7:7::${i}`)).status).toBe(202);
    const stranger = await requestLink(app, 'owner@example.com', {}, '2001:db8:7:7::99');
    expect(stranger.status).toBe(429);
    expect(stranger.body).toMatchObject({
      code: 'rate-limited',
      message: expect.stringContaining('from your network'),
    });
    expect(Number(stranger.headers['retry-after'])).toBeGreaterThan(0);
    expect(await sent()).toBe(SIGN_IN_LIMITS.perEmailPerNetwork.max);

    // The owner, at home: their link is sent.
    expect((await requestLink(app, 'owner@example.com', {}, '203.0.113.77')).status).toBe(202);
    expect(await sent()).toBe(SIGN_IN_LIMITS.perEmailPerNetwork.max + 1);
  });

  it('cannot dodge the per-IP limit by writing its own X-Forwarded-For entries', async () => {
    const app = createTrustedApp(db());
    const spoof = (i: number) =>
      request(app)
        .post('/api/store/auth/email')
        .set('X-Forwarded-For', `10.9.${i}.1, 192.0.2.200`)
        .send({ email: `spoof-${i}@example.com` });
    for (let i = 0; i < SIGN_IN_LIMITS.perIp.max; i++) expect((await spoof(i)).status).toBe(202);
    expect((await spoof(999)).status).toBe(429);
  });

  it('starts a new session at every sign-in; sign-out ends it', async () => {
    const app = testApp(db());
    const signIn = async () => {
      await requestLink(app, 'twice@example.com', {}, '203.0.113.50');
      const { token } = tokenFrom((await lastEmailTo(db(), 'twice@example.com')).link);
      const response = await request(app)
        .post('/api/store/auth/email/consume')
        .send({ email: 'twice@example.com', token });
      const cookies = cookiesOf(response);
      return {
        cookie: [cookies.lp_session!.split(';')[0], cookies.lp_csrf!.split(';')[0]].join('; '),
        csrf: response.body.csrfToken as string,
      };
    };
    const first = await signIn();
    const second = await signIn();
    expect(first.cookie).not.toBe(second.cookie);
    const user = await User.query(db()).findOne({ email: 'twice@example.com' });
    expect(await Session.query(db()).where('userId', user!.id).resultSize()).toBe(2);

    const out = await request(app)
      .post('/api/store/auth/sign-out')
      .set('Cookie', first.cookie)
      .set('X-CSRF-Token', first.csrf);
    expect(out.status).toBe(204);
    expect(cookiesOf(out).lp_session).toMatch(/expires=Thu, 01 Jan 1970/);
    expect((await request(app).get('/api/store/me').set('Cookie', first.cookie)).status).toBe(401);
    expect((await request(app).get('/api/store/me').set('Cookie', second.cookie)).status).toBe(200);
  });

  it('resolves a session cookie to the session and its user, every column as stored', async () => {
    const who = await signedIn(db(), ['learner', 'support']);
    const token = decodeURIComponent(/lp_session=([^;]+)/.exec(who.cookie)![1]!);
    const resolved = await sessions({ db: db(), clock: { now: () => new Date() } }).resolve(token);
    const stored = await User.query(db()).findById(who.user.id);
    expect(resolved!.user).toEqual(stored);
    expect(resolved!.user).toBeInstanceOf(User);
    const session = await Session.query(db()).findById(resolved!.session.id);
    expect(session!.lastSeenAt).not.toBeNull(); // the first use of a session records when it was seen
    expect(resolved!.session).toEqual({ ...session, lastSeenAt: null });
    expect(await sessions({ db: db(), clock: { now: () => new Date() } }).resolve('not-a-token')).toBeNull();
  });

  it('ends sessions after 30 days', async () => {
    const clock = manualClock();
    const app = testApp(db(), { clock });
    const auth = await signedIn(db());
    expect((await as(auth, request(app).get('/api/store/me'))).status).toBe(200);
    clock.advance(SESSION_TTL_MS + 1000);
    const expired = await as(auth, request(app).get('/api/store/me'));
    expect(expired.status).toBe(401);
    expect(await Session.query(db()).where('userId', auth.user.id).resultSize()).toBe(0);
  });

  it('refuses cookie-authenticated changes without the CSRF token', async () => {
    const app = testApp(db());
    const auth = await signedIn(db());
    for (const header of [undefined, 'wrong-token']) {
      const req = request(app).post('/api/store/auth/sign-out').set('Cookie', auth.cookie);
      const response = await (header ? req.set('X-CSRF-Token', header) : req);
      expect(response.status).toBe(403);
      expect(response.body.code).toBe('csrf-token-invalid');
    }
    expect((await as(auth, request(app).get('/api/store/me'))).status).toBe(200);
  });

  it('sets Secure cookies in production', async () => {
    const app = testApp(db(), { config: testConfig({ NODE_ENV: 'production', ALLOW_TEST_PAYMENTS: 'true' }) });
    await request(app).post('/api/store/auth/email').send({ email: 'prod@example.com' });
    const { token } = tokenFrom((await lastEmailTo(db(), 'prod@example.com')).link);
    const response = await request(app)
      .post('/api/store/auth/email/consume')
      .send({ email: 'prod@example.com', token });
    expect(cookiesOf(response).lp_session).toMatch(/secure/i);
  });
});

/**
 * The app behind a trusted proxy, so X-Forwarded-For stands for distinct clients. Its clock stands still on the hour:
 * the limits' fixed windows would otherwise reset whenever a slow run crosses a quarter hour.
 */
function createTrustedApp(db: Parameters<typeof testApp>[0]) {
  return testApp(db, { config: testConfig({ TRUST_PROXY: 'true' }), clock: manualClock(onTheHour()) });
}
