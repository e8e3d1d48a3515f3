import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { createServices } from '../../api/src/services';
import { readTaxSetup, taxFrom } from '../../api/src/tax/engine';
import { REFERENCE_TAX_RATES, TEST_MERCHANT_ACCOUNT, seedReferenceData } from '../../seeds/reference';
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

    // tax charged anywhere needs the school's tax ID on its invoices: a VAT number in the EU, a tax number elsewhere
    for (const [country, taxId, says] of [
      ['DE', '', /VAT number/],
      ['DE', '   ', /VAT number/],
      ['AU', '', /tax number/],
    ] as const) {
      const withoutId = await put({ taxCountry: country, taxId });
      expect(withoutId.status, `${country} ${JSON.stringify(taxId)}`).toBe(422);
      expect(withoutId.body).toMatchObject({ code: 'tax-id-required', errors: { taxId: expect.stringMatching(says) } });
      expect(Object.keys(withoutId.body.errors)).toEqual(['taxId']);
    }

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
      taxId: 'DE123456789',
      taxInclusiveCurrencies: ['eur'],
    });
    expect(await ask()).toMatchObject({ country: 'DE', rate: 1900, amount: 1_900, inclusive: true });
    expect(await readTaxSetup(db)).toMatchObject({ seller: { country: 'DE', euOss: false } });
  });
});

describe('the tax rate table and registrations in the console', () => {
  const database = useTestDatabase();

  it('are read by finance and administrators, written by administrators only', async () => {
    const { db } = database();
    const app = testApp(db);
    const [admin, finance, support, learner] = await Promise.all([
      signedIn(db, ['admin']),
      signedIn(db, ['finance']),
      signedIn(db, ['support']),
      signedIn(db, ['learner']),
    ]);
    const rate = { country: 'NZ', rateBp: 1500, name: 'GST' };
    for (const path of ['/api/admin/tax-rates', '/api/admin/tax-registrations']) {
      expect((await request(app).get(path)).status, path).toBe(401);
      expect((await as(support, request(app).get(path))).status, path).toBe(403);
      expect((await as(learner, request(app).get(path))).status, path).toBe(403);
      expect((await as(finance, request(app).get(path))).status, path).toBe(200);
      expect((await as(admin, request(app).get(path))).status, path).toBe(200);
    }
    expect((await as(finance, request(app).post('/api/admin/tax-rates')).send(rate)).status).toBe(403);
    expect((await as(finance, request(app).post('/api/admin/tax-registrations')).send({ country: 'NZ' })).status).toBe(
      403,
    );
    expect(await db('taxRates').count()).toEqual([{ count: 0 }]);
  });

  it('take a rate as basis points to a tenth, refuse a bad place or rate field by field, and a second rate for a place', async () => {
    const { db } = database();
    const app = testApp(db);
    const admin = await signedIn(db, ['admin']);
    const post = (body: object) => as(admin, request(app).post('/api/admin/tax-rates')).send(body);

    const quebec = await post({ country: 'ca', region: 'qc', rateBp: 1497.5, name: 'GST + QST' });
    expect(quebec.status, JSON.stringify(quebec.body)).toBe(201);
    expect(quebec.body).toMatchObject({ country: 'CA', region: 'QC', rateBp: 1497.5, name: 'GST + QST' });
    const germany = await post({ country: 'DE', region: '', rateBp: 1900, name: 'VAT' });
    expect(germany.body).toMatchObject({ country: 'DE', region: null, rateBp: 1900 });

    const duplicate = await post({ country: 'DE', rateBp: 1600, name: 'VAT' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toMatchObject({ code: 'already-exists', errors: { country: expect.any(String) } });

    for (const [body, field] of [
      [{ country: 'XX', rateBp: 1900, name: 'VAT' }, 'country'],
      [{ country: 'EU', rateBp: 1900, name: 'VAT' }, 'country'],
      [{ country: 'US', region: 'ZZ', rateBp: 600, name: 'Sales tax' }, 'region'],
      [{ country: 'DE', region: 'BY', rateBp: 1900, name: 'VAT' }, 'region'],
      [{ country: 'US', region: 'WA', rateBp: 650.25, name: 'Sales tax' }, 'rateBp'],
      [{ country: 'US', region: 'WA', rateBp: 5001, name: 'Sales tax' }, 'rateBp'],
      [{ country: 'US', region: 'WA', rateBp: -1, name: 'Sales tax' }, 'rateBp'],
      [{ country: 'US', region: 'WA', rateBp: '6.5', name: 'Sales tax' }, 'rateBp'],
      [{ country: 'US', region: 'WA', rateBp: 650, name: '' }, 'name'],
    ] as const) {
      const refused = await post(body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.code).toBe('validation-failed');
      expect(Object.keys(refused.body.errors), JSON.stringify(body)).toEqual([field]);
    }
    expect(await db('taxRates').count()).toEqual([{ count: 2 }]);

    // its rate and name change; its place does not
    const edited = await as(admin, request(app).put(`/api/admin/tax-rates/${germany.body.id}`)).send({ rateBp: 1600 });
    expect(edited.body).toMatchObject({ country: 'DE', rateBp: 1600 });
    const moved = await as(admin, request(app).put(`/api/admin/tax-rates/${germany.body.id}`)).send({ country: 'AT' });
    expect(moved.status).toBe(400);
    expect(moved.body.errors).toHaveProperty('country');

    // listed with the console's filters
    const listed = await as(admin, request(app).get('/api/admin/tax-rates')).query({ filter: '{"country":"CA"}' });
    expect(listed.headers['content-range']).toBe('tax-rates 0-0/1');
    expect(listed.body.map((r: { region: string }) => r.region)).toEqual(['QC']);
    const searched = await as(admin, request(app).get('/api/admin/tax-rates')).query({ filter: '{"q":"qst"}' });
    expect(searched.body).toHaveLength(1);

    const actions = await db('auditLogs').where({ resource: 'tax-rates' }).orderBy('createdAt').pluck('action');
    expect(actions).toEqual(['create', 'create', 'update']);
    expect((await as(admin, request(app).delete(`/api/admin/tax-rates/${quebec.body.id}`))).status).toBe(200);
    expect(await db('auditLogs').where({ resource: 'tax-rates', action: 'delete' }).count()).toEqual([{ count: 1 }]);
  });

  it('registrations: a country or a US state, once each, removed again; the next quote sees each change at once', async () => {
    const { db } = database();
    const deps = testDeps(db, { config: testConfig({ READ_CACHE_MS: '60000' }) });
    const services = createServices(deps);
    const app = createApp(deps, { services }).callback();
    const admin = await signedIn(db, ['admin']);
    await db('schoolSettings').update({ taxCountry: 'DE', taxEuOss: true });
    await db('taxRates').insert({ country: 'US', region: 'WA', rateBp: 650, name: 'Sales tax' });
    const washington = { country: 'US', region: 'WA', vatId: null };
    const ask = async () =>
      taxFrom(await services.tax.setup.read(), {
        currency: 'usd',
        amount: 10_000,
        inclusive: false,
        buyer: washington,
      });
    expect(await ask()).toBeNull();

    const post = (body: object) => as(admin, request(app).post('/api/admin/tax-registrations')).send(body);
    const registered = await post({ country: 'us', region: 'wa' });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    expect(await ask()).toMatchObject({ country: 'US', region: 'WA', rate: 650, amount: 650 });

    const rate = await db('taxRates').where({ region: 'WA' }).first('id');
    await as(admin, request(app).put(`/api/admin/tax-rates/${rate.id}`)).send({ rateBp: 700 });
    expect(await ask()).toMatchObject({ rate: 700, amount: 700 });

    expect((await post({ country: 'US', region: 'WA' })).status).toBe(409);
    expect((await post({ country: 'GB', region: 'XX' })).body.errors).toHaveProperty('region');
    expect((await post({ country: 'GB' })).status).toBe(201);
    expect(
      (await as(admin, request(app).put(`/api/admin/tax-registrations/${registered.body.id}`)).send({})).status,
    ).toBe(405);

    expect((await as(admin, request(app).delete(`/api/admin/tax-registrations/${registered.body.id}`))).status).toBe(
      200,
    );
    expect(await ask()).toBeNull();
    const actions = await db('auditLogs').where({ resource: 'tax-registrations' }).orderBy('createdAt').pluck('action');
    expect(actions).toEqual(['create', 'create', 'delete']);
  });

  it('start from the reference rates: added once per edition, never over the school’s edits; a deleted place comes back with the next, a 0 % rate stands', async () => {
    const { db } = database();
    await db('taxRates').del();
    await db('taxRates').insert({ country: 'DE', region: null, rateBp: 1600, name: 'MwSt' });
    await Promise.all([seedReferenceData(db), seedReferenceData(db)]);
    // two starts at once on a new database: both create the test merchant account, neither fails on it
    for (let start = 0; start < 5; start++) {
      await db('merchantAccounts').where(TEST_MERCHANT_ACCOUNT).del();
      await Promise.all([seedReferenceData(db), seedReferenceData(db), seedReferenceData(db)]);
      expect(await db('merchantAccounts').where(TEST_MERCHANT_ACCOUNT).count()).toEqual([{ count: 1 }]);
    }
    const rows = await db('taxRates').select('country', 'region', 'rateBp', 'name');
    expect(rows).toHaveLength(REFERENCE_TAX_RATES.rates.length);
    expect(rows.find((r) => r.country === 'DE')).toEqual({ country: 'DE', region: null, rateBp: 1600, name: 'MwSt' });
    expect(rows.find((r) => r.country === 'CA' && r.region === 'QC')).toMatchObject({ rateBp: 1497.5 });
    expect(rows.find((r) => r.country === 'FR')).toMatchObject({ rateBp: 2000, name: 'VAT' });

    // the school deletes a rate and edits another: the next start keeps both
    await db('taxRates').where({ country: 'FR' }).del();
    await db('taxRates').where({ country: 'GB' }).update({ rateBp: 0 });
    await seedReferenceData(db);
    expect(await db('taxRates').where({ country: 'FR' }).first()).toBeUndefined();
    expect(await db('taxRates').where({ country: 'GB' }).first('rateBp')).toEqual({ rateBp: 0 });
    expect(await db('taxRates').count()).toEqual([{ count: REFERENCE_TAX_RATES.rates.length - 1 }]);

    // the next edition of the data adds the deleted place again; a rate of 0 % stands, and taxes nothing
    await db('seedRuns')
      .where({ name: `tax-rates ${REFERENCE_TAX_RATES.asOf}` })
      .del();
    await seedReferenceData(db);
    expect(await db('taxRates').where({ country: 'FR' }).first('rateBp', 'name')).toEqual({
      rateBp: 2000,
      name: 'VAT',
    });
    expect(await db('taxRates').where({ country: 'GB' }).first('rateBp')).toEqual({ rateBp: 0 });
    expect(await db('taxRates').where({ country: 'DE' }).first('rateBp')).toEqual({ rateBp: 1600 });
    await db('schoolSettings').update({ taxCountry: 'GB', taxId: 'GB123456789', taxEuOss: false });
    const question = { currency: 'gbp', amount: 12_000, inclusive: true } as const;
    const setup = await readTaxSetup(db);
    expect(taxFrom(setup, { ...question, buyer: { country: 'GB', region: null, vatId: null } })).toBeNull();
    await db('taxRates').where({ country: 'GB' }).update({ rateBp: 2000 });
    expect(
      taxFrom(await readTaxSetup(db), { ...question, buyer: { country: 'GB', region: null, vatId: null } }),
    ).toMatchObject({ country: 'GB', rate: 2000, amount: 2_000 });
  });
});
