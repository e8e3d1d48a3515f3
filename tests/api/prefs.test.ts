import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createResource } from '../../seeds/factories';
import { testApp } from '../support/app';
import { as, signedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';

describe('user preferences', () => {
  const database = useTestDatabase();

  it('reads and writes your own global and per-resource preferences', async () => {
    const app = testApp(database().db);
    const ada = await signedIn(database().db);
    const bo = await signedIn(database().db);
    const lesson = await createResource(database().db, 'lesson', { title: 'A lesson' });

    expect((await as(ada, request(app).get('/api/store/prefs'))).body).toEqual({ type: 'global', fields: {} });
    const saved = await as(ada, request(app).put('/api/store/prefs')).send({
      type: 'global',
      fields: { theme: 'dark', playbackRate: 1.5 },
    });
    expect(saved.status).toBe(200);
    await as(ada, request(app).put('/api/store/prefs')).send({ type: 'global', fields: { theme: 'light' } });
    expect((await as(ada, request(app).get('/api/store/prefs'))).body.fields).toEqual({ theme: 'light' });

    await as(ada, request(app).put('/api/store/prefs')).send({
      type: 'local',
      resourceId: lesson.id,
      fields: { editor: 'vim' },
    });
    const local = await as(ada, request(app).get('/api/store/prefs').query({ type: 'local', resourceId: lesson.id }));
    expect(local.body).toEqual({ type: 'local', resourceId: lesson.id, fields: { editor: 'vim' } });
    expect(
      (await as(bo, request(app).get('/api/store/prefs').query({ type: 'local', resourceId: lesson.id }))).body.fields,
    ).toEqual({});
  });

  it('refuses bad scopes and oversized preferences without writing', async () => {
    const app = testApp(database().db);
    const ada = await signedIn(database().db);
    const noResource = await as(ada, request(app).put('/api/store/prefs')).send({ type: 'local', fields: {} });
    expect(noResource.status).toBe(400);
    expect(noResource.body.errors).toHaveProperty('resourceId');
    const missingResource = await as(ada, request(app).put('/api/store/prefs')).send({
      type: 'local',
      resourceId: '00000000-0000-4000-8000-000000000000',
      fields: { a: 1 },
    });
    expect(missingResource.status).toBe(409);
    expect(missingResource.body.code).toBe('reference-conflict');
    const huge = await as(ada, request(app).put('/api/store/prefs')).send({
      type: 'global',
      fields: { blob: 'x'.repeat(20_000) },
    });
    expect(huge.status).toBe(400);
    expect((await as(ada, request(app).get('/api/store/prefs'))).body.fields).toEqual({});
    expect((await request(app).get('/api/store/prefs')).status).toBe(401);
  });

  it("sets the zone of a person's emails: canonical, kept against a sign-in's offer once chosen, other fields kept", async () => {
    const app = testApp(database().db);
    const ada = await signedIn(database().db);
    const zone = (body: object) => as(ada, request(app).put('/api/store/me/time-zone')).send(body);
    const stored = async () => (await as(ada, request(app).get('/api/store/prefs'))).body.fields;

    expect((await request(app).put('/api/store/me/time-zone').send({ timeZone: 'UTC' })).status).toBe(401);
    const unknown = await zone({ timeZone: 'Mars/Olympus_Mons' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'validation-failed', errors: { timeZone: expect.any(String) } });
    expect(await stored()).toEqual({});

    // The first sign-in offers the device's zone: stored, as nothing was chosen.
    expect((await zone({ timeZone: 'america/new_york', onlyIfUnset: true })).body).toEqual({
      timeZone: 'America/New_York',
    });
    await as(ada, request(app).put('/api/store/prefs')).send({
      type: 'global',
      fields: { ...(await stored()), theme: 'dark' },
    });
    // Chosen in settings; a later sign-in elsewhere offers its own zone and keeps the choice.
    expect((await zone({ timeZone: 'Europe/Berlin' })).body).toEqual({ timeZone: 'Europe/Berlin' });
    expect((await zone({ timeZone: 'Asia/Tokyo', onlyIfUnset: true })).body).toEqual({ timeZone: 'Europe/Berlin' });
    expect(await stored()).toEqual({ theme: 'dark', timeZone: 'Europe/Berlin' });
  });
});
