/**
 * The benchmark's server process: the product (the real app) and, beside it, bare Koa baselines doing the single
 * query each endpoint comes down to, on the same database. Run by tests/bench/run.ts as a child process so the load
 * generator does not share its event loop; prints one JSON line with both ports when ready.
 */
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa from 'koa';
import { bodyParser } from '@koa/bodyparser';
import { createApp } from '../../api/src/app';
import { DEFAULT_READ_CACHE_MS } from '../../api/src/config';
import { createDb } from '../../api/src/db/connection';
import { testConfig, testDeps } from '../support/app';

const db = createDb(process.env.BENCH_DATABASE_URL!);
const env = JSON.parse(process.env.BENCH_APP_ENV ?? '{}') as Record<string, string>;

// The product as it runs by default: its read caches on.
const product = createApp(
  testDeps(db, { config: testConfig({ READ_CACHE_MS: String(DEFAULT_READ_CACHE_MS), ...env }) }),
).listen(0, '127.0.0.1');

// Baselines: one handler, one query, JSON out; what the product would cost with nothing of its own around it.
const baseline = new Koa();
const router = new Router();
router.get('/products', async (ctx) => {
  ctx.body = await db('products as p')
    .join('prices as pr', 'pr.productId', 'p.id')
    .where({ 'p.status': 'active', 'pr.status': 'active' })
    .select('p.*', 'pr.unitAmount');
});
router.get('/quote/:id', async (ctx) => {
  ctx.body = await db('products as p')
    .join('prices as pr', 'pr.productId', 'p.id')
    .where({ 'p.id': ctx.params.id, 'pr.status': 'active' })
    .first('p.id', 'pr.unitAmount');
});
router.get('/lessons/:id', async (ctx) => {
  ctx.body = await db('contentResources').where({ id: ctx.params.id }).first();
});
router.put('/progress/:userId/:lessonId', async (ctx) => {
  await db('lessonProgress')
    .insert({ userId: ctx.params.userId, lessonId: ctx.params.lessonId, completedAt: db.fn.now() })
    .onConflict(['userId', 'lessonId'])
    .merge({ completedAt: db.fn.now() });
  ctx.body = { ok: true };
});
router.get('/purchases', async (ctx) => {
  const productId = String(ctx.query.productId);
  const [rows, counted] = await Promise.all([
    db('purchases').where({ productId }).orderBy('createdAt', 'desc').limit(25),
    db('purchases').where({ productId }).count({ n: '*' }),
  ]);
  ctx.set('Content-Range', `purchases 0-24/${counted[0]?.n ?? 0}`);
  ctx.body = rows;
});
router.post('/webhook', async (ctx) => {
  const { id } = ctx.request.body as { id: string };
  await db('merchantEvents')
    .insert({ merchantAccountId: process.env.BENCH_ACCOUNT_ID, identifier: `baseline-${id}`, type: 'baseline' })
    .onConflict(['merchantAccountId', 'identifier'])
    .ignore();
  ctx.body = { received: true };
});
baseline.use(bodyParser()).use(router.routes());
const bare = baseline.listen(0, '127.0.0.1');

await Promise.all([new Promise((r) => product.once('listening', r)), new Promise((r) => bare.once('listening', r))]);
console.log(
  JSON.stringify({ product: (product.address() as AddressInfo).port, baseline: (bare.address() as AddressInfo).port }),
);

process.on('SIGTERM', () => {
  product.close();
  bare.close();
  void db.destroy().then(() => process.exit(0));
});
