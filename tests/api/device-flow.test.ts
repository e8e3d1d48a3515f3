import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { AuditLog, DeviceAccessToken, DeviceClient, DeviceVerification } from '../support/models';
import { DEVICE_CODE_GRANT, USER_CODE_ALPHABET, WRONG_CODE_LIMIT } from '../../api/src/identity/devices/device-flow';
import { pruneExpired } from '../../api/src/identity/sign-in/prune';
import { hashSecret } from '../../api/src/identity/secrets';
import { sessions } from '../../api/src/identity/sign-in/sessions';
import { DEVICE_CODE_REQUEST_LIMIT } from '../../api/src/identity/devices/oauth-routes';
import { createServices } from '../../api/src/services';
import { testApp, testConfig, testDeps } from '../support/app';
import { as, signedIn } from '../support/auth';
import { manualClock, onTheHour } from '../support/clock';
import { useTestDatabase } from '../support/db';

const CLIENT = 'course-cli';

describe('device login (RFC 8628)', () => {
  const database = useTestDatabase();
  const db = () => database().db;

  function setup() {
    const clock = manualClock();
    const app = testApp(db(), { clock });
    const codeRequest = () => request(app).post('/oauth/device/code').type('form').send({ client_id: CLIENT });
    const poll = (deviceCode: string, clientId = CLIENT) =>
      request(app)
        .post('/oauth/token')
        .type('form')
        .send({ grant_type: DEVICE_CODE_GRANT, device_code: deviceCode, client_id: clientId });
    return { clock, app, codeRequest, poll };
  }

  it('issues a device code and a user code in the RFC shape', async () => {
    const { codeRequest } = setup();
    const response = await codeRequest();
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = response.body;
    expect(body.user_code).toMatch(new RegExp(`^[${USER_CODE_ALPHABET}]{4}-[${USER_CODE_ALPHABET}]{4}$`));
    expect(body.device_code.length).toBeGreaterThanOrEqual(43);
    expect(body.verification_uri).toBe('http://localhost:3000/activate');
    expect(body.verification_uri_complete).toBe(`http://localhost:3000/activate?user_code=${body.user_code}`);
    expect(body.expires_in).toBe(600);
    expect(body.interval).toBe(5);
    const stored = await DeviceVerification.query(db()).findOne({ userCode: body.user_code.replace('-', '') });
    expect(stored?.deviceCode).not.toBe(body.device_code); // hashed at rest
  });

  it('answers malformed requests with the RFC error bodies', async () => {
    const { app, poll } = setup();
    const json = await request(app).post('/oauth/device/code').send({ client_id: CLIENT });
    expect(json.status).toBe(400);
    expect(json.body.error).toBe('invalid_request');
    const noClient = await request(app).post('/oauth/device/code').type('form').send({});
    expect(noClient.status).toBe(401);
    expect(noClient.body.error).toBe('invalid_client');
    const wrongGrant = await request(app)
      .post('/oauth/token')
      .type('form')
      .send({ grant_type: 'password', client_id: CLIENT });
    expect(wrongGrant.body).toMatchObject({ error: 'unsupported_grant_type' });
    const noCode = await request(app)
      .post('/oauth/token')
      .type('form')
      .send({ grant_type: DEVICE_CODE_GRANT, client_id: CLIENT });
    expect(noCode.body).toMatchObject({ error: 'invalid_request' });
    expect((await poll('unknown-device-code')).body).toMatchObject({ error: 'invalid_grant' });
  });

  it('goes pending → slow_down → approved → token exactly once', async () => {
    const { clock, app, codeRequest, poll } = setup();
    const { device_code, user_code } = (await codeRequest()).body;
    const learner = await signedIn(db());

    const pending = await poll(device_code);
    expect(pending.status).toBe(400);
    expect(pending.body.error).toBe('authorization_pending');
    expect(pending.headers['cache-control']).toBe('no-store');

    clock.advance(2000);
    expect((await poll(device_code)).body.error).toBe('slow_down');
    clock.advance(6000); // the interval is now 10 s
    expect((await poll(device_code)).body.error).toBe('slow_down');
    clock.advance(16000);
    expect((await poll(device_code)).body.error).toBe('authorization_pending');

    const shown = await as(learner, request(app).post('/api/store/device')).send({ userCode: user_code.toLowerCase() });
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ userCode: user_code, clientId: CLIENT });
    expect(
      (await as(learner, request(app).post('/api/store/device/approve')).send({ userCode: user_code })).status,
    ).toBe(200);

    clock.advance(16000);
    expect((await poll(device_code, 'other-client')).body.error).toBe('invalid_grant');
    const granted = await poll(device_code);
    expect(granted.status).toBe(200);
    expect(granted.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer' });
    const token = granted.body.access_token as string;
    expect(await DeviceAccessToken.query(db()).where('token', token).resultSize()).toBe(0); // hashed at rest

    clock.advance(16000);
    expect((await poll(device_code)).body.error).toBe('invalid_grant'); // issued once

    const userinfo = await request(app).get('/oauth/userinfo').set('Authorization', `Bearer ${token}`);
    expect(userinfo.status).toBe(200);
    expect(userinfo.body).toMatchObject({ sub: learner.user.id, email: learner.user.email, roles: ['learner'] });
    const me = await request(app).get('/api/store/me').set('Authorization', `Bearer ${token}`);
    expect(me.body.user.id).toBe(learner.user.id);
    // A device token is not a browser session: no console, no account pages.
    expect((await request(app).get('/api/store/devices').set('Authorization', `Bearer ${token}`)).status).toBe(403);

    const devices = await as(learner, request(app).get('/api/store/devices'));
    expect(devices.body.data).toEqual([expect.objectContaining({ clientId: CLIENT })]);
    const revoke = await as(learner, request(app).delete(`/api/store/devices/${devices.body.data[0].id}`));
    expect(revoke.status).toBe(204);
    const revoked = await request(app).get('/oauth/userinfo').set('Authorization', `Bearer ${token}`);
    expect(revoked.status).toBe(401);
    expect(revoked.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
  });

  it('answers access_denied after the person denies', async () => {
    const { clock, app, codeRequest, poll } = setup();
    const { device_code, user_code } = (await codeRequest()).body;
    const learner = await signedIn(db());
    expect((await as(learner, request(app).post('/api/store/device/deny')).send({ userCode: user_code })).status).toBe(
      200,
    );
    clock.advance(6000);
    expect((await poll(device_code)).body.error).toBe('access_denied');
    const again = await as(learner, request(app).post('/api/store/device/approve')).send({ userCode: user_code });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('device-code-already-used');
  });

  it('answers expired_token after ten minutes, and the page says the code expired', async () => {
    const { clock, app, codeRequest, poll } = setup();
    const { device_code, user_code } = (await codeRequest()).body;
    clock.advance(601_000);
    expect((await poll(device_code)).body.error).toBe('expired_token');
    const learner = await signedIn(db());
    const late = await as(learner, request(app).post('/api/store/device/approve')).send({ userCode: user_code });
    expect(late.status).toBe(410);
    expect(late.body.code).toBe('device-code-expired');
  });

  it('needs a signed-in person to see or approve a code, and limits wrong codes', async () => {
    const { app, codeRequest } = setup();
    const { user_code } = (await codeRequest()).body;
    expect((await request(app).post('/api/store/device/approve').send({ userCode: user_code })).status).toBe(401);

    const guesser = await signedIn(db());
    for (let i = 0; i < WRONG_CODE_LIMIT.max; i++) {
      const wrong = await as(guesser, request(app).post('/api/store/device')).send({ userCode: 'BBBB-BBBB' });
      expect(wrong.status).toBe(404);
      expect(wrong.body.code).toBe('device-code-not-found');
    }
    const limited = await as(guesser, request(app).post('/api/store/device')).send({ userCode: user_code });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    const garbage = await as(await signedIn(db()), request(app).post('/api/store/device')).send({ userCode: '' });
    expect(garbage.status).toBe(400);
  });

  it('limits device-code requests per client address', async () => {
    // The clock stands on the hour, so the limit's fixed window cannot end mid-test.
    const app = testApp(db(), { clock: manualClock(onTheHour()), config: testConfig({ TRUST_PROXY: 'true' }) });
    const codeRequest = (ip: string) =>
      request(app).post('/oauth/device/code').set('X-Forwarded-For', ip).type('form').send({ client_id: CLIENT });
    for (let i = 0; i < DEVICE_CODE_REQUEST_LIMIT.max; i++)
      expect((await codeRequest('198.51.100.77')).status).toBe(200);
    expect((await codeRequest('198.51.100.78')).status).toBe(200);
    const limited = await codeRequest('198.51.100.77');
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });

  /** A device signed in through the whole flow: the code approved by `learner`, the token polled. */
  async function approvedDevice(
    app: ReturnType<typeof testApp>,
    clock: ReturnType<typeof manualClock>,
    learner: Awaited<ReturnType<typeof signedIn>>,
    ip = '198.51.100.1',
  ) {
    const { device_code, user_code } = (
      await request(app).post('/oauth/device/code').set('X-Forwarded-For', ip).type('form').send({ client_id: CLIENT })
    ).body;
    expect(
      (
        await as(learner, request(app).post('/api/store/device/approve'))
          .set('X-Forwarded-For', ip)
          .send({ userCode: user_code })
      ).status,
    ).toBe(200);
    clock.advance(6_000);
    const granted = await request(app)
      .post('/oauth/token')
      .type('form')
      .send({ grant_type: DEVICE_CODE_GRANT, device_code, client_id: CLIENT });
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);
    return granted.body.access_token as string;
  }
  const proxied = (env: Record<string, string> = {}) => {
    const clock = manualClock();
    return { clock, app: testApp(db(), { clock, config: testConfig({ TRUST_PROXY: 'true', ...env }) }) };
  };

  /** The statements that read or change device codes while `work` runs: each one is a code being evaluated. */
  async function codeStatements<T>(work: () => Promise<T>): Promise<{ result: T; selects: number; updates: number }> {
    const seen: string[] = [];
    const watch = (query: { sql: string }) => {
      if (/"device_verifications"/.test(query.sql)) seen.push(query.sql.trimStart().slice(0, 6).toLowerCase());
    };
    db().on('query', watch);
    try {
      const result = await work();
      return {
        result,
        selects: seen.filter((s) => s === 'select').length,
        updates: seen.filter((s) => s === 'update').length,
      };
    } finally {
      db().off('query', watch);
    }
  }

  it('counts every code entry before looking at it: of 40 parallel wrong guesses at most the limit are evaluated', async () => {
    const { app } = proxied();
    const guesser = await signedIn(db());
    const ip = '203.0.113.40';
    const wrong = (i: number) => `BBBB${USER_CODE_ALPHABET[i % 20]}${USER_CODE_ALPHABET[Math.floor(i / 20)]}BB`;
    const { result: answers, selects } = await codeStatements(() =>
      Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          as(guesser, request(app).post('/api/store/device'))
            .set('X-Forwarded-For', ip)
            .send({ userCode: wrong(i) }),
        ),
      ),
    );
    const statuses = JSON.stringify(answers.map((a) => a.status));
    expect(selects, `codes looked up; answers ${statuses}`).toBeLessThanOrEqual(WRONG_CODE_LIMIT.max);
    const evaluated = answers.filter((a) => a.status === 404);
    const refused = answers.filter((a) => a.status === 429);
    expect(evaluated.length + refused.length, statuses).toBe(40);
    expect(evaluated.length).toBeLessThanOrEqual(WRONG_CODE_LIMIT.max);
    expect(evaluated.every((a) => a.body.code === 'device-code-not-found')).toBe(true);
    expect(refused.every((a) => a.body.code === 'rate-limited' && Number(a.headers['retry-after']) > 0)).toBe(true);
    // The next person on the same address is refused too: the address's limit counted the same entries.
    const neighbour = await signedIn(db());
    expect(
      (
        await as(neighbour, request(app).post('/api/store/device'))
          .set('X-Forwarded-For', ip)
          .send({ userCode: 'BCDF-GHJK' })
      ).status,
    ).toBe(429);
  });

  it('decides on at most the limit of 40 wrong approvals and denials that reach the service at the same instant', async () => {
    const services = createServices(testDeps(db()));
    const guesser = (await signedIn(db())).user;
    const wrong = (i: number) => `CCCC${USER_CODE_ALPHABET[i % 20]}${USER_CODE_ALPHABET[Math.floor(i / 20)]}CC`;
    const { result: outcomes, updates } = await codeStatements(() =>
      Promise.allSettled(
        Array.from({ length: 40 }, (_, i) =>
          services.devices[i % 2 ? 'approve' : 'deny']({ userCode: wrong(i), user: guesser, ip: '203.0.113.43' }),
        ),
      ),
    );
    const codes = outcomes.map((o) => (o.status === 'rejected' ? (o.reason as { code?: string }).code : 'accepted'));
    expect(updates, codes.join(',')).toBeLessThanOrEqual(WRONG_CODE_LIMIT.max);
    expect(codes.filter((c) => c === 'device-code-not-found').length, codes.join(',')).toBeLessThanOrEqual(
      WRONG_CODE_LIMIT.max,
    );
    expect(
      codes.filter((c) => c !== 'device-code-not-found').every((c) => c === 'rate-limited'),
      codes.join(','),
    ).toBe(true);
  });

  it('does not count entries of real codes: approving a dozen devices in a row is never limited', async () => {
    const { app, clock } = proxied();
    const learner = await signedIn(db());
    for (let i = 0; i < WRONG_CODE_LIMIT.max + 2; i++) {
      const { user_code } = (
        await request(app)
          .post('/oauth/device/code')
          .set('X-Forwarded-For', `198.51.100.${100 + i}`)
          .type('form')
          .send({ client_id: CLIENT })
      ).body;
      const shown = await as(learner, request(app).post('/api/store/device'))
        .set('X-Forwarded-For', '203.0.113.41')
        .send({ userCode: user_code });
      expect(shown.status, JSON.stringify(shown.body)).toBe(200);
      expect(
        (
          await as(learner, request(app).post('/api/store/device/approve'))
            .set('X-Forwarded-For', '203.0.113.41')
            .send({ userCode: user_code })
        ).status,
      ).toBe(200);
      clock.advance(1000);
    }
  });

  it('refuses an unregistered client_id at the device authorization endpoint, and shows registered names only', async () => {
    const { app } = proxied();
    const unknown = await request(app)
      .post('/oauth/device/code')
      .type('form')
      .send({ client_id: 'Your-Bank-Security-Check' });
    expect(unknown.status).toBe(401);
    expect(unknown.headers['cache-control']).toBe('no-store');
    expect(unknown.body).toEqual({
      error: 'invalid_client',
      error_description: expect.stringContaining('not registered'),
    });
    expect(await DeviceVerification.query(db()).where({ clientId: 'Your-Bank-Security-Check' }).resultSize()).toBe(0);

    // The CLI is registered; /activate and /devices show its registered name.
    expect(await DeviceClient.query(db()).findById(CLIENT)).toMatchObject({ name: 'Course CLI' });
    const learner = await signedIn(db());
    const { user_code } = (await request(app).post('/oauth/device/code').type('form').send({ client_id: CLIENT })).body;
    const shown = await as(learner, request(app).post('/api/store/device'))
      .set('X-Forwarded-For', '203.0.113.42')
      .send({ userCode: user_code });
    expect(shown.body).toMatchObject({ clientId: CLIENT, clientName: 'Course CLI' });

    // Another app, once registered, may ask.
    await DeviceClient.query(db()).insert({ clientId: 'living-room-tv', name: 'Living-room TV app' });
    const tv = await request(app).post('/oauth/device/code').type('form').send({ client_id: 'living-room-tv' });
    expect(tv.status).toBe(200);
    expect(
      (
        await as(learner, request(app).post('/api/store/device'))
          .set('X-Forwarded-For', '203.0.113.42')
          .send({ userCode: tv.body.user_code })
      ).body.clientName,
    ).toBe('Living-room TV app');
  });

  it('ends a device token after DEVICE_TOKEN_IDLE_DAYS unused, and records use at most every ten minutes', async () => {
    const { app, clock } = proxied({ DEVICE_TOKEN_IDLE_DAYS: '30' });
    const learner = await signedIn(db());
    const token = await approvedDevice(app, clock, learner, '198.51.100.50');
    const row = () => DeviceAccessToken.query(db()).findById(hashSecret(token));
    const userinfo = () => request(app).get('/oauth/userinfo').set('Authorization', `Bearer ${token}`);
    const day = 24 * 60 * 60 * 1000;

    expect((await userinfo()).status).toBe(200);
    const firstUse = (await row())!.lastUsedAt!;
    clock.advance(5 * 60 * 1000);
    expect((await userinfo()).status).toBe(200);
    expect((await row())!.lastUsedAt).toEqual(firstUse); // not written again within ten minutes
    clock.advance(29 * day); // used within 30 days: still good, and the idle time starts again
    expect((await userinfo()).status).toBe(200);
    expect((await row())!.lastUsedAt!.getTime()).toBeGreaterThan(firstUse.getTime());
    clock.advance(29 * day);
    expect((await userinfo()).status).toBe(200);

    clock.advance(30 * day + 1000); // 30 days unused: signed out
    const ended = await userinfo();
    expect(ended.status).toBe(401);
    expect(ended.body.code).toBe('invalid-token');
    expect(await row()).toBeUndefined();
  });

  it('prunes device tokens left unused for DEVICE_TOKEN_IDLE_DAYS, and keeps the rest', async () => {
    const learner = await signedIn(db());
    const day = 24 * 60 * 60 * 1000;
    const now = new Date();
    const tokens = [
      { label: 'idle', createdAt: new Date(now.getTime() - 200 * day), lastUsedAt: new Date(now.getTime() - 91 * day) },
      { label: 'never used', createdAt: new Date(now.getTime() - 91 * day), lastUsedAt: null },
      {
        label: 'used lately',
        createdAt: new Date(now.getTime() - 200 * day),
        lastUsedAt: new Date(now.getTime() - 89 * day),
      },
      { label: 'new', createdAt: now, lastUsedAt: null },
    ];
    for (const { label, ...dates } of tokens)
      await DeviceAccessToken.query(db()).insert({
        token: hashSecret(label),
        userId: learner.user.id,
        clientId: CLIENT,
        ...dates,
      });
    const counts = await pruneExpired({ db: db(), clock: { now: () => now }, config: testConfig() });
    expect(counts.deviceAccessTokens).toBe(2);
    expect((await DeviceAccessToken.query(db()).where({ userId: learner.user.id })).map((t) => t.token).sort()).toEqual(
      [hashSecret('used lately'), hashSecret('new')].sort(),
    );
  });

  it('defaults to ending device tokens after 90 days unused, counted from approval when never used', async () => {
    const { app, clock } = proxied();
    const learner = await signedIn(db());
    const token = await approvedDevice(app, clock, learner, '198.51.100.51');
    const listed = await as(learner, request(app).get('/api/store/devices'));
    expect(listed.body.data).toEqual([
      expect.objectContaining({ clientId: CLIENT, clientName: 'Course CLI', lastUsedAt: null }),
    ]);
    const expiresAt = new Date(listed.body.data[0].idleExpiresAt).getTime();
    expect(
      Math.abs(expiresAt - new Date(listed.body.data[0].createdAt).getTime() - 90 * 24 * 60 * 60 * 1000),
    ).toBeLessThan(60_000);
    clock.advance(91 * 24 * 60 * 60 * 1000);
    expect((await request(app).get('/oauth/userinfo').set('Authorization', `Bearer ${token}`)).status).toBe(401);
  });

  it('signs a person out of every other browser and every device from /devices; this browser stays signed in', async () => {
    // With the session cache on, as in production: the ended sessions are forgotten at once.
    const { app, clock } = proxied({ READ_CACHE_MS: '60000' });
    const learner = await signedIn(db());
    const otherBrowser = await signedIn(db(), ['learner']);
    // A second and third browser of the same person.
    const second = { ...learner, ...(await sessionOf(learner.user.id)) };
    const third = { ...learner, ...(await sessionOf(learner.user.id)) };
    const tokens = [
      await approvedDevice(app, clock, learner, '198.51.100.60'),
      await approvedDevice(app, clock, learner, '198.51.100.61'),
    ];
    for (const auth of [learner, second, third])
      expect((await as(auth, request(app).get('/api/store/me'))).status).toBe(200); // now cached

    expect((await as(learner, request(app).get('/api/store/devices'))).body).toMatchObject({
      otherSessions: 2,
      data: [expect.anything(), expect.anything()],
    });
    // A device token cannot do it, nor a request without the CSRF header.
    expect(
      (await request(app).post('/api/store/auth/sign-out-everywhere').set('Authorization', `Bearer ${tokens[0]}`))
        .status,
    ).toBe(403);
    expect((await request(app).post('/api/store/auth/sign-out-everywhere').set('Cookie', learner.cookie)).status).toBe(
      403,
    );

    // A code approved but not yet exchanged for a token would hand one out afterwards: it ends too.
    const pending = (
      await request(app)
        .post('/oauth/device/code')
        .set('X-Forwarded-For', '198.51.100.62')
        .type('form')
        .send({ client_id: CLIENT })
    ).body;
    expect(
      (
        await as(learner, request(app).post('/api/store/device/approve'))
          .set('X-Forwarded-For', '198.51.100.62')
          .send({ userCode: pending.user_code })
      ).status,
    ).toBe(200);

    const done = await as(learner, request(app).post('/api/store/auth/sign-out-everywhere'));
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ sessions: 2, devices: 2 });
    clock.advance(6_000);
    const late = await request(app)
      .post('/oauth/token')
      .type('form')
      .send({ grant_type: DEVICE_CODE_GRANT, device_code: pending.device_code, client_id: CLIENT });
    expect(late.status).toBe(400);
    expect(late.body.error).toBe('expired_token');
    expect((await as(learner, request(app).get('/api/store/me'))).status).toBe(200);
    for (const auth of [second, third]) expect((await as(auth, request(app).get('/api/store/me'))).status).toBe(401);
    for (const token of tokens)
      expect((await request(app).get('/oauth/userinfo').set('Authorization', `Bearer ${token}`)).status).toBe(401);
    expect((await as(learner, request(app).get('/api/store/devices'))).body).toEqual({ otherSessions: 0, data: [] });
    // Someone else's sessions are untouched.
    expect((await as(otherBrowser, request(app).get('/api/store/me'))).status).toBe(200);
  });

  it('lets support sign a person out everywhere from the console, audited; staff accounts only by an administrator', async () => {
    const { app, clock } = proxied({ READ_CACHE_MS: '60000' });
    const support = await signedIn(db(), ['support']);
    const admin = await signedIn(db(), ['admin']);
    const learner = await signedIn(db());
    const second = { ...learner, ...(await sessionOf(learner.user.id)) };
    const token = await approvedDevice(app, clock, learner, '198.51.100.70');
    expect((await as(learner, request(app).get('/api/store/me'))).status).toBe(200);

    const path = `/api/admin/users/${learner.user.id}/sign-out-everywhere`;
    expect((await as(second, request(app).post(path))).status).toBe(403); // not staff
    const done = await as(support, request(app).post(path));
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toEqual({ sessions: 2, devices: 1 });
    for (const auth of [learner, second]) expect((await as(auth, request(app).get('/api/store/me'))).status).toBe(401);
    expect((await request(app).get('/oauth/userinfo').set('Authorization', `Bearer ${token}`)).status).toBe(401);
    const audit = await AuditLog.query(db()).where({ action: 'sign-out-everywhere', recordId: learner.user.id });
    expect(audit).toEqual([
      expect.objectContaining({
        actorId: support.user.id,
        actorEmail: support.user.email,
        resource: 'users',
        before: { sessions: 2, deviceTokens: 1 },
        after: { sessions: 0, deviceTokens: 0 },
      }),
    ]);

    const staff = await signedIn(db(), ['finance']);
    const refused = await as(support, request(app).post(`/api/admin/users/${staff.user.id}/sign-out-everywhere`));
    expect(refused.status).toBe(403);
    expect((await as(staff, request(app).get('/api/store/me'))).status).toBe(200);
    expect((await as(admin, request(app).post(`/api/admin/users/${staff.user.id}/sign-out-everywhere`))).body).toEqual({
      sessions: 1,
      devices: 0,
    });
    expect((await as(staff, request(app).get('/api/store/me'))).status).toBe(401);
    expect(
      (await as(admin, request(app).post('/api/admin/users/00000000-0000-4000-8000-000000000000/sign-out-everywhere')))
        .status,
    ).toBe(404);
  });

  it('never shows a user code to staff in the console, nor finds a device sign-in by it', async () => {
    const { app } = setup();
    const { user_code } = (await request(app).post('/oauth/device/code').type('form').send({ client_id: CLIENT })).body;
    const bare = user_code.replace('-', '');
    for (const roles of [['support'], ['admin']] as const) {
      const staff = await signedIn(db(), [...roles]);
      const list = await as(staff, request(app).get('/api/admin/device-verifications'));
      expect(list.status).toBe(200);
      expect(list.body.length).toBeGreaterThan(0);
      expect(JSON.stringify(list.body)).not.toContain(bare);
      const one = await as(staff, request(app).get(`/api/admin/device-verifications/${list.body[0].id}`));
      expect(one.body).not.toHaveProperty('userCode');
      expect(JSON.stringify(one.body)).not.toContain(bare);
      const search = await as(
        staff,
        request(app).get(`/api/admin/device-verifications?filter=${encodeURIComponent(JSON.stringify({ q: bare }))}`),
      );
      expect(search.status).toBe(200);
      expect(search.body).toEqual([]);
    }
  });

  /** Another browser session of a person: the cookie and CSRF token it holds. */
  async function sessionOf(userId: string) {
    const session = await sessions({ db: db(), clock: { now: () => new Date() } }).create(
      db(),
      userId,
      'another browser',
      'email',
    );
    return { cookie: `lp_session=${session.token}; lp_csrf=${session.csrfToken}`, csrfToken: session.csrfToken };
  }

  it('rejects an unknown bearer token with 401 and WWW-Authenticate', async () => {
    const { app } = setup();
    const response = await request(app).get('/oauth/userinfo').set('Authorization', 'Bearer nope');
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('invalid-token');
    expect((await request(app).get('/oauth/userinfo')).status).toBe(401);
  });
});
