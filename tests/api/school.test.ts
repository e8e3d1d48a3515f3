import sharp from 'sharp';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { testApp } from '../support/app';
import { as, signedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';

const SETTINGS = {
  name: 'Northwind Academy',
  legalName: 'Northwind Learning GmbH',
  address: '  Hauptstraße 5 \n\n 10115 Berlin\nGermany ',
  supportEmail: 'Help@Northwind.example',
  accentColor: '#0F766E',
  termsHtml: '<h2>Terms</h2><p>Refunds within 30 days.</p><script>alert(1)</script>',
  privacyHtml: '<p onclick="steal()">We keep what the law asks.</p>',
};

describe("the school's settings", () => {
  const database = useTestDatabase();

  it('start with a neutral name, and are read by anyone from the storefront', async () => {
    const app = testApp(database().db);
    const school = await request(app).get('/api/store/school');
    expect(school.status).toBe(200);
    expect(school.body).toMatchObject({ name: 'Courses', supportEmail: null, logo: null, accentColor: '#1d4ed8' });
  });

  it('are changed by an administrator: trimmed, lower-cased, sanitised, audited, and shown at once', async () => {
    const { db } = database();
    const app = testApp(db);
    const admin = await signedIn(db, ['admin']);
    const saved = await as(admin, request(app).put('/api/admin/school')).send(SETTINGS);
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      name: 'Northwind Academy',
      address: 'Hauptstraße 5\n10115 Berlin\nGermany',
      supportEmail: 'help@northwind.example',
      accentColor: '#0f766e',
    });
    expect(saved.body.termsHtml).toBe('<h2>Terms</h2><p>Refunds within 30 days.</p>');
    expect(saved.body.privacyHtml).toBe('<p>We keep what the law asks.</p>');
    expect((await request(app).get('/api/store/school')).body.name).toBe('Northwind Academy');

    const audit = await db('auditLogs').where({ resource: 'school', action: 'update' }).first();
    expect(audit).toMatchObject({ actorId: admin.user.id, recordId: '1' });
    expect(audit.after).toMatchObject({ name: 'Northwind Academy', supportEmail: 'help@northwind.example' });
    expect(audit.before).toMatchObject({ name: 'Courses', supportEmail: null });
  });

  it('refuse bad input field by field and change nothing; only administrators may change them', async () => {
    const { db } = database();
    const app = testApp(db);
    const admin = await signedIn(db, ['admin']);
    const before = (await request(app).get('/api/store/school')).body;
    const bad = await as(admin, request(app).put('/api/admin/school')).send({
      ...SETTINGS,
      name: '   ',
      supportEmail: 'not an email',
      accentColor: 'teal',
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['accentColor', 'name', 'supportEmail']);
    expect((await request(app).get('/api/store/school')).body).toEqual(before);

    for (const roles of [['support'], ['finance'], ['learner']] as const) {
      const someone = await signedIn(db, [...roles]);
      expect((await as(someone, request(app).put('/api/admin/school')).send(SETTINGS)).status).toBe(403);
    }
    expect((await request(app).put('/api/admin/school').send(SETTINGS)).status).toBe(401);
  });

  it('take a logo upload, served at the header width, and its removal', async () => {
    const { db } = database();
    const app = testApp(db);
    const admin = await signedIn(db, ['admin']);
    const png = await sharp({ create: { width: 640, height: 160, channels: 4, background: '#0f766e' } })
      .png()
      .toBuffer();
    const uploaded = await as(admin, request(app).put('/api/admin/school/logo')).attach('file', png, {
      filename: 'logo.png',
      contentType: 'image/png',
    });
    expect(uploaded.status).toBe(200);
    expect(uploaded.body.logo).toMatchObject({ width: 640, height: 160 });
    const { logo } = (await request(app).get('/api/store/school')).body;
    expect(logo.src).toMatch(/^\/media\/images\/.+\?w=320$/);
    const served = await request(app).get(logo.src).buffer(true);
    expect(served.status).toBe(200);
    expect((await sharp(served.body).metadata()).width).toBe(320);

    const removed = await as(admin, request(app).delete('/api/admin/school/logo'));
    expect(removed.body.logo).toBeNull();
    expect((await db('auditLogs').where({ resource: 'school', action: 'remove-image' })).length).toBe(1);
  });
});
