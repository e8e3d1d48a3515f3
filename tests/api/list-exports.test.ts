import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_RESOURCES } from '../../api/src/admin/resources';
import { headersOf } from '../../api/src/http/csv-columns';
import { createCoupon, createProduct, createPurchase, createUser } from '../../seeds/factories';
import { testApp } from '../support/app';
import request from 'supertest';
import { as, signedIn, type SignedIn } from '../support/auth';
import { listExport } from '../support/csv';
import { useTestDatabase } from '../support/db';
import { seedEverything } from '../support/everything';

const BOM = '\uFEFF';
/** An instant as every export writes it: ISO 8601, UTC. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Every record as an object keyed by the header (the byte-order mark checked, then taken off). */
function rowsOf(text: string): Record<string, string>[] {
  expect(text.startsWith(BOM)).toBe(true);
  const [head, ...rows] = parse(text.slice(1)) as string[][];
  return rows.map((row) => Object.fromEntries(head!.map((h, i) => [h, row[i]!])));
}

describe('console list exports as people read them', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const app = () => testApp(db());
  let admin: SignedIn;
  let support: SignedIn;

  /** The export's text as sent, byte-order mark included. */
  const csv = async (who: SignedIn, resource: string, filter?: object): Promise<string> => {
    const answer = await listExport(app(), who, resource, filter ? { filter } : {});
    expect(answer.status, `${resource}: ${String(answer.body).slice(0, 300)}`).toBe(200);
    return answer.body as string;
  };

  beforeAll(async () => {
    await seedEverything(db());
    admin = await signedIn(db(), ['admin']);
    support = await signedIn(db(), ['support']);
  });

  it('every list: a byte-order mark, its declared headers in words, instants in ISO 8601 UTC, no JSON', async () => {
    for (const resource of ADMIN_RESOURCES) {
      const text = await csv(admin, resource.name);
      const [head] = parse(text.slice(1), { to_line: 1 }) as string[][];
      expect(text.startsWith(BOM), resource.name).toBe(true);
      expect(head, resource.name).toEqual(headersOf(resource.export.columns));
      // Headers are words, not the API's field names (createdAt, userId); an abbreviation stays one (VAT ID).
      for (const header of head!)
        expect(header, `${resource.name}: ${header}`).toMatch(/^[A-Z][a-z-]*( ([a-z-]+|[A-Z]{2,}))*$/);
      const rows = rowsOf(text);
      expect(rows.length, `${resource.name} has rows to read`).toBeGreaterThan(0);
      for (const row of rows)
        for (const [header, cell] of Object.entries(row)) {
          const where = `${resource.name} ${header}: ${cell}`;
          expect(cell, where).not.toMatch(/^[[{]/);
          if (/^\d{4}-\d{2}-\d{2}/.test(cell)) expect(cell, where).toMatch(ISO_INSTANT);
        }
    }
  });

  it('the video list, which its own routes serve, the same way', async () => {
    const text = await csv(admin, 'videos');
    const [head] = parse(text.slice(1), { to_line: 1 }) as string[][];
    expect(text.startsWith(BOM)).toBe(true);
    expect(head).toEqual(expect.arrayContaining(['Lesson', 'Status', 'Duration (s)', 'Size (MB)', 'Captions']));
    for (const header of head!) expect(header).toMatch(/^[A-Z][a-z-]*( [a-z-]+)*( \([A-Z%]+\)|( \(s\)))?$/);
  });

  it('purchases: the buyer by email and name (accents intact), the product by name, money in its units', async () => {
    const buyer = await createUser(db(), { email: 'zoe@example.com', name: 'Zoë Ångström-Müller' });
    const product = await createProduct(db(), { name: 'Café TypeScript — Édition' });
    const paid = await createPurchase(db(), { user: buyer, product, totalAmount: 4905, country: 'FR' });
    const inYen = await createPurchase(db(), { user: buyer, product, totalAmount: 4000 });
    await db()('purchases').where({ id: inYen.id }).update({ currency: 'jpy' });

    const rows = rowsOf(await csv(support, 'purchases', { userId: buyer.id }));
    const byId = new Map(rows.map((r) => [r['Purchase id'], r]));
    expect(byId.get(paid.id)).toMatchObject({
      'Buyer email': 'zoe@example.com',
      'Buyer name': 'Zoë Ångström-Müller',
      Product: 'Café TypeScript — Édition',
      Status: 'Valid',
      Paid: '49.05',
      Refunded: '0.00',
      Currency: 'usd',
      Kind: 'Individual',
      Country: 'FR',
    });
    expect(byId.get(paid.id)!.Purchased).toBe(paid.createdAt.toISOString());
    // A zero-decimal currency: 4000 yen are 4000, not 40.00.
    expect(byId.get(inYen.id)).toMatchObject({ Paid: '4000', Refunded: '0', Currency: 'jpy' });
  });

  it('coupons: the code, the discount as a percentage, the product it is for by name', async () => {
    const product = await createProduct(db(), { name: 'Coupon Course' });
    const coupon = await createCoupon(db(), {
      code: 'READABLE25',
      percentageDiscount: 0.25,
      maxUses: -1,
      restrictedToProductId: product.id,
    });
    const [row] = rowsOf(await csv(support, 'coupons', { q: 'READABLE25' }));
    expect(row).toMatchObject({
      Coupon: 'READABLE25',
      Discount: '25%',
      Used: '0',
      'Uses allowed': 'Unlimited',
      Product: 'Coupon Course',
      'Site-wide sale': 'No',
      Status: 'active',
      'Coupon id': coupon.id,
    });
  });

  it('users: email, name and roles in words, the accented name as it was written', async () => {
    const person = await createUser(db(), {
      email: 'francois@example.com',
      name: 'François Ñúñez',
      roles: ['support', 'finance'],
    });
    const [row] = rowsOf(await csv(admin, 'users', { q: 'francois@example.com' }));
    expect(row).toMatchObject({
      Email: 'francois@example.com',
      Name: 'François Ñúñez',
      Roles: 'support, finance',
      Blocked: 'No',
      'Person id': person.id,
    });
    expect(row!.Joined).toMatch(ISO_INSTANT);
  });

  it('refunds: the amount in the charge’s currency, the reason in words, who asked by email', async () => {
    const rows = rowsOf(await csv(support, 'merchant-refunds'));
    const seeded = rows.find((r) => r.Identifier === 're_1');
    expect(seeded).toMatchObject({
      Amount: '9.00',
      Currency: 'usd',
      Reason: 'Requested by the customer',
      Note: 'Asked for a partial refund',
      'Requested by': 'support@example.com',
      Charge: 'ch_1',
    });
    expect(seeded!.Date).toMatch(ISO_INSTANT);
  });

  it('quotes a cell holding a semicolon, so no spreadsheet splits a formula out of it', async () => {
    await createUser(db(), { email: 'semicolon@example.com', name: 'Smith;=cmd|calc!A1' });
    const text = await csv(support, 'users', { q: 'semicolon@example.com' });
    expect(text).toContain(',"Smith;=cmd|calc!A1",');
    expect(rowsOf(text)[0]!.Name).toBe('Smith;=cmd|calc!A1');
    // Read with a semicolon as the separator (a European Excel), the record is not split at the name.
    const line = text.split('\r\n')[1]!;
    expect(line.replace(/"(?:[^"]|"")*"/g, '')).not.toContain(';');
  });

  it('a date filter exports the rows the list shows and counts, whatever Node’s time zone', async () => {
    // In New York 01:30 on 2026-11-01 happens twice (05:30Z, then 06:30Z): the filter's instant is the second.
    const buyer = await createUser(db(), { email: 'autumn-hour@example.com' });
    const product = await createProduct(db(), { name: 'Autumn Hour' });
    const instants = ['2026-11-01T04:59:59.999Z', '2026-11-01T05:30:00.000Z', '2026-11-01T06:30:00.000Z'];
    for (const createdAt of [...instants, '2026-11-01T07:00:00.000Z'])
      await createPurchase(db(), { user: buyer, product, createdAt: new Date(createdAt) });
    const filter = {
      userId: buyer.id,
      createdAt_gte: '2026-11-01T05:30:00.000Z',
      createdAt_lte: '2026-11-01T06:30:00.000Z',
    };
    const sort = ['createdAt', 'ASC'];
    const before = process.env.TZ;
    process.env.TZ = 'America/New_York';
    try {
      const list = await as(
        support,
        request(app())
          .get('/api/admin/purchases')
          .query({ filter: JSON.stringify(filter), sort: JSON.stringify(sort), range: '[0,99]' }),
      );
      expect(list.status).toBe(200);
      const listed = (list.body as { createdAt: string }[]).map((p) => p.createdAt);
      expect(listed).toEqual(instants.slice(1));
      const exported = await listExport(app(), support, 'purchases', { filter, sort });
      expect(exported.status).toBe(200);
      expect(Number(exported.headers['x-total-rows'])).toBe(listed.length);
      expect(rowsOf(exported.body as string).map((r) => r.Purchased)).toEqual(listed);
    } finally {
      if (before === undefined) delete process.env.TZ;
      else process.env.TZ = before;
    }
  });

  it('past ten thousand rows announces the planner’s estimate, marked as one, and still sends every row', async () => {
    // Counting a million rows before the first line held the download back a second: the list's page does not either.
    await db().raw(
      `INSERT INTO users (email, name, roles)
       SELECT 'many-' || i || '@example.com', 'Many ' || i, '{}' FROM generate_series(1, 10050) AS i`,
    );
    await db().raw('ANALYZE users');
    const everyone = await listExport(app(), admin, 'users');
    expect(everyone.status).toBe(200);
    const rows = rowsOf(everyone.body as string).length;
    expect(rows).toBe(Number((await db()('users').count({ n: '*' }))[0]!.n));
    expect(everyone.headers['x-total-estimated']).toBe('true');
    const announced = Number(everyone.headers['x-total-rows']);
    expect(Math.abs(announced - rows) / rows).toBeLessThan(0.2);
    // Up to the cap the count is exact, and said to be.
    const some = await listExport(app(), admin, 'users', { filter: { q: 'many-1005' } });
    expect(some.headers['x-total-estimated']).toBeUndefined();
    expect(Number(some.headers['x-total-rows'])).toBe(rowsOf(some.body as string).length);
    expect(rowsOf(some.body as string).length).toBeGreaterThan(0);
  });
});
