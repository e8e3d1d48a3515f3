import type pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { listExportSelection, listExports } from '../../api/src/admin/lists/export';
import { adminService } from '../../api/src/admin/records/service';
import { ADMIN_RESOURCES } from '../../api/src/admin/resources';
import type { AdminResource, Row } from '../../api/src/admin/resource';
import { csvHead } from '../../api/src/http/csv';
import { csvRowLine, headersOf } from '../../api/src/http/csv-columns';
import { parseListQuery } from '../../api/src/list-query/schemas';
import { createLogger } from '../../api/src/logger';
import { sqlCells } from '../../api/src/admin/lists/sql-cells';
import { createCoupon, createProduct, createPurchase, createUser } from '../../seeds/factories';
import { testApp } from '../support/app';
import { signedIn, type SignedIn } from '../support/auth';
import { csvRecords, listExport } from '../support/csv';
import { useTestDatabase } from '../support/db';
import { seedEverything } from '../support/everything';

/**
 * The exports' bytes, held two ways: a purchases export of awkward data written out in full, and every list's export
 * against the plain reading of its rule (each row built as the list's model, shown for its reader as the list's JSON
 * has it, written by the resource's columns), so a faster writer cannot change a byte unseen.
 */
describe('console list exports, byte for byte', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const app = () => testApp(db());
  let admin: SignedIn;

  const exported = async (resource: string, query: Record<string, unknown> = {}): Promise<string> => {
    const answer = await listExport(app(), admin, resource, query);
    expect(answer.status, `${resource}: ${String(answer.body).slice(0, 300)}`).toBe(200);
    return answer.body as string;
  };

  /** The export as its rule reads: the list's rows through the model and its JSON, then the columns. */
  async function reference(resource: AdminResource): Promise<string> {
    const reader = { id: admin.user.id, email: admin.user.email, roles: ['admin'] as const };
    const services = adminService({ db: db() });
    const { rows, looked } = listExportSelection(db(), services, resource, parseListQuery(resource, {}), reader);
    const pool = db().client as { acquireConnection(): Promise<pg.Client>; releaseConnection(c: pg.Client): void };
    const connection = await pool.acquireConnection();
    try {
      const result = await connection.query(rows.sql, [...rows.bindings]);
      // Keyed as the application's connection keys rows (snake_case columns as camelCase fields).
      const camelCased = (db().client.config as { postProcessResponse(rows: Row[]): Row[] }).postProcessResponse;
      const lines = camelCased(result.rows as Row[]).map((row) => {
        const joined = looked.map((name) => {
          const value = row[name];
          delete row[name];
          return value;
        });
        const record = resource.model.fromDatabaseJson(row) as unknown as Row;
        const shown = JSON.parse(JSON.stringify(services.shown(resource, record, reader))) as Row;
        looked.forEach((name, i) => (shown[name] = joined[i]));
        return csvRowLine(resource.export.columns, shown);
      });
      return csvHead(headersOf(resource.export.columns)) + lines.join('');
    } finally {
      pool.releaseConnection(connection);
    }
  }

  beforeAll(async () => {
    await seedEverything(db());
    admin = await signedIn(db(), ['admin']);
  });

  it('purchases of awkward data: formulas neutralised, quotes, line breaks, edge spaces, dates, money', async () => {
    const formula = await createUser(db(), { email: 'formula@example.com', name: '=HYPERLINK("x";"y")' });
    const quoted = await createUser(db(), { email: '+tag@example.com', name: ' O"Brien, Jr.\nline two' });
    const plain = await createProduct(db(), { name: '-minus;semi ' });
    const yen = await createProduct(db(), { name: 'Tab\there', unitAmount: 4000, currency: 'jpy' });
    const first = await createPurchase(db(), { user: formula, product: plain, totalAmount: 4905, country: 'FR' });
    const second = await createPurchase(db(), { user: quoted, product: yen, totalAmount: 4000, status: 'Refunded' });
    const third = await createPurchase(db(), { user: formula, product: yen, totalAmount: 7 });
    // Microseconds are cut to milliseconds, as the list's JSON has them.
    await db().raw(`UPDATE purchases SET created_at = '2026-11-28 15:04:05.123987+00' WHERE id = ?`, [first.id]);
    await db().raw(
      `UPDATE purchases SET created_at = '2026-11-27 23:59:59.999999+00', currency = 'jpy',
      country = NULL WHERE id = ?`,
      [second.id],
    );
    await db().raw(`UPDATE purchases SET created_at = '2026-01-02 03:04:05+00' WHERE id = ?`, [third.id]);

    const text = await exported('purchases', {
      filter: { id: [first.id, second.id, third.id] },
      sort: ['createdAt', 'ASC'],
    });
    expect(text).toBe(
      '\uFEFFPurchased,Buyer email,Buyer name,Product,Status,Paid,Refunded,Currency,Kind,Country,Purchase id\r\n' +
        `2026-01-02T03:04:05.000Z,formula@example.com,"'=HYPERLINK(""x"";""y"")","Tab\there",Valid,0.07,0.00,usd,Individual,,${third.id}\r\n` +
        `2026-11-27T23:59:59.999Z,'+tag@example.com," O""Brien, Jr.\nline two","Tab\there",Refunded,4000,0,jpy,Individual,,${second.id}\r\n` +
        `2026-11-28T15:04:05.123Z,formula@example.com,"'=HYPERLINK(""x"";""y"")","'-minus;semi ",Valid,49.05,0.00,usd,Individual,FR,${first.id}\r\n`,
    );
  });

  it('a list too long to sort first is read in its index’s order, with the same bytes', async () => {
    const buyer = await createUser(db(), { email: 'many@example.com', name: 'Many Purchases' });
    const product = await createProduct(db(), { name: 'Bought Often' });
    // Many at the same instant: the tie-break by id keeps its place when the index gives only the instants.
    await db().raw(
      `INSERT INTO purchases (user_id, product_id, status, total_amount, created_at)
       SELECT ?, ?, 'Valid', n, timestamptz '2026-06-01' + (n % 1000) * interval '1 minute'
         FROM generate_series(1, 12000) AS n`,
      [buyer.id, product.id],
    );
    const purchases = ADMIN_RESOURCES.find((r) => r.name === 'purchases')!;
    // Read in the index's order above 10,000 rows (the app sorts lists of this size in full).
    const reader = { id: admin.user.id, email: admin.user.email, roles: ['admin'] as const };
    const inIndexOrder = listExports({
      db: db(),
      admin: adminService({ db: db() }),
      clock: { now: () => new Date() },
      logger: createLogger('silent'),
      sortedInFullUpTo: 10_000,
    });
    const { body } = await inIndexOrder.open(purchases, parseListQuery(purchases, {}), reader);
    const chunks = (await body.toArray()) as (string | Buffer)[];
    const text = Buffer.concat(chunks.map((chunk) => Buffer.from(chunk))).toString('utf8');
    expect(text.split('\r\n').length).toBeGreaterThan(12_000);
    expect(text).toBe(await reference(purchases));
    expect(await exported('purchases')).toBe(text);
  });

  it('money in each currency’s decimals and every kind of purchase, byte for byte', async () => {
    const buyer = await createUser(db(), { email: 'currencies@example.com', name: 'Paid Everywhere' });
    const product = await createProduct(db(), { name: 'Sold Everywhere' });
    const team = await createCoupon(db());
    const bought = (totalAmount: number) => createPurchase(db(), { user: buyer, product, totalAmount });
    // Dinars in thousandths, a historical peseta in whole units, the Chilean UF in ten-thousandths, an unknown code
    // in cents.
    const amounts = { kwd: 5, esp: 4000, clf: 12345, xyz: 4905, jpy: 7 };
    const ids = new Map<string, string>();
    for (const [currency, amount] of Object.entries(amounts)) {
      const purchase = await bought(amount);
      await db()('purchases').where({ id: purchase.id }).update({ currency });
      ids.set(currency, purchase.id);
    }
    const upgrade = await bought(100);
    await db()('purchases')
      .where({ id: upgrade.id })
      .update({ upgradedFromId: ids.get('kwd') });
    const teamBuy = await bought(100);
    await db()('purchases').where({ id: teamBuy.id }).update({ bulkCouponId: team.id });
    const seat = await bought(0);
    await db()('purchases').where({ id: seat.id }).update({ redeemedBulkCouponId: team.id });
    const comp = await bought(0);
    await db()('purchases').where({ id: comp.id }).update({ kind: 'comp', compReason: 'Speaker at the conference' });
    const free = await bought(0);

    const text = await exported('purchases', { filter: { userId: buyer.id } });
    const cells = new Map(
      csvRecords(text)
        .slice(1)
        .map((r) => [r[10], { paid: r[5], kind: r[8] }]),
    );
    expect(cells.get(ids.get('kwd'))).toEqual({ paid: '0.005', kind: 'Individual' });
    expect(cells.get(ids.get('esp'))!.paid).toBe('4000');
    expect(cells.get(ids.get('clf'))!.paid).toBe('1.2345');
    expect(cells.get(ids.get('xyz'))!.paid).toBe('49.05');
    expect(cells.get(ids.get('jpy'))!.paid).toBe('7');
    expect([upgrade, teamBuy, seat, comp, free].map((p) => cells.get(p.id)!.kind)).toEqual([
      'Upgrade',
      'Team purchase',
      'Team seat',
      'Comp (given by staff)',
      'Free',
    ]);
    const purchases = ADMIN_RESOURCES.find((r) => r.name === 'purchases')!;
    expect(await exported('purchases')).toBe(await reference(purchases));
  });

  it('a blocked person and a hidden comment say so, byte for byte', async () => {
    const blocked = await createUser(db(), { email: 'blocked@example.com', name: 'Blocked Person' });
    await db()('users').where({ id: blocked.id }).update({ blockedAt: new Date() });
    await db()('comments').insert({ userId: blocked.id, text: 'Hidden remark', hiddenAt: new Date() });
    for (const name of ['users', 'comments']) {
      const text = await exported(name);
      expect(text).toMatch(/,Yes,/);
      expect(text, name).toBe(await reference(ADMIN_RESOURCES.find((r) => r.name === name)!));
    }
  });

  it('the large lists are written by PostgreSQL: each of their columns has its SQL', async () => {
    const reader = { id: admin.user.id, email: admin.user.email, roles: ['admin'] as const };
    const services = adminService({ db: db() });
    for (const name of ['purchases', 'users', 'comments', 'audit-logs', 'merchant-charges']) {
      const resource = ADMIN_RESOURCES.find((r) => r.name === name)!;
      const { copied } = listExportSelection(db(), services, resource, parseListQuery(resource, {}), reader);
      const { fields } = (await db().raw(`SELECT * FROM (${copied}) AS q LIMIT 0`)) as pg.QueryResult;
      const cells = sqlCells(copied, fields, resource.export.columns, resource.model.jsonAttributes);
      expect(cells?.numbers, name).toHaveLength(resource.export.columns.length);
    }
  });

  it('every list writes what its rule reads, byte for byte', async () => {
    for (const resource of ADMIN_RESOURCES)
      expect(await exported(resource.name), resource.name).toBe(await reference(resource));
  });
});
