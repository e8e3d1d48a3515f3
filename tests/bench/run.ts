/**
 * `npm run bench`: a large dataset in its own database, each endpoint under autocannon at 32 connections beside a
 * bare-Koa baseline of the same query, fulfilment of new checkouts through signed webhooks, a 1,000,000-charge CSV
 * export (rows/s and the server's peak memory), a one-minute 1080p video processed to ready, `npm start` to first
 * healthy answer, and the apps' initial JavaScript. Prints one table and writes bench-results/bench.json.
 * BENCH_SCALE=0.1 runs a tenth of the data; BENCH_ONLY=quote,lesson runs only the parts whose names contain one of
 * those words; BENCH_NODE_ARGS passes flags to the server process (e.g. `--cpu-prof
 * --cpu-prof-dir=bench-results/profiles` to see where its time goes).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { PROJECT_ROOT } from '../../api/src/config';
import { createDb } from '../../api/src/db/connection';
import { startEmbeddedPostgres } from '../../api/src/db/embedded';
import { migrateLatest } from '../../api/src/db/migrations';
import { createLogger } from '../../api/src/logger';
import { ensureAppsBuilt } from '../../api/src/web/build';
import { signedIn } from '../support/auth';
import {
  configuredServerUrl,
  EMBEDDED_TEST_DIR,
  EMBEDDED_TEST_PORT,
  TEST_DATABASE_PREFIX,
  withClient,
  withDatabase,
} from '../support/database-server';
import { signed, standInEnv, startStripeStandIn } from '../support/stripe-stand-in';
import { generateDataset, scaledSize } from './dataset';
import { benchVideoProcessing } from './video';

const CONNECTIONS = 32;
const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const MB = 1024 * 1024;
const ONLY = (process.env.BENCH_ONLY ?? '')
  .split(',')
  .map((w) => w.trim().toLowerCase())
  .filter(Boolean);
const wanted = (name: string) => ONLY.length === 0 || ONLY.some((word) => name.toLowerCase().includes(word));

type Row = Record<string, string | number>;
const table: Row[] = [];
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

interface Load {
  url: string;
  method?: 'GET' | 'PUT' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  amount?: number;
  setupRequest?: autocannon.Request['setupRequest'];
}

async function load(options: Load) {
  const result = await autocannon({
    url: options.url,
    connections: CONNECTIONS,
    ...(options.amount ? { amount: options.amount } : { duration: DURATION }),
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    ...(options.setupRequest && { requests: [{ setupRequest: options.setupRequest }] }),
  });
  return {
    rps: round(result.requests.average, 0),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

function readRss(pid: number): Promise<number> {
  return readFile(`/proc/${pid}/status`, 'utf8').then((s) => Number(/VmRSS:\s+(\d+)/.exec(s)?.[1] ?? 0) * 1024);
}

async function startServers(
  databaseUrl: string,
  appEnv: Record<string, string>,
  accountId: string,
): Promise<{ child: ChildProcess; product: string; baseline: string }> {
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(
    process.execPath,
    [...nodeArgs, '--import', 'tsx', path.join(PROJECT_ROOT, 'tests/bench/servers.ts')],
    {
      env: {
        ...process.env,
        BENCH_DATABASE_URL: databaseUrl,
        BENCH_APP_ENV: JSON.stringify(appEnv),
        BENCH_ACCOUNT_ID: accountId,
        LOG_LEVEL: 'silent',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const ports = await new Promise<{ product: number; baseline: number }>((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) => resolve(JSON.parse(chunk.toString())));
    child.once('exit', (code) => reject(new Error(`bench servers exited with ${code}`)));
  });
  return { child, product: `http://127.0.0.1:${ports.product}`, baseline: `http://127.0.0.1:${ports.baseline}` };
}

function stopServers(child: ChildProcess): Promise<unknown> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  return exited;
}

/** `npm start` on a fresh embedded database until /api/health answers 200, then Ctrl-C; twice on the same data. */
async function startTimes(): Promise<{ first: number; second: number }> {
  // Inside the project (git-ignored .data): as root, the embedded server runs as `postgres`, who must reach it.
  const dir = path.join(PROJECT_ROOT, '.data', `bench-start-${process.pid}`);
  await mkdir(dir, { recursive: true, mode: 0o755 });
  const times: number[] = [];
  try {
    for (let run = 0; run < 2; run++) {
      const port = 3900 + run;
      const started = performance.now();
      const child = spawn(process.execPath, ['--import', 'tsx', 'api/src/server.ts'], {
        cwd: PROJECT_ROOT,
        env: {
          ...process.env,
          DATABASE_URL: '',
          EMBEDDED_PG_DIR: path.join(dir, 'pg'),
          EMBEDDED_PG_PORT: '54399',
          PORT: String(port),
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      for (;;) {
        const healthy = await fetch(`http://127.0.0.1:${port}/api/health`).then(
          (r) => r.ok,
          () => false,
        );
        if (healthy) break;
        if (performance.now() - started > 120_000) throw new Error('npm start did not answer within 2 minutes');
        await new Promise((r) => setTimeout(r, 50));
      }
      times.push((performance.now() - started) / 1000);
      child.kill('SIGINT');
      await new Promise((r) => child.once('exit', r));
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return { first: round(times[0]!, 2), second: round(times[1]!, 2) };
}

/** The gzip size of the JavaScript an app's index.html loads at once (its entry and modulepreloads). */
async function initialJs(dist: string): Promise<{ gzipKb: number; rawKb: number }> {
  const html = await readFile(path.join(dist, 'index.html'), 'utf8');
  const files = [...html.matchAll(/(?:src|href)="([^"]+\.js)"/g)].map((m) => m[1]!.replace(/^\/(admin\/)?/, ''));
  let gzip = 0;
  let raw = 0;
  for (const file of new Set(files)) {
    const content = await readFile(path.join(dist, file));
    raw += content.length;
    gzip += gzipSync(content, { level: 9 }).length;
  }
  return { gzipKb: round(gzip / 1024), rawKb: round(raw / 1024) };
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
  const databaseUrl = withDatabase(serverUrl, name);
  const db = createDb(databaseUrl);
  const stripe = await startStripeStandIn();
  let servers: Awaited<ReturnType<typeof startServers>> | null = null;
  try {
    await migrateLatest(db);
    let started = performance.now();
    const data = await generateDataset(db, scaledSize(SCALE));
    const counts = Object.fromEntries(
      await Promise.all(
        ['users', 'products', 'purchases', 'merchantCharges', 'lessonProgress'].map(
          async (t) => [t, Number((await db(t).count({ n: '*' }))[0]!.n)] as const,
        ),
      ),
    );
    console.log(`dataset: ${JSON.stringify(counts)} in ${round((performance.now() - started) / 1000)} s`);

    servers = await startServers(
      databaseUrl,
      { ...standInEnv(stripe), PUBLIC_URL: 'http://127.0.0.1' },
      data.accountId,
    );
    const learner = await signedIn(db, ['learner'], undefined);
    await db('purchases').insert({
      userId: learner.user.id,
      productId: data.productIds[0],
      status: 'Valid',
      totalAmount: 0,
      currency: 'usd',
    });
    const admin = await signedIn(db, ['admin']);
    const session = { Cookie: learner.cookie, 'X-CSRF-Token': learner.csrfToken };
    const { product: app, baseline } = servers;
    const productId = data.productIds[7]!;
    const lessonId = data.lessonIds[3]!;

    const pairs: { name: string; product: Load; baseline: Load; target: number }[] = [
      {
        name: 'storefront product list',
        product: { url: `${app}/api/store/products` },
        baseline: { url: `${baseline}/products` },
        target: 50,
      },
      {
        name: 'product quote',
        product: { url: `${app}/api/store/products/${productId}/quote?coupon=NONE` },
        baseline: { url: `${baseline}/quote/${productId}` },
        target: 50,
      },
      {
        name: 'lesson page data',
        product: { url: `${app}/api/store/courses/${data.courseSlug}/lessons/${lessonId}`, headers: session },
        baseline: { url: `${baseline}/lessons/${lessonId}` },
        target: 50,
      },
      {
        name: 'progress write',
        product: {
          url: `${app}/api/store/progress/lessons/${lessonId}`,
          method: 'PUT',
          headers: { ...session, 'Content-Type': 'application/json' },
          body: '{}',
        },
        baseline: { url: `${baseline}/progress/${learner.user.id}/${lessonId}`, method: 'PUT' },
        target: 50,
      },
      {
        name: 'admin purchases, by product, newest first',
        product: {
          url: `${app}/api/admin/purchases?sort=${encodeURIComponent('["createdAt","DESC"]')}&range=${encodeURIComponent('[0,24]')}&filter=${encodeURIComponent(JSON.stringify({ productId }))}`,
          headers: { Cookie: admin.cookie },
        },
        baseline: { url: `${baseline}/purchases?productId=${productId}` },
        target: 100,
      },
    ];
    for (const pair of pairs.filter((p) => wanted(p.name))) {
      const ours = await load(pair.product);
      const base = await load(pair.baseline);
      table.push({
        what: pair.name,
        'req/s': ours.rps,
        'p50 ms': ours.p50,
        'p99 ms': ours.p99,
        'baseline req/s': base.rps,
        'baseline p99 ms': base.p99,
        ratio: round(ours.rps / base.rps, 2),
        'non-2xx': ours.non2xx + ours.errors,
        target: `≥ 0.5 × baseline, p99 < ${pair.target} ms`,
        met: ours.rps >= base.rps / 2 && ours.p99 < pair.target && ours.non2xx === 0 ? 'yes' : 'no',
      });
    }

    // Fulfilment: checkouts started and paid beforehand, their completed events delivered once each, signed.
    if (wanted('webhook fulfilment')) {
      const checkouts = Math.round(3000 * Math.max(SCALE, 0.34));
      const payloads: { payload: string; signature: string }[] = [];
      for (let i = 0; i < checkouts; i += 16) {
        const batch = await Promise.all(
          Array.from({ length: Math.min(16, checkouts - i) }, (_, k) =>
            fetch(`${app}/api/store/checkout`, {
              method: 'POST',
              headers: { 'Content-Type': 'application/json' },
              body: JSON.stringify({
                productId: data.productIds[(i + k) % data.productIds.length],
                email: `buyer${i + k}@bench.example`,
              }),
            }).then(async (r) => {
              const body = (await r.json()) as { url: string };
              if (r.status !== 201) throw new Error(`checkout answered ${r.status}: ${JSON.stringify(body)}`);
              return body;
            }),
          ),
        );
        for (const created of batch) payloads.push(signed(stripe.pay(created.url.split('/').pop()!)));
      }
      let next = 0;
      started = performance.now();
      const ful = await load({
        url: `${app}/api/webhooks/stripe`,
        method: 'POST',
        amount: checkouts,
        setupRequest: (request) => {
          const event = payloads[next++ % payloads.length]!;
          return {
            ...request,
            body: event.payload,
            headers: { ...request.headers, 'content-type': 'application/json', 'stripe-signature': event.signature },
          };
        },
      });
      const fulfilmentSeconds = (performance.now() - started) / 1000;
      let seq = 0;
      const baseFul = await load({
        url: `${baseline}/webhook`,
        method: 'POST',
        amount: checkouts,
        setupRequest: (request) => ({
          ...request,
          body: JSON.stringify({ id: String(seq++) }),
          headers: { ...request.headers, 'content-type': 'application/json' },
        }),
      });
      const fulfilled = Number((await db('checkouts').where({ status: 'fulfilled' }).count({ n: '*' }))[0]!.n);
      table.push({
        what: `webhook fulfilment of ${checkouts} new checkouts`,
        'req/s': round(checkouts / fulfilmentSeconds, 0),
        'p50 ms': ful.p50,
        'p99 ms': ful.p99,
        'baseline req/s': baseFul.rps,
        'baseline p99 ms': baseFul.p99,
        ratio: round(checkouts / fulfilmentSeconds / baseFul.rps, 2),
        'non-2xx': ful.non2xx + ful.errors,
        target: '≥ 200 checkouts/s, each fulfilled once',
        met: checkouts / fulfilmentSeconds >= 200 && fulfilled === checkouts ? 'yes' : `no (${fulfilled} fulfilled)`,
      });
    }

    // The export of every charge, and the console's purchases list (each with its buyer and product joined in),
    // with the server process's memory sampled from /proc.
    const exports = [
      { path: '/api/admin/exports/charges.csv?from=2000-01-01&to=2100-01-01', rows: 'charges', target: 100_000 },
      { path: '/api/admin/purchases/export.csv', rows: 'purchases (console list)', target: 20_000 },
    ];
    for (const { path, rows: what, target } of wanted('csv export') ? exports : []) {
      const pid = servers.child.pid!;
      const rssBefore = await readRss(pid);
      let rssPeak = rssBefore;
      const sampler = setInterval(() => void readRss(pid).then((rss) => (rssPeak = Math.max(rssPeak, rss))), 20);
      started = performance.now();
      const response = await fetch(`${app}${path}`, { headers: { Cookie: admin.cookie } });
      let lines = 0;
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>)
        for (const byte of chunk) if (byte === 10) lines++;
      const exportSeconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      const rows = lines - 1;
      table.push({
        what: `CSV export of ${rows.toLocaleString('en-US')} ${what}`,
        'req/s': `${round(rows / exportSeconds, 0).toLocaleString('en-US')} rows/s`,
        'p50 ms': '',
        'p99 ms': '',
        'baseline req/s': '',
        'baseline p99 ms': '',
        ratio: '',
        'non-2xx': response.ok ? 0 : 1,
        target: `≥ ${target.toLocaleString('en-US')} rows/s, memory growth < 100 MB`,
        met: `${rows / exportSeconds >= target && rssPeak - rssBefore < 100 * MB ? 'yes' : 'no'} (RSS ${round(rssBefore / MB, 0)} → ${round(rssPeak / MB, 0)} MB)`,
      });
    }

    await stopServers(servers.child); // and let a profiling server write its profile
    servers = null;
    if (wanted('video processing')) {
      const video = await benchVideoProcessing(db);
      table.push({
        what: `video processing: 1 min 1080p30 with sound (${video.sourceMb} MB) to HLS ${video.renditions.join('/')} + poster`,
        'req/s': `${video.seconds} s`,
        target: 'ready',
        met: video.status === 'ready' ? 'yes' : `no (${video.status})`,
      });
    }
    if (wanted('npm start')) {
      await ensureAppsBuilt(logger); // a start measures the server, not the first build of the apps
      const start = await startTimes();
      table.push({
        what: '`npm start` to first healthy answer (embedded DB)',
        'req/s': `first ${start.first} s, second ${start.second} s`,
        target: 'second < 5 s',
        met: start.second < 5 ? 'yes' : 'no',
      });
    }

    if (wanted('initial javascript')) {
      const store = await initialJs(path.join(PROJECT_ROOT, 'storefront', 'dist'));
      const console_ = await initialJs(path.join(PROJECT_ROOT, 'admin', 'dist'));
      table.push({
        what: 'initial JavaScript, gzip',
        'req/s': `storefront ${store.gzipKb} KB (${store.rawKb} KB raw), console ${console_.gzipKb} KB (${console_.rawKb} KB raw)`,
      });
    }

    console.table(table);
    const out = path.join(PROJECT_ROOT, 'bench-results');
    await mkdir(out, { recursive: true });
    await writeFile(
      path.join(out, 'bench.json'),
      JSON.stringify(
        {
          at: new Date().toISOString(),
          node: process.version,
          cpus: os.cpus().length,
          connections: CONNECTIONS,
          seconds: DURATION,
          dataset: counts,
          results: table,
        },
        null,
        2,
      ),
    );
  } finally {
    if (servers) await stopServers(servers.child);
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
