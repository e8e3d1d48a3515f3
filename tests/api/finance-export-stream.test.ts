import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse } from 'csv-parse/sync';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { endBackend, type Backend } from '../../api/src/db/end-backend';
import { financeExports } from '../../api/src/finance/exports';
import { createLogger } from '../../api/src/logger';
import { createServices, type Services } from '../../api/src/services';
import { createProduct, createUser } from '../../seeds/factories';
import { testDeps } from '../support/app';
import { signedIn, type SignedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';

/** The charges export as a stream from PostgreSQL's COPY: one snapshot, a bounded buffer, nothing left behind. */
describe('finance: the charges export streams from one snapshot and stops with its client', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let services: Services;
  let server: http.Server;
  let finance: SignedIn;
  let ids: { account: string; merchantProduct: string; buyer: string };
  const period = { from: '2018-03-01', to: '2018-03-02', period: 'month' as const };
  const ROWS = 100_000;

  beforeAll(async () => {
    const deps = testDeps(db());
    services = createServices(deps);
    server = http.createServer(createApp(deps, { services }).callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    finance = await signedIn(db(), ['finance']);
    const product = await createProduct(db(), { name: 'Streamed Course' });
    const [account] = await db()('merchantAccounts')
      .insert({ label: 'history', identifier: 'acct_stream' })
      .returning('id');
    const [merchantProduct] = await db()('merchantProducts')
      .insert({ merchantAccountId: account.id, identifier: 'prod_stream', productId: product.id })
      .returning('id');
    const buyer = await createUser(db(), { email: 'stream@example.com' });
    ids = { account: account.id, merchantProduct: merchantProduct.id, buyer: buyer.id };
    await db().raw(
      `INSERT INTO merchant_charges (merchant_account_id, identifier, amount, fee, net, currency, user_id, merchant_product_id, created_at)
       SELECT ?, 'ch_stream_' || i, 4900, 172, 4728, 'usd', ?, ?, timestamptz '2018-03-01' + (i || ' seconds')::interval
         FROM generate_series(1, ?) AS i`,
      [ids.account, ids.buyer, ids.merchantProduct, ROWS],
    );
    await db().raw(
      `INSERT INTO purchases (user_id, product_id, status, total_amount, currency, country, merchant_charge_id, created_at)
       SELECT ?, ?, 'Valid', ch.amount, 'usd', 'FR', ch.id, ch.created_at FROM merchant_charges ch WHERE ch.identifier LIKE 'ch_stream_%'`,
      [ids.buyer, product.id],
    );
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** This database's sessions still inside an export: a transaction left open or a COPY still running. */
  const leftBehind = async () =>
    (
      await db().raw(
        `SELECT state, query FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid()
            AND (state LIKE 'idle in transaction%' OR (state = 'active' AND query ~* '^(FETCH|DECLARE|COPY)'))`,
      )
    ).rows as { state: string; query: string }[];
  /** What `check` finds once `done` holds of it (by default: nothing), or after 30 s (a busy machine is slow to cancel). */
  async function eventually<T>(
    check: () => Promise<T[]>,
    done: (found: T[]) => boolean = (found) => found.length === 0,
  ) {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const found = await check();
      if (done(found) || Date.now() > deadline) return found;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  const read = async (body: NodeJS.ReadableStream) => {
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(Buffer.from(chunk as Buffer));
    return Buffer.concat(chunks).toString('utf8');
  };

  it('counts and lists one snapshot: a sale arriving mid-export is in neither, and the next export has it', async () => {
    const { total, body } = await services.financeExports.open('charges', period);
    expect(total).toBe(ROWS);
    const [late] = await db()('merchantCharges')
      .insert({
        merchantAccountId: ids.account,
        identifier: 'ch_stream_late',
        amount: 100,
        fee: 0,
        net: 100,
        currency: 'usd',
        userId: ids.buyer,
        merchantProductId: ids.merchantProduct,
        createdAt: new Date('2018-03-01T00:00:00.500Z'), // sorts first, long before the cursor gets there
      })
      .returning('id');
    try {
      await checkSnapshot(body, late.id);
    } finally {
      await db()('merchantCharges').where({ id: late.id }).delete();
    }
  });

  async function checkSnapshot(body: NodeJS.ReadableStream, lateId: string) {
    const rows = parse(await read(body), { bom: true, columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(ROWS);
    expect(rows.some((r) => r.Charge === 'ch_stream_late')).toBe(false);
    expect(rows[0]).toMatchObject({
      Date: '2018-03-01T00:00:01.000Z',
      Charge: 'ch_stream_1',
      'Buyer email': 'stream@example.com',
      'Buyer country': 'FR',
      'Gross (cents)': '4900',
      'Refunded (cents)': '0',
      Status: 'Valid',
      Coupon: '',
    });
    expect(await eventually(leftBehind)).toEqual([]);

    const next = await services.financeExports.open('charges', period);
    expect(next.total).toBe(ROWS + 1);
    const again = parse(await read(next.body), { bom: true, columns: true }) as Record<string, string>[];
    expect(again[0]).toMatchObject({
      Charge: 'ch_stream_late',
      Date: '2018-03-01T00:00:00.500Z',
      Purchase: '',
      'Buyer email': 'stream@example.com', // the charge's payer, with or without a purchase
      'Gross (cents)': '100',
    });
    expect(lateId).toBeTruthy();
  }

  it('reads ahead only a bounded buffer while nobody reads, and rolls back when dropped', async () => {
    const { body } = await services.financeExports.open('charges', period);
    // Unread, the export stops reading: its COPY waits on the full socket, with what it read ahead.
    const waiting = await eventually(
      leftBehind,
      (found) => found.length === 1 && found[0]!.query.startsWith('COPY') && body.readableLength > 0,
    );
    expect(waiting.map((s) => s.state)).toEqual(['active']);
    // The whole export is about 15 MB; unread, the stream holds its high-water mark and at most one fetch more.
    expect(body.readableLength).toBeGreaterThan(0);
    expect(body.readableLength).toBeLessThan(2 * 1024 * 1024);
    body.destroy();
    expect(await eventually(leftBehind)).toEqual([]);
  });

  it('stops when the client disconnects mid-download: the transaction ends and the connection serves again', async () => {
    const { port } = server.address() as AddressInfo;
    const received = await new Promise<{ status?: number; total?: string | string[]; bytes: number }>(
      (resolve, reject) => {
        const request = http.get(
          `http://127.0.0.1:${port}/api/admin/exports/charges.csv?from=${period.from}&to=${period.to}`,
          { headers: { Cookie: finance.cookie } },
          (response) => {
            let bytes = 0;
            response.on('data', (chunk: Buffer) => {
              bytes += chunk.length;
              if (bytes > 100_000 && !request.destroyed) {
                request.destroy(); // the browser tab closed
                resolve({ status: response.statusCode, total: response.headers['x-total-rows'], bytes });
              }
            });
            response.on('error', () => undefined);
          },
        );
        request.on('error', (error) => (request.destroyed ? undefined : reject(error)));
      },
    );
    expect(received).toMatchObject({ status: 200, total: String(ROWS) });
    expect(await eventually(leftBehind)).toEqual([]);

    // Every connection went back to the pool in a usable state: a whole export still reads to its end.
    const { total, body } = await services.financeExports.open('charges', period);
    expect(parse(await read(body), { bom: true, columns: true })).toHaveLength(total);
  });

  /** The export's COPY on the server: its process and when that session began (a PID alone may be reused). */
  const copying = async () =>
    (
      await db().raw(
        `SELECT pid, to_char(backend_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS started
           FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid() AND query ~* '^COPY'`,
      )
    ).rows as Backend[];
  /** Whether that session still runs, asked outside the pool (which a test may have taken whole). */
  const alive = async (backend: Backend) => {
    const client = new pg.Client(database().url);
    await client.connect();
    try {
      return (
        await client.query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity
            WHERE pid = $1 AND to_char(backend_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') = $2`,
          [backend.pid, backend.started],
        )
      ).rows;
    } finally {
      await client.end();
    }
  };

  it('ends the COPY still running when its reader goes away, on the server too, with every other connection taken', async () => {
    const pool = db().client as {
      pool: { max: number; numUsed(): number };
      acquireConnection(): Promise<unknown>;
      releaseConnection(connection: unknown): Promise<void>;
      config: { acquireConnectionTimeout?: number };
    };
    const { body } = await financeExports({ db: db(), logger: createLogger('silent') }).open('charges', period);
    const [backend] = await eventually(copying, (found) => found.length === 1);
    expect(backend).toBeDefined();
    // Everyone else's requests hold the rest of the pool: ending the COPY must not wait for one of them.
    const holders = await Promise.all(
      Array.from({ length: pool.pool.max - pool.pool.numUsed() }, () => pool.acquireConnection()),
    );
    try {
      const started = Date.now();
      body.destroy();
      expect(await eventually(() => alive(backend!))).toEqual([]);
      // Well before the pool would give up waiting for a connection (none comes back here: all are held).
      expect(Date.now() - started).toBeLessThan((pool.config.acquireConnectionTimeout ?? 10_000) / 2);
      // The export's own connection leaves the pool a moment after its session ends on the server.
      const used = await eventually(
        async () => [pool.pool.numUsed()],
        ([count]) => count === holders.length,
      );
      expect(used).toEqual([holders.length]);
    } finally {
      await Promise.all(holders.map((holder) => pool.releaseConnection(holder)));
    }
    expect(await eventually(leftBehind)).toEqual([]);
  });

  it('ends only the session it recorded: another one with the same process id is left alone', async () => {
    const other = await db().client.acquireConnection();
    try {
      const [self] = (
        await other.query(
          `SELECT pid, to_char(backend_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS started
             FROM pg_stat_activity WHERE pid = pg_backend_pid()`,
        )
      ).rows as Backend[];
      // The same PID started at another time: a session that had ended, its PID since given to this one.
      const earlier = { pid: self!.pid, started: '2000-01-01T00:00:00.000000Z' };
      expect(await endBackend(database().url, earlier)).toBe(false);
      expect(await alive(self!)).toHaveLength(1);
      expect((await other.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      // The recorded one is ended.
      expect(await endBackend(database().url, self!)).toBe(true);
      expect(await eventually(() => alive(self!))).toEqual([]);
    } finally {
      await db().client.releaseConnection(other);
    }
  });
});
