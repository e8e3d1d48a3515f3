import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_PAGE_SIZE } from '../../api/src/list-query/schemas';
import type { AdminResource } from '../../api/src/admin/resource';
import { ADMIN_RESOURCES } from '../../api/src/admin/resources';
import { testApp } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';
import { PLANTED_SECRET_FORMS, seedEverything } from '../support/everything';

type Row = Record<string, unknown>;
/** Resources whose ids are neither uuids nor numbers: an unknown id of the right shape, and a malformed one. */
const OWN_ID_SHAPES: Record<string, [unknown: string, malformed: string]> = {
  certificates: ['ZZZZZZZZZZZZ', '123'],
  'month-closes': ['1999-12', '1999-13'],
};
/** Resources whose collection takes a POST of its own (an action, not the generic create): a bad body is a 400. */
const OWN_POST_AT_COLLECTION = new Set(['month-closes']); // closing a month: POST { month }
const SECRET_KEYS = [
  'token',
  'sessionToken',
  'csrfToken',
  'deviceCode',
  'accessToken',
  'refreshToken',
  'idToken',
  'oauthToken',
  'oauthTokenSecret',
  'codeVerifier',
  'secret',
];

/** The console's contract (ra-data-simple-rest), checked the same way for every resource. */
describe('the console REST contract, for every resource', () => {
  const database = useTestDatabase();
  let admin: SignedIn;
  // One app for the file's few thousand requests, as a server has: building one costs tens of milliseconds.
  let handler: ReturnType<typeof testApp> | undefined;
  const app = () => (handler ??= testApp(database().db));
  const get = (path: string, query: Record<string, unknown> = {}) =>
    as(admin, request(app()).get(path)).query(
      Object.fromEntries(Object.entries(query).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])),
    );

  beforeAll(async () => {
    await seedEverything(database().db);
    admin = await signedIn(database().db, ['admin']);
  });

  it('has a resource for every entity of the data model, plus team purchases, the job queue, the audit log and the saved pricing scenarios', () => {
    expect(ADMIN_RESOURCES.map((r) => r.name).sort()).toEqual(
      [
        'accounts',
        'audit-logs',
        'bookmarks',
        'bulk-purchases',
        'certificates',
        'comments',
        'content-resource-resources',
        'content-resources',
        'coupons',
        'device-access-tokens',
        'device-verifications',
        'invoices',
        'jobs',
        'lesson-progress',
        'merchant-accounts',
        'merchant-charges',
        'merchant-coupons',
        'merchant-customers',
        'merchant-disputes',
        'merchant-prices',
        'merchant-products',
        'merchant-refunds',
        'merchant-sessions',
        'month-closes',
        'outbox-emails',
        'payment-plans',
        'payout-recipients',
        'payouts',
        'prices',
        'pricing-scenarios',
        'product-content-resources',
        'product-revenue-splits',
        'products',
        'purchase-user-transfers',
        'purchases',
        'quiz-attempts',
        'sessions',
        'subscription-periods',
        'subscriptions',
        'tax-rates',
        'tax-registrations',
        'upgradable-products',
        'user-prefs',
        'users',
        'verification-tokens',
        'waitlist-entries',
        'workshop-sessions',
      ].sort(),
    );
  });

  describe.each(ADMIN_RESOURCES.map((r) => [r.name, r] as const))('%s', (name, resource: AdminResource) => {
    let rows: Row[];
    beforeAll(async () => {
      const response = await get(`/api/admin/${name}`, { range: [0, MAX_PAGE_SIZE - 1] });
      expect(response.status).toBe(200);
      rows = response.body;
      expect(rows.length, `the fixture has ${name}`).toBeGreaterThan(0);
    });

    it('pages with Content-Range and caps the range', async () => {
      const first = await get(`/api/admin/${name}`, { range: [0, 0] });
      expect(first.body).toHaveLength(1);
      expect(first.headers['content-range']).toBe(`${name} 0-0/${rows.length}`);
      const beyond = await get(`/api/admin/${name}`, { range: [rows.length + 5, rows.length + 9] });
      expect(beyond.body).toEqual([]);
      expect(beyond.headers['content-range']).toBe(`${name} */${rows.length}`);
      expect((await get(`/api/admin/${name}`, { range: [0, MAX_PAGE_SIZE] })).status).toBe(400);
    });

    it('sorts by each sortable field, both ways', async () => {
      for (const field of resource.sortable) {
        for (const order of ['ASC', 'DESC'] as const) {
          const response = await get(`/api/admin/${name}`, { sort: [field, order], range: [0, MAX_PAGE_SIZE - 1] });
          expect(response.status, `${field} ${order}`).toBe(200);
          const values = (response.body as Row[]).map((r) => r[field]).filter((v) => v !== null && v !== undefined);
          const sorted = [...values].sort((a, b) => compare(a, b) * (order === 'ASC' ? 1 : -1));
          if (field !== 'title') expect(values, `${name} by ${field} ${order}`).toEqual(sorted);
        }
      }
    });

    it('filters by every filterable field, by id list, and by ranges', async () => {
      const sample = rows[0]!;
      for (const [field, kind] of Object.entries(resource.filterable)) {
        const value = valueOf(sample, field);
        if (value === null || value === undefined) {
          // No sample value to match: the filter must still be a valid query (never a 500).
          const probe = {
            id: '00000000-0000-4000-8000-000000000000',
            text: 'x',
            enum: 'x',
            role: 'admin',
            number: 1,
            date: '2026-01-01',
            boolean: true,
          }[kind];
          const response = await get(`/api/admin/${name}`, { filter: { [field]: probe } });
          expect(response.status, `${name} ${field}`).toBe(200);
          continue;
        }
        if (kind === 'number' || kind === 'date') {
          const within = await get(`/api/admin/${name}`, {
            filter: { [`${field}_gte`]: value, [`${field}_lte`]: value },
            range: [0, MAX_PAGE_SIZE - 1],
          });
          expect(within.status, field).toBe(200);
          expect(
            within.body.map((r: Row) => r.id),
            `${name} ${field} range`,
          ).toContain(sample.id);
        } else {
          const filterValue = kind === 'role' ? (value as string[])[0] : value;
          const matched = await get(`/api/admin/${name}`, {
            filter: { [field]: filterValue },
            range: [0, MAX_PAGE_SIZE - 1],
          });
          expect(matched.status, field).toBe(200);
          expect(
            matched.body.map((r: Row) => r.id),
            `${name} ${field}`,
          ).toContain(sample.id);
          for (const row of matched.body as Row[]) {
            if (kind === 'role') expect(valueOf(row, field)).toContain(filterValue);
            else expect(valueOf(row, field), `${name} ${field}`).toEqual(value);
          }
        }
      }
      const many = await get(`/api/admin/${name}`, { filter: { id: rows.slice(0, 2).map((r) => r.id) } });
      expect(many.body.map((r: Row) => r.id).sort()).toEqual(
        rows
          .slice(0, 2)
          .map((r) => r.id)
          .sort(),
      );
    });

    it('searches with q where it has text search, and says so where it has none', async () => {
      if (!resource.searchable.length) {
        expect((await get(`/api/admin/${name}`, { filter: { q: 'x' } })).status).toBe(400);
        return;
      }
      const sample = rows.find((r) =>
        resource.searchable.some((f) => typeof valueOf(r, f) === 'string' && (valueOf(r, f) as string).length >= 3),
      );
      if (!sample) return;
      const field = resource.searchable.find(
        (f) => typeof valueOf(sample, f) === 'string' && (valueOf(sample, f) as string).length >= 3,
      )!;
      const text = (valueOf(sample, field) as string).slice(0, 3).toUpperCase();
      const found = await get(`/api/admin/${name}`, { filter: { q: text }, range: [0, MAX_PAGE_SIZE - 1] });
      expect(found.body.map((r: Row) => r.id)).toContain(sample.id);
    });

    it('refuses unknown sort and filter fields and malformed parameters with a 400', async () => {
      for (const query of [
        { sort: ['nope', 'ASC'] },
        { filter: { nope: 1 } },
        { filter: '{broken' },
        { range: '[5,1]' },
        { sort: '["id"]' },
      ]) {
        const response = await get(`/api/admin/${name}`, query);
        expect(response.status, JSON.stringify(query)).toBe(400);
        expect(response.body.code).toBe('validation-failed');
        expect(response.body.message).not.toMatch(/\bselect\b|\bsql\b|syntax|relation/i);
      }
    });

    it('answers one record by id; 404 for an unknown id; 400 for a malformed one', async () => {
      const sample = rows[0]!;
      const one = await get(`/api/admin/${name}/${sample.id}`);
      expect(one.status).toBe(200);
      expect(one.body.id).toEqual(sample.id);
      const numeric = resource.filterable.id === 'number';
      const [unknown, malformed] =
        OWN_ID_SHAPES[name] ?? (numeric ? ['999999999', 'abc'] : ['00000000-0000-4000-8000-000000000000', '123']);
      expect((await get(`/api/admin/${name}/${unknown}`)).status).toBe(404);
      expect((await get(`/api/admin/${name}/${malformed}`)).status).toBe(400);
    });

    it('never returns secrets or their hashes', async () => {
      const text = JSON.stringify(rows);
      for (const row of rows) for (const key of SECRET_KEYS) expect(row, `${name}.${key}`).not.toHaveProperty(key);
      for (const secret of PLANTED_SECRET_FORMS) expect(text).not.toContain(secret);
    });

    it('offers only the operations it defines', async () => {
      const sample = rows[0]!;
      const path = `/api/admin/${name}`;
      if (!resource.create)
        expect((await as(admin, request(app()).post(path)).send({})).status).toBe(
          OWN_POST_AT_COLLECTION.has(name) ? 400 : 405,
        );
      if (!resource.update)
        expect((await as(admin, request(app()).put(`${path}/${sample.id}`)).send({})).status).toBe(405);
      if (!resource.remove) expect((await as(admin, request(app()).delete(`${path}/${sample.id}`))).status).toBe(405);
    });

    it('refuses changed read-only fields and unknown fields on update, and accepts the record sent back unchanged', async () => {
      if (!resource.update) return;
      const sample = (await get(`/api/admin/${name}/${rows[0]!.id}`)).body as Row;
      const unchanged = await as(admin, request(app()).put(`/api/admin/${name}/${sample.id}`)).send(sample);
      expect(unchanged.status, JSON.stringify(unchanged.body)).toBe(200);
      expect(unchanged.body).toEqual(sample); // nothing written, not even updatedAt
      const readOnly = 'id' in sample && 'createdAt' in sample ? 'createdAt' : 'id';
      const changed = await as(admin, request(app()).put(`/api/admin/${name}/${sample.id}`)).send({
        ...sample,
        [readOnly]: '2001-01-01T00:00:00.000Z',
      });
      expect(changed.status).toBe(400);
      expect(changed.body.errors).toEqual({ [readOnly]: 'is read-only' });
      const unknown = await as(admin, request(app()).put(`/api/admin/${name}/${sample.id}`)).send({ notAField: 1 });
      expect(unknown.status).toBe(400);
      expect(unknown.body.errors).toHaveProperty('notAField');
    });
  });
});

function valueOf(row: Row, field: string): unknown {
  if (field === 'title' || field === 'slug' || field === 'state')
    return (row.fields as Row | undefined)?.[field] ?? row[field];
  if (field === 'resourceId' && row.context) return (row.context as Row).resourceId ?? row[field];
  return row[field];
}

function compare(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}
