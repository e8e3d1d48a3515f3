import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { DeviceAccessToken, DeviceVerification } from '../../api/src/db/models';
import { DEVICE_CODE_GRANT, USER_CODE_ALPHABET, WRONG_CODE_LIMIT } from '../../api/src/identity/device-flow';
import { DEVICE_CODE_REQUEST_LIMIT } from '../../api/src/identity/oauth-routes';
import { testApp, testConfig } from '../support/app';
import { as, signedIn } from '../support/auth';
import { manualClock } from '../support/clock';
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
      request(app).post('/oauth/token').type('form').send({ grant_type: DEVICE_CODE_GRANT, device_code: deviceCode, client_id: clientId });
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
    const wrongGrant = await request(app).post('/oauth/token').type('form').send({ grant_type: 'password', client_id: CLIENT });
    expect(wrongGrant.body).toMatchObject({ error: 'unsupported_grant_type' });
    const noCode = await request(app).post('/oauth/token').type('form').send({ grant_type: DEVICE_CODE_GRANT, client_id: CLIENT });
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
    expect((await as(learner, request(app).post('/api/store/device/approve')).send({ userCode: user_code })).status).toBe(200);

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
    expect((await as(learner, request(app).post('/api/store/device/deny')).send({ userCode: user_code })).status).toBe(200);
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
    const app = testApp(db(), { config: testConfig({ TRUST_PROXY: 'true' }) });
    const codeRequest = (ip: string) => request(app).post('/oauth/device/code').set('X-Forwarded-For', ip).type('form').send({ client_id: CLIENT });
    for (let i = 0; i < DEVICE_CODE_REQUEST_LIMIT.max; i++) expect((await codeRequest('198.51.100.77')).status).toBe(200);
    expect((await codeRequest('198.51.100.78')).status).toBe(200);
    const limited = await codeRequest('198.51.100.77');
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });

  it('rejects an unknown bearer token with 401 and WWW-Authenticate', async () => {
    const { app } = setup();
    const response = await request(app).get('/oauth/userinfo').set('Authorization', 'Bearer nope');
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('invalid-token');
    expect((await request(app).get('/oauth/userinfo')).status).toBe(401);
  });
});
