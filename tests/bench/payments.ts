/**
 * Payments benchmark: quote, checkout through Stripe (the real SDK against the local stand-in), webhook fulfilment,
 * and the two races that must end exactly right (duplicate events, a coupon's last uses). Prints a table and
 * writes bench-results/payments.json. Uses TEST_DATABASE_URL / DATABASE_URL, else an embedded PostgreSQL.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import request from 'supertest';
import { createApp } from '../../api/src/app';
import { PROJECT_ROOT } from '../../api/src/config';
import { createDb } from '../../api/src/db/connection';
import { startEmbeddedPostgres } from '../../api/src/db/embedded';
import { migrateLatest } from '../../api/src/db/migrations';
import { createLogger } from '../../api/src/logger';
import { createCoupon, createProduct } from '../../seeds/factories';
import { runSeeds } from '../../seeds/run';
import { testConfig, testDeps } from '../support/app';
import {
  configuredServerUrl,
  EMBEDDED_TEST_DIR,
  EMBEDDED_TEST_PORT,
  TEST_DATABASE_PREFIX,
  withClient,
  withDatabase,
} from '../support/database-server';
import { sessionOfCheckout } from '../support/checkout';
import { standInEnv, startStripeStandIn, deliverSigned } from '../support/stripe-stand-in';

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function timeEach(
  n: number,
  run: (i: number) => Promise<unknown>,
): Promise<{ n: number; p50: number; p95: number; max: number }> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await run(i);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return { n, p50: round(percentile(times, 50)), p95: round(percentile(times, 95)), max: round(times.at(-1)!) };
}

async function main() {
  const logger = createLogger('warn');
  let serverUrl = configuredServerUrl();
  const embedded = serverUrl
    ? null
    : await startEmbeddedPostgres({ dir: EMBEDDED_TEST_DIR, port: EMBEDDED_TEST_PORT, database: 'postgres', logger });
  serverUrl ??= embedded!.url;
  const name = `${TEST_DATABASE_PREFIX}${process.pid}_bench`;
  await withClient(serverUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const db = createDb(withDatabase(serverUrl, name));
  const stripe = await startStripeStandIn();
  try {
    await migrateLatest(db);
    await runSeeds(db, { demo: true });
    const app = createApp(testDeps(db, { config: testConfig(standInEnv(stripe)) })).callback();
    const product = await createProduct(db, { name: 'Benchmark Course', unitAmount: 9900 });
    const results: Record<string, unknown> = {};

    results['quote (HTTP, sale + coupon)'] = await timeEach(200, () =>
      request(app).get(`/api/store/products/${product.id}/quote`).query({ coupon: 'WELCOME10' }),
    );

    const sessions: { checkoutId: string; session: string }[] = [];
    results['checkout → Stripe session'] = await timeEach(100, async (i) => {
      const res = await request(app)
        .post('/api/store/checkout')
        .send({ productId: product.id, email: `bench${i}@example.com` });
      if (res.status !== 201) throw new Error(JSON.stringify(res.body));
      sessions.push({ checkoutId: res.body.checkoutId, session: await sessionOfCheckout(db, res.body.checkoutId) });
    });

    const deliver = (event: Parameters<typeof deliverSigned>[1]) => deliverSigned(app, event);
    const events = sessions.map(({ session }) => stripe.pay(session));
    results['webhook → fulfilment (first delivery)'] = await timeEach(100, (i) => deliver(events[i]!));
    results['webhook redelivery (same event id)'] = await timeEach(100, (i) => deliver(events[i]!));

    // Ten concurrent copies of one event: wall time, and still one purchase.
    const race = await request(app)
      .post('/api/store/checkout')
      .send({ productId: product.id, email: 'race@example.com' });
    const raceSession = await sessionOfCheckout(db, race.body.checkoutId);
    const completed = stripe.pay(raceSession);
    let start = performance.now();
    await Promise.all(Array.from({ length: 10 }, () => deliver(completed)));
    const duplicateWall = performance.now() - start;
    const [counted] = await db('purchases as p')
      .join('users as u', 'u.id', 'p.userId')
      .where('u.email', 'race@example.com')
      .count({ n: '*' });
    results['10 concurrent copies of one event'] = { wallMs: Math.round(duplicateWall), purchases: Number(counted?.n) };

    // 50 buyers at once for a coupon with 10 uses.
    await createCoupon(db, { code: 'TENLEFT', percentageDiscount: 0.5, maxUses: 10 });
    start = performance.now();
    const attempts = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        request(app)
          .post('/api/store/checkout')
          .send({ productId: product.id, coupon: 'TENLEFT', email: `coupon${i}@example.com` }),
      ),
    );
    results['50 concurrent checkouts, coupon with 10 uses'] = {
      wallMs: Math.round(performance.now() - start),
      started: attempts.filter((a) => a.status === 201).length,
    };

    console.table(results);
    const out = path.join(PROJECT_ROOT, 'bench-results');
    await mkdir(out, { recursive: true });
    await writeFile(
      path.join(out, 'payments.json'),
      JSON.stringify({ at: new Date().toISOString(), node: process.version, results }, null, 2),
    );
  } finally {
    await stripe.close();
    await db.destroy();
    await withClient(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    await embedded?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
