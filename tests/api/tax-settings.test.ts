import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { createServices } from '../../api/src/services';
import { readTaxSetup, taxFrom } from '../../api/src/tax/engine';
import { testApp, testConfig, testDeps } from '../support/app';
import { as, signedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';

/** The settings page sends every field back; the tax fields ride along. */
const SCHOOL = {
  name: 'Northwind Academy',
  legalName: 'Northwind Learning GmbH',
  address: 'Hauptstraße 5\n10115 Berlin\nGermany',
  supportEmail: 'help@northwind.example',
  accentColor: '#0f766e',
  termsHtml: '<p>Terms</p>',
  privacyHtml: '<p>Privacy</p>',
};

const GERMAN_CONSUMER = { country: 'DE', region: null, vatId: null };

describe("the school's tax settings", () => {
  const database = useTestDatabase();

  it('start with no tax anywhere, and are set by an administrator: normalised, deduplicated, audited', async () => {
    const { db } = database();
    const app = testApp(db);
    const admin = await signedIn(db, ['admin']);
    const start = await as(admin, request(app).get('/api/admin/school'));
    expect(start.body).toMatchObject({ taxCountry: null, taxId: '', taxEuOss: false, taxInclusiveCurrencies: [] });

    const saved = await as(admin, request(app).put('/api/admin/school')).send({
      ...SCHOOL,
      taxCountry: 'de',
      taxId: 'de 123.456.789',
      taxEuOss: true,
      taxInclusiveCurrencies: ['EUR', 'eur', ' gbp '],
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toMatchObject({
      taxCountry: 'DE',
      taxId: 'DE123456789',
      taxEuOss: true,
      taxInclusiveCurrencies: ['eur', 'gbp'],
    });
    // what invoices print is public, as the school's name is
    expect((await request(app).get('/api/store/school')).body).toMatchObject({ taxId: 'DE123456789' });

    const audit = await db('auditLogs').where({ resource: 'school', action: 'update' }).orderBy('createdAt').first();
    expect(audit.before).toMatchObject({ taxCountry: null, taxId: '', taxEuOss: false, taxInclusiveCurrencies: [] });
    expect(audit.after).toMatchObject({ taxCountry: 'DE', taxId: 'DE123456789', taxEuOss: true });

    // the fields left out keep their values; an unchanged save records no tax change
    const again = await as(admin, request(app).put('/api/admin/school')).send(SCHOOL);
    expect(again.body).toMatchObject({ taxCountry: 'DE', taxEuOss: true, taxInclusiveCurrencies: ['eur', 'gbp'] });
    const last = await db('auditLogs')
      .where({ resource: 'school', action: 'update' })
      .orderBy('createdAt', 'desc')
      .first();
    expect(Object.keys(last.after)).not.toContain('taxCountry');

    // a school outside the EU and the UK writes its tax number as it is
    const australian = await as(admin, request(app).put('/api/admin/school')).send({
      ...SCHOOL,
      taxCountry: 'AU',
      taxId: 'ABN 51 824 753 556',
    });
    expect(australian.body).toMatchObject({ taxCountry: 'AU', taxId: 'ABN 51 824 753 556' });
  });

  it('refuse bad input field by field and change nothing', async () => {
    const { db } = database();
    const app = testApp(db);
    const admin = await signedIn(db, ['admin']);
    const before = (await as(admin, request(app).get('/api/admin/school'))).body;
    const put = (body: object) => as(admin, request(app).put('/api/admin/school')).send({ ...SCHOOL, ...body });

    const shapes = await put({ taxCountry: 'XX', taxEuOss: 'yes', taxInclusiveCurrencies: ['euro'] });
    expect(shapes.status).toBe(400);
    expect(shapes.body.code).toBe('validation-failed');
    expect(Object.keys(shapes.body.errors).sort()).toEqual(['taxCountry', 'taxEuOss', 'taxInclusiveCurrencies.0']);
    for (const country of ['EU', 'UK', 'DEU']) expect((await put({ taxCountry: country })).status, country).toBe(400);

    const wrongId = await put({ taxCountry: 'DE', taxId: 'DE12345' });
    expect(wrongId.status).toBe(400);
    expect(wrongId.body.errors).toEqual({ taxId: expect.stringMatching(/VAT number/) });
    const otherCountry = await put({ taxCountry: 'DE', taxId: 'FR40303265045' });
    expect(otherCountry.body.errors).toEqual({ taxId: expect.stringMatching(/another country/) });
    const ossWithoutCountry = await put({ taxCountry: null, taxEuOss: true });
    expect(ossWithoutCountry.body.errors).toEqual({ taxEuOss: expect.any(String) });

    expect((await as(admin, request(app).get('/api/admin/school'))).body).toEqual(before);
  });

  it('are seen by the next quote on this replica at once, though its tax setup is cached', async () => {
    const { db } = database();
    const deps = testDeps(db, { config: testConfig({ READ_CACHE_MS: '60000' }) });
    const services = createServices(deps);
    const app = createApp(deps, { services }).callback();
    const admin = await signedIn(db, ['admin']);
    await db('schoolSettings').update({ taxCountry: null, taxEuOss: false, taxId: '', taxInclusiveCurrencies: [] });
    await db('taxRates').insert({ country: 'DE', region: null, rateBp: 1900, name: 'VAT' });
    const ask = async () =>
      taxFrom(await services.tax.setup.read(), {
        currency: 'eur',
        amount: 11_900,
        inclusive: await services.tax.setup.inclusive('EUR'),
        buyer: GERMAN_CONSUMER,
      });
    expect(await ask()).toBeNull(); // read, and kept in the cache
    await db('schoolSettings').update({ taxCountry: 'DE' }); // another replica's change: not seen yet
    expect(await ask()).toBeNull();
    await as(admin, request(app).put('/api/admin/school')).send({
      ...SCHOOL,
      taxCountry: 'DE',
      taxInclusiveCurrencies: ['eur'],
    });
    expect(await ask()).toMatchObject({ country: 'DE', rate: 1900, amount: 1_900, inclusive: true });
    expect(await readTaxSetup(db)).toMatchObject({ seller: { country: 'DE', euOss: false } });
  });
});
