/**
 * The benchmark's server process, three servers on one database, each with its own connection pool of the same size:
 *
 * - the product as it runs by default (its read caches on);
 * - the product with its read caches off (READ_CACHE_MS=0), whose requests can be recorded: a request with the
 *   header `x-bench-record: <name>` keeps the SQL it sent under that name;
 * - the baseline, bare Koa: `/replay/<name>` sends a recorded request's SQL again (the same statements, the same
 *   values, what ran at once at once, transactions in order on one connection) and answers its rows as JSON, so it
 *   does the product's queries for that endpoint and nothing else; `/idle` says whether no pool has work left;
 *   `/insert-event` is one insert, the unit of
 *   fulfilment's baseline; the CSV exports' baselines are mounted from export-baseline.ts.
 *
 * Run by tests/bench/run.ts as a child process so the load generator does not share its event loop; prints one JSON
 * line with the three ports when ready.
 */
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa from 'koa';
import { bodyParser } from '@koa/bodyparser';
import { createApp } from '../../api/src/app';
import { DEFAULT_READ_CACHE_MS } from '../../api/src/config';
import { createDb } from '../../api/src/db/connection';
import type { MailTransport } from '../../api/src/mail/transport';
import { testConfig, testDeps } from '../support/app';
import { exportBaselines } from './export-baseline';
import { recordingServer, replay } from './query-replay';

const url = process.env.BENCH_DATABASE_URL!;
const env = JSON.parse(process.env.BENCH_APP_ENV ?? '{}') as Record<string, string>;
const db = createDb(url);
const uncachedDb = createDb(url);
const baselineDb = createDb(url);

/**
 * Emails are handed over and forgotten, as a relay takes them: the tests' transport keeps every one it was handed
 * for their assertions, which over a bench's thousands of receipts would grow the heap the collector walks.
 */
const mailTransport: MailTransport = { name: 'log', timeoutSeconds: 5, send: async () => undefined };
const cached = createApp(
  testDeps(db, { config: testConfig({ READ_CACHE_MS: String(DEFAULT_READ_CACHE_MS), ...env }), mailTransport }),
);
const uncached = createApp(testDeps(uncachedDb, { config: testConfig({ ...env, READ_CACHE_MS: '0' }), mailTransport }));

const { server: uncachedServer, recordings } = recordingServer(uncached.callback(), uncachedDb);

const baseline = new Koa();
const router = new Router();
router.all('/replay/:name', async (ctx) => {
  const recording = recordings.get(ctx.params.name!);
  if (!recording) return ctx.throw(404, `nothing recorded as ${ctx.params.name}`);
  ctx.body = { data: await replay(baselineDb, recording) };
});
router.get('/recorded/:name', (ctx) => {
  const recording = recordings.get(ctx.params.name!);
  ctx.body = { statements: recording?.statements ?? 0, waves: recording?.waves.length ?? 0 };
});
// Whether every pool is idle: a sample's requests still running after it ended (a slow endpoint's) must not weigh
// on the next sample.
const pools = [db, uncachedDb, baselineDb].map(
  (d) => (d.client as { pool: { numUsed(): number; numPendingAcquires(): number } }).pool,
);
router.get('/idle', (ctx) => {
  ctx.body = { idle: pools.every((p) => !p || p.numUsed() + p.numPendingAcquires() === 0) };
});
router.post('/insert-event', async (ctx) => {
  const { id } = ctx.request.body as { id: string };
  await baselineDb('merchantEvents')
    .insert({ merchantAccountId: process.env.BENCH_ACCOUNT_ID, identifier: `baseline-${id}`, type: 'baseline' })
    .onConflict(['merchantAccountId', 'identifier'])
    .ignore();
  ctx.body = { received: true };
});
baseline.use(bodyParser()).use(router.routes()).use(exportBaselines(baselineDb).routes());

const servers = [cached.listen(0, '127.0.0.1'), uncachedServer.listen(0, '127.0.0.1'), baseline.listen(0, '127.0.0.1')];
await Promise.all(servers.map((s) => new Promise((r) => (s.listening ? r(null) : s.once('listening', r)))));
const [product, productUncached, bare] = servers.map((s) => (s.address() as AddressInfo).port);
console.log(JSON.stringify({ product, productUncached, baseline: bare }));

process.on('SIGTERM', () => {
  for (const s of servers) s.close();
  void Promise.all([db.destroy(), uncachedDb.destroy(), baselineDb.destroy()]).then(() => process.exit(0));
});
