/**
 * Export benchmark: streams the charges CSV for N charges over real HTTP and reports rows per second and the
 * server process's peak memory (RSS and heap, sampled every 20 ms) against its level before the export.
 * Writes bench-results/finance.json. BENCH_EXPORT_ROWS sets N (default 500,000).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createApp } from '../../api/src/app';
import { PROJECT_ROOT } from '../../api/src/config';
import { createDb } from '../../api/src/db/connection';
import { startEmbeddedPostgres } from '../../api/src/db/embedded';
import { migrateLatest } from '../../api/src/db/migrations';
import { createLogger } from '../../api/src/logger';
import { createProduct, createUser } from '../../seeds/factories';
import { testDeps } from '../support/app';
import { signedIn } from '../support/auth';
import { configuredServerUrl, EMBEDDED_TEST_DIR, EMBEDDED_TEST_PORT, TEST_DATABASE_PREFIX, withClient, withDatabase } from '../support/database-server';

const ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 500_000);
const MB = 1024 * 1024;

async function main() {
  const logger = createLogger('warn');
  let serverUrl = configuredServerUrl();
  const embedded = serverUrl ? null : await startEmbeddedPostgres({ dir: EMBEDDED_TEST_DIR, port: EMBEDDED_TEST_PORT, database: 'postgres', logger });
  serverUrl ??= embedded!.url;
  const name = `${TEST_DATABASE_PREFIX}${process.pid}_bench_finance`;
  await withClient(serverUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const db = createDb(withDatabase(serverUrl, name));
  try {
    await migrateLatest(db);
    const buyer = await createUser(db, { email: 'bench@example.com' });
    const product = await createProduct(db, { name: 'Benchmark Course' });
    const [account] = await db('merchantAccounts').insert({ label: 'stripe', identifier: 'acct_bench' }).returning('id');
    const [merchantProduct] = await db('merchantProducts').insert({ merchantAccountId: account.id, identifier: 'prod_bench', productId: product.id }).returning('id');
    let start = performance.now();
    await db.raw(
      `INSERT INTO merchant_charges (merchant_account_id, identifier, amount, fee, net, currency, user_id, merchant_product_id, created_at)
       SELECT ?, 'ch_' || i, 1000 + i % 50000, i % 97, 1000 + i % 50000 - i % 97, 'usd', ?, ?, timestamptz '2025-01-01' + (i || ' seconds')::interval
         FROM generate_series(1, ?) AS i`,
      [account.id, buyer.id, merchantProduct.id, ROWS],
    );
    await db.raw(
      `INSERT INTO purchases (user_id, product_id, status, total_amount, currency, country, merchant_charge_id, created_at)
       SELECT ?, ?, 'Valid', amount, 'usd', 'US', id, created_at FROM merchant_charges`,
      [buyer.id, product.id],
    );
    const seeded = performance.now() - start;

    const finance = await signedIn(db, ['finance']);
    const server = createApp(testDeps(db)).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;

    global.gc?.();
    const before = process.memoryUsage();
    let peakRss = before.rss;
    let peakHeap = before.heapUsed;
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peakRss = Math.max(peakRss, now.rss);
      peakHeap = Math.max(peakHeap, now.heapUsed);
    }, 20);

    start = performance.now();
    const response = await fetch(`http://127.0.0.1:${port}/api/admin/exports/charges.csv?from=2025-01-01&to=2026-12-31`, { headers: { Cookie: finance.cookie } });
    if (!response.ok || !response.body) throw new Error(`export answered ${response.status}`);
    let bytes = 0;
    let lines = 0;
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      for (const byte of chunk) if (byte === 10) lines++;
    }
    const seconds = (performance.now() - start) / 1000;
    clearInterval(sampler);
    server.close();

    const results = {
      rows: lines - 1,
      seedSeconds: Math.round(seeded / 100) / 10,
      exportSeconds: Math.round(seconds * 100) / 100,
      rowsPerSecond: Math.round((lines - 1) / seconds),
      megabytes: Math.round((bytes / MB) * 10) / 10,
      rssBeforeMb: Math.round(before.rss / MB),
      rssPeakMb: Math.round(peakRss / MB),
      heapBeforeMb: Math.round(before.heapUsed / MB),
      heapPeakMb: Math.round(peakHeap / MB),
    };
    console.table(results);
    const out = path.join(PROJECT_ROOT, 'bench-results');
    await mkdir(out, { recursive: true });
    await writeFile(path.join(out, 'finance.json'), JSON.stringify({ at: new Date().toISOString(), node: process.version, results }, null, 2));
  } finally {
    await db.destroy();
    await withClient(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    await embedded?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
