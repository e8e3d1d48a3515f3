/**
 * `npm run bench`: the product measured against baselines that do the same work, so the figures say something of
 * the product and not only of the machine. Prints one table and writes bench-results/bench.json (rows, machine,
 * dataset, every round); BENCH_JSON=<file> also writes the rows alone, `[{ name, value, unit, baseline, ratio,
 * target, met }]`.
 *
 * - Dataset (dataset.ts): first a tenth of BENCH_SCALE, copied aside for the growth rows, then the same database
 *   grown to BENCH_SCALE (1: a million purchases and charges, 2.2 million split lines, 400,000 audit entries).
 * - Endpoints, at 32 connections: the product with its read caches on, the product with them off (a second app
 *   instance, READ_CACHE_MS=0), and the baseline: bare Koa sending again the SQL the caches-off product sent for
 *   that request (recorded once, replayed as sent: servers.ts, query-replay.ts). BENCH_ROUNDS rounds (default 3) of
 *   BENCH_SECONDS (default 5) per side, the sides taking turns in an order reversed each round; the median per side
 *   and the ratio of medians are reported, the load average per round in the JSON.
 * - Fulfilment: N paid checkouts' events delivered once each (autocannon `amount`), wall time → per second; its
 *   baseline N single inserts the same way.
 * - CSV exports (charges, the console's purchases): rows/s, time to first byte and the server's memory beside a
 *   csv-stringify baseline on the same rows in the same run. The tax report of a year: documents read per second and
 *   its first byte.
 * - Growth: dashboard (30 and 365 days), finance summary for a year, timelines (a rich person and a busy staff
 *   member, page 1 and a deep page), payout balances: both sizes served side by side, three rounds in alternating
 *   order, each the p50 of 20 sequential requests; the median of the rounds per size (growth.ts).
 * - Search (search.ts): 10,000 lessons (scaled) searched as a visitor and a learner, p50/p95 of each kind of search,
 *   the plans' GIN indexes, and req/s at 32 connections.
 * - Console sorts (sort-plans.ts): every sort and filter of the console's lists, which ones no index serves.
 * - Then a one-minute 1080p video processed to ready, `npm start` to first healthy answer, the apps' initial
 *   JavaScript, and Lighthouse (only with BENCH_LIGHTHOUSE=1 or BENCH_ONLY=lighthouse).
 *
 * BENCH_KEEP_DATA=1 keeps each generated size as a database and copies it on later runs (seconds instead of the
 * many minutes a million purchases take to generate). BENCH_SCALE=0.05 runs a twentieth of the data; BENCH_ONLY=quote,lesson runs only the parts whose names contain one
 * of those words; BENCH_NODE_ARGS passes flags to the server process (e.g. `--cpu-prof
 * --cpu-prof-dir=bench-results/profiles`).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { PROJECT_ROOT } from '../../api/src/config';
import { createDb, type Db } from '../../api/src/db/connection';
import { startEmbeddedPostgres } from '../../api/src/db/embedded';
import { migrateLatest } from '../../api/src/db/migrations';
import { createLogger } from '../../api/src/logger';
import { ensureAppsBuilt } from '../../api/src/web/build';
import { signedIn, type SignedIn } from '../support/auth';
import {
  configuredServerUrl,
  EMBEDDED_TEST_DIR,
  EMBEDDED_TEST_PORT,
  TEST_DATABASE_PREFIX,
  withClient,
  withDatabase,
} from '../support/database-server';
import type Stripe from 'stripe';
import { signed, standInEnv, startStripeStandIn, type StandIn } from '../support/stripe-stand-in';
import { generateDataset, scaledSize, type Dataset } from './dataset';
import { timeExport } from './export-timing';
import { growthRows, interleavedGrowthTimes, type GrowthRequest } from './growth';
import { interleaved, type Load } from './interleaved';
import { comparedRow, loadAverage, printTable, round, type Row } from './rows';
import { searchRows } from './search';
import { sortPlans } from './sort-plans';
import { benchVideoProcessing } from './video';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const ONLY = (process.env.BENCH_ONLY ?? '')
  .split(',')
  .map((w) => w.trim().toLowerCase())
  .filter(Boolean);
const wanted = (name: string) => ONLY.length === 0 || ONLY.some((word) => name.toLowerCase().includes(word));

const rows: Row[] = [];
/** What the rows come from, kept in bench.json: each pair's rounds, each export's timings, the sorts without index. */
const details: Record<string, unknown> = {};

interface Servers {
  child: ChildProcess;
  product: string;
  uncached: string;
  baseline: string;
}

async function startServers(databaseUrl: string, appEnv: Record<string, string>, accountId: string): Promise<Servers> {
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
  const ports = await new Promise<{ product: number; productUncached: number; baseline: number }>((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) => resolve(JSON.parse(chunk.toString())));
    child.once('exit', (code) => reject(new Error(`bench servers exited with ${code}`)));
  });
  const at = (port: number) => `http://127.0.0.1:${port}`;
  return { child, product: at(ports.product), uncached: at(ports.productUncached), baseline: at(ports.baseline) };
}

function stopServers(child: ChildProcess): Promise<unknown> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  return exited;
}

/** Waits until the servers' pools are idle, twice in a row (a request between two queries holds none). */
async function settled(servers: Servers): Promise<void> {
  const deadline = performance.now() + 300_000;
  let idleChecks = 0;
  while (idleChecks < 2) {
    const { idle } = (await (await fetch(`${servers.baseline}/idle`)).json()) as { idle: boolean };
    idleChecks = idle ? idleChecks + 1 : 0;
    if (performance.now() > deadline) throw new Error('the servers were still busy 5 minutes after a sample');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The requests of the growth rows, with the deep pages found on the first size and kept for the second. */
function growthRequests(data: Dataset, deepPages: { rich: number; staff: number }): GrowthRequest[] {
  const today = new Date();
  const day = (d: Date) => d.toISOString().slice(0, 10);
  const yearAgo = new Date(today.getTime() - 365 * 86_400_000);
  const finance = (body: unknown) => (body as { view?: string }).view === 'finance';
  const timeline = (id: string, page: number) => `/api/admin/users/${id}/timeline?page=${page}&perPage=25`;
  return [
    { name: 'dashboard, finance, 30 days', path: '/api/admin/dashboard?days=30', check: finance },
    { name: 'dashboard, finance, 365 days', path: '/api/admin/dashboard?days=365', check: finance },
    { name: 'finance summary, a year', path: `/api/admin/finance/summary?from=${day(yearAgo)}&to=${day(today)}` },
    { name: 'timeline, rich person, page 1', path: timeline(data.richPersonId, 1) },
    { name: `timeline, rich person, page ${deepPages.rich}`, path: timeline(data.richPersonId, deepPages.rich) },
    { name: 'timeline, busy staff member, page 1', path: timeline(data.heavyStaffId, 1) },
    {
      name: `timeline, busy staff member, page ${deepPages.staff}`,
      path: timeline(data.heavyStaffId, deepPages.staff),
    },
    // Every recipient's payout balance: whole months from the monthly rollup, the recent month's lines from the ledger.
    { name: 'payouts, balances of every recipient', path: '/api/admin/payouts/balances' },
  ];
}

/** The last full page of a timeline: the deepest a reader pages to. */
async function deepPage(baseUrl: string, cookie: string, userId: string): Promise<number> {
  const response = await fetch(`${baseUrl}/api/admin/users/${userId}/timeline?page=1&perPage=25`, {
    headers: { Cookie: cookie },
  });
  const { total } = (await response.json()) as { total: number };
  return Math.max(1, Math.floor(total / 25));
}

/** The product's endpoints against their replayed queries, caches on and off. */
async function endpointRows(servers: Servers, data: Dataset, learner: SignedIn, admin: SignedIn): Promise<void> {
  const session = { Cookie: learner.cookie, 'X-CSRF-Token': learner.csrfToken };
  const productId = data.productIds[7]!;
  const lessonId = data.lessonIds[3]!;
  const listQuery = `sort=${encodeURIComponent('["createdAt","DESC"]')}&range=${encodeURIComponent('[0,24]')}&filter=${encodeURIComponent(JSON.stringify({ productId }))}`;
  const endpoints: { name: string; request: Omit<Load, 'url'> & { path: string }; read: boolean }[] = [
    { name: 'storefront product list', request: { path: '/api/store/products' }, read: true },
    {
      name: `product quote with a coupon (${data.couponCode})`,
      request: { path: `/api/store/products/${productId}/quote?coupon=${data.couponCode}` },
      read: true,
    },
    {
      name: 'lesson page data, signed in',
      request: { path: `/api/store/courses/${data.courseSlug}/lessons/${lessonId}`, headers: session },
      read: true,
    },
    {
      name: 'progress write',
      request: {
        path: `/api/store/progress/lessons/${lessonId}`,
        method: 'PUT',
        headers: { ...session, 'Content-Type': 'application/json' },
        body: '{}',
      },
      read: false,
    },
    {
      name: 'admin purchases, by product, newest first, with total',
      request: { path: `/api/admin/purchases?${listQuery}`, headers: { Cookie: admin.cookie } },
      read: false,
    },
  ];
  for (const [i, endpoint] of endpoints.entries()) {
    if (!wanted(endpoint.name)) continue;
    const { path: at, ...request } = endpoint.request;
    const name = `endpoint-${i}`;
    // One request of the caches-off product, its SQL recorded for the baseline to send again.
    const recorded = await fetch(`${servers.uncached}${at}`, {
      method: request.method ?? 'GET',
      headers: { ...request.headers, 'x-bench-record': name },
      body: request.body,
    });
    // Read to its end: the recording is kept when the answer has been sent, and a large one (the product list) is
    // not sent whole until it is read.
    const answer = await recorded.text();
    if (!recorded.ok) throw new Error(`${endpoint.name}: ${recorded.status} ${answer}`);
    const recording = (await (await fetch(`${servers.baseline}/recorded/${name}`)).json()) as { statements: number };
    const result = await interleaved(
      {
        cached: { ...request, url: `${servers.product}${at}` },
        uncached: { ...request, url: `${servers.uncached}${at}` },
        baseline: { ...request, url: `${servers.baseline}/replay/${name}` },
      },
      { rounds: ROUNDS, seconds: SECONDS, settled: () => settled(servers) },
    );
    details[endpoint.name] = { statements: recording.statements, ...result };
    const { cached, uncached, baseline } = result.median;
    const clean = (failed: number) => ({ ok: failed === 0, say: ', every answer 2xx' });
    rows.push(
      comparedRow(`${endpoint.name}, caches on`, cached!.rps, 'req/s', baseline!.rps, 0.8, clean(cached!.failed)),
      comparedRow(
        `${endpoint.name}, caches off`,
        uncached!.rps,
        'req/s',
        baseline!.rps,
        endpoint.read ? 0.5 : 0.8,
        clean(uncached!.failed),
      ),
    );
    console.log(
      `${endpoint.name}: ${recording.statements} statements; medians ${round(cached!.rps, 0)} / ${round(uncached!.rps, 0)} / ${round(baseline!.rps, 0)} req/s (on / off / baseline)`,
    );
  }
}

/**
 * N paid checkouts' completed events, each delivered once, signed; beside N single inserts. As the endpoints' pairs
 * are: each side warmed up first with a tenth as many, not counted (the first fulfilments otherwise time V8 compiling
 * the path and the connections preparing its statements, where an insert has next to nothing to warm), then ROUNDS
 * rounds of N a side (a sample of a thousand inserts lasts a fraction of a second, its ramp and tail most of it), the
 * sides taking turns in an order reversed each round, each sample started once the last one's work (its receipts
 * included) is done; the row is the median per side.
 */
async function fulfilmentRow(db: Db, servers: Servers, data: Dataset, stripe: StandIn): Promise<void> {
  const checkouts = Math.round(3000 * Math.max(SCALE, 0.34));
  const warmUp = Math.round(checkouts / 10);
  // Signed as each is sent, as Stripe signs a delivery: a signature older than the SDK's five minutes' tolerance is
  // refused, and on a busy machine the row's last events go out more than five minutes after they were made.
  const events: Stripe.Event[] = [];
  const total = warmUp + ROUNDS * checkouts;
  // The row's own checkouts: the dataset's sales have theirs, settled long ago.
  const since = new Date();
  for (let i = 0; i < total; i += 16) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(16, total - i) }, (_, k) =>
        fetch(`${servers.product}/api/store/checkout`, {
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
    for (const created of batch) events.push(stripe.pay(created.url.split('/').pop()!));
  }
  let seq = 0;
  const inserts = (amount: number): Load => ({
    url: `${servers.baseline}/insert-event`,
    method: 'POST',
    amount,
    setupRequest: (request) => ({
      ...request,
      body: JSON.stringify({ id: String(seq++) }),
      headers: { ...request.headers, 'content-type': 'application/json' },
    }),
  });
  let next = 0;
  const fulfilments = (amount: number): Load => ({
    url: `${servers.product}/api/webhooks/stripe`,
    method: 'POST',
    amount,
    setupRequest: (request) => {
      const event = signed(events[next++]!);
      return {
        ...request,
        body: event.payload,
        headers: { ...request.headers, 'content-type': 'application/json', 'stripe-signature': event.signature },
      };
    },
  });
  // Each sample starts with the last one's work done: its pools idle and its receipts sent.
  const quiet = async () => {
    await settled(servers);
    while (Number((await db('outboxEmails').where({ status: 'pending' }).count({ n: '*' }))[0]!.n) > 0)
      await new Promise((r) => setTimeout(r, 100));
  };
  const result = await interleaved(
    { base: inserts(checkouts), ours: fulfilments(checkouts) },
    { rounds: ROUNDS, seconds: 0, settled: quiet, warmUps: { base: inserts(warmUp), ours: fulfilments(warmUp) } },
  );
  const { ours, base } = result.median;
  const rowCheckouts = () => db('checkouts as c').where('c.createdAt', '>=', since);
  const fulfilled = Number((await rowCheckouts().where({ status: 'fulfilled' }).count({ n: '*' }))[0]!.n);
  const purchases = Number(
    (await rowCheckouts().join('purchases as p', 'p.id', 'c.purchaseId').count({ n: '*' }))[0]!.n,
  );
  details.fulfilment = { checkouts, warmUp, fulfilled, purchases, ...result, loadavg: loadAverage() };
  rows.push(
    comparedRow(`webhook fulfilment of ${checkouts} new checkouts a round`, ours!.rps, 'checkouts/s', base!.rps, 0.2, {
      ok: fulfilled === total && purchases === total && ours!.failed === 0,
      say: ' (one insert each), each fulfilled once',
    }),
  );
}

/** Each export beside its csv-stringify baseline, one after the other in the same run. */
async function exportRows(servers: Servers, admin: SignedIn): Promise<void> {
  const exports = [
    {
      what: 'charges',
      product: '/api/admin/exports/charges.csv?from=2000-01-01&to=2100-01-01',
      baseline: '/export/charges.csv?from=2000-01-01&to=2100-01-01',
    },
    {
      what: 'purchases (console list)',
      product: '/api/admin/purchases/export.csv',
      baseline: '/export/purchases.csv',
    },
  ];
  const pid = servers.child.pid!;
  for (const e of exports) {
    const base = await timeExport(`${servers.baseline}${e.baseline}`, {}, pid);
    const ours = await timeExport(`${servers.product}${e.product}`, { Cookie: admin.cookie }, pid);
    details[`export of ${e.what}`] = { product: ours, baseline: base, loadavg: loadAverage() };
    const growth = ours.rssPeakMb - ours.rssBeforeMb;
    rows.push(
      comparedRow(
        `CSV export of ${ours.rows.toLocaleString('en-US')} ${e.what}`,
        ours.rowsPerSecond,
        'rows/s',
        base.rowsPerSecond,
        2,
        {
          ok: ours.ok && ours.firstByteMs < 1000 && growth < 100,
          say: `, first byte < 1 s (${ours.firstByteMs} ms), RSS growth < 100 MB (${growth} MB)`,
        },
      ),
    );
  }
}

/**
 * The tax report of the last year (every invoice and credit note of the dataset, grouped into a few dozen rows): the
 * documents it reads per second, and its first byte, which comes only once the whole year is summed.
 */
async function taxReportRow(db: Db, servers: Servers, admin: SignedIn): Promise<void> {
  const day = (d: Date) => d.toISOString().slice(0, 10);
  const to = new Date(Date.now() + 86_400_000);
  const from = new Date(to.getTime() - 366 * 86_400_000);
  const documents = Number(
    (await db('invoices').where('suppliedAt', '>=', day(from)).where('suppliedAt', '<', day(to)).count({ n: '*' }))[0]!
      .n,
  );
  const started = performance.now();
  const report = await timeExport(
    `${servers.product}/api/admin/finance/tax-report.csv?from=${day(from)}&to=${day(to)}`,
    { Cookie: admin.cookie },
    servers.child.pid!,
  );
  const seconds = (performance.now() - started) / 1000;
  details['tax report'] = { documents, seconds, ...report, loadavg: loadAverage() };
  rows.push({
    name: `CSV tax report of a year: ${documents.toLocaleString('en-US')} invoices and credit notes in ${report.rows} rows`,
    value: round(documents / seconds, 0),
    unit: 'documents/s',
    baseline: null,
    ratio: null,
    // Its rows are sums over the whole period, so all of them arrive together: the whole report's time is told too.
    target: `first byte < 1 s (${report.firstByteMs} ms; the report whole in ${round(seconds * 1000, 0)} ms)`,
    met: report.ok && report.rows > 0 && report.firstByteMs < 1000,
  });
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

async function datasetCounts(db: Db): Promise<Record<string, number>> {
  const tables = ['users', 'products', 'purchases', 'merchantCharges', 'splitLines', 'auditLogs', 'lessonProgress'];
  return Object.fromEntries(
    await Promise.all(tables.map(async (t) => [t, Number((await db(t).count({ n: '*' }))[0]!.n)] as const)),
  );
}

async function grow(db: Db, scale: number): Promise<{ data: Dataset; counts: Record<string, number> }> {
  const started = performance.now();
  const data = await generateDataset(db, scaledSize(scale));
  const counts = await datasetCounts(db);
  console.log(`dataset at ${scale}x: ${JSON.stringify(counts)} in ${round((performance.now() - started) / 1000)} s`);
  return { data, counts };
}

/**
 * BENCH_KEEP_DATA=1 keeps each generated size as a database of its own (`lp_bench_data_<scale>_<version>`, outside the test
 * suite's prefix, so its clean-up leaves them) and later runs copy it, which takes seconds where generating a million
 * purchases takes many minutes. The copy is made before any request touches the data, so every run starts alike.
 */
const KEEP_DATA = process.env.BENCH_KEEP_DATA === '1';
/**
 * Named by its size and by its generator, so a change to the generator regenerates. Migrations added since a copy
 * was kept are applied to each copy, as an upgrade applies them to a school's database (seconds, where regenerating a
 * million purchases takes ten minutes); a migration edited after the copy was kept is not run again on it.
 */
let dataVersion: string | null = null;
async function keptName(scale: number): Promise<string> {
  if (!dataVersion) {
    const hash = createHash('sha256').update(await readFile(path.join(PROJECT_ROOT, 'tests/bench/dataset.ts')));
    dataVersion = hash.digest('hex').slice(0, 10);
  }
  return `lp_bench_data_${String(scale).replace(/\W/g, '_')}_${dataVersion}`;
}

async function kept(serverUrl: string, scale: number): Promise<boolean> {
  if (!KEEP_DATA) return false;
  return withClient(serverUrl, async (client) => {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [await keptName(scale)]);
    return rowCount === 1;
  });
}

/**
 * A database copied from another by file (no write-ahead log for every page: the fast way for gigabytes), settled on
 * disk: the copy writes its files through the kernel's cache (gigabytes at BENCH_SCALE=1), which writes them back
 * over the next minute, beside the first rows measured on them. Waited out here.
 */
async function copyDatabase(serverUrl: string, from: string, to: string): Promise<void> {
  await withClient(serverUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${to} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${to} TEMPLATE ${from} STRATEGY FILE_COPY`);
  });
  execFileSync('sync');
}

/**
 * The working database at `scale`: copied from the kept one when there is one, else grown in place (and kept when
 * asked). A copy replaces the database, so the caller's pool is closed first and a new one handed back.
 */
async function datasetAt(
  serverUrl: string,
  name: string,
  db: Db,
  scale: number,
): Promise<{ db: Db; data: Dataset; counts: Record<string, number> }> {
  if (await kept(serverUrl, scale)) {
    await db.destroy();
    const started = performance.now();
    await copyDatabase(serverUrl, await keptName(scale), name);
    console.log(
      `dataset at ${scale}x copied from ${await keptName(scale)} in ${round((performance.now() - started) / 1000)} s`,
    );
    db = createDb(withDatabase(serverUrl, name));
    await migrateLatest(db);
    return { db, ...(await grow(db, scale)) }; // nothing to add: reads the dataset's handles
  }
  const grown = await grow(db, scale);
  if (!KEEP_DATA) return { db, ...grown };
  await db.destroy();
  const keep = await keptName(scale);
  await withClient(serverUrl, async (client) => {
    // Copies of this size made by an earlier generator or schema: gigabytes no run will read again.
    const stale = await client.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE starts_with(datname, $1) AND datname <> $2',
      [keep.slice(0, keep.lastIndexOf('_') + 1), keep],
    );
    for (const { datname } of stale.rows) await client.query(`DROP DATABASE ${datname} WITH (FORCE)`);
  });
  await copyDatabase(serverUrl, name, keep);
  return { db: createDb(withDatabase(serverUrl, name)), ...grown };
}

async function main() {
  const logger = createLogger('warn');
  const loadAtStart = loadAverage();
  console.log(`load average at start: ${loadAtStart.join(', ')} (${os.cpus().length} cpus)`);
  let serverUrl = configuredServerUrl();
  const embedded = serverUrl
    ? null
    : await startEmbeddedPostgres({ dir: EMBEDDED_TEST_DIR, port: EMBEDDED_TEST_PORT, database: 'postgres', logger });
  serverUrl ??= embedded!.url;
  const name = `${TEST_DATABASE_PREFIX}${process.pid}_bench`;
  await withClient(serverUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const databaseUrl = withDatabase(serverUrl, name);
  let db = createDb(databaseUrl);
  const stripe = await startStripeStandIn();
  const appEnv = { ...standInEnv(stripe), PUBLIC_URL: 'http://127.0.0.1' };
  let servers: Servers | null = null;
  const tenthName = `${name}_tenth`;
  let tenthServers: Servers | null = null;
  let tenthDb: Db | null = null;
  const started = performance.now();
  try {
    await migrateLatest(db);
    const small = await datasetAt(serverUrl, name, db, SCALE / 10);
    db = small.db;
    // The tenth stays served beside the full size, so the growth rows measure both sizes in the same rounds.
    const growing = (deepPages: { rich: number; staff: number }) =>
      growthRequests(small.data, deepPages).filter((r) => wanted(r.name));
    const measuresGrowth = growing({ rich: 1, staff: 1 }).length > 0; // the deep pages only number the rows' names
    if (measuresGrowth) {
      await db.destroy();
      await copyDatabase(serverUrl, name, tenthName);
      db = createDb(databaseUrl);
      tenthDb = createDb(withDatabase(serverUrl, tenthName));
      tenthServers = await startServers(withDatabase(serverUrl, tenthName), appEnv, small.data.accountId);
    }

    const full = await datasetAt(serverUrl, name, db, SCALE);
    const { data, counts } = full;
    db = full.db;
    servers = await startServers(databaseUrl, appEnv, data.accountId);
    const admin = await signedIn(db, ['admin']);

    if (tenthServers && tenthDb) {
      const tenthAdmin = await signedIn(tenthDb, ['admin']);
      const deepPages = {
        rich: await deepPage(tenthServers.product, tenthAdmin.cookie, small.data.richPersonId),
        staff: await deepPage(tenthServers.product, tenthAdmin.cookie, small.data.heavyStaffId),
      };
      const growth = await interleavedGrowthTimes(
        { baseUrl: tenthServers.product, cookie: tenthAdmin.cookie },
        { baseUrl: servers.product, cookie: admin.cookie },
        growing(deepPages),
      );
      rows.push(...growthRows(growth.tenth, growth.full, SCALE));
      await stopServers(tenthServers.child);
      tenthServers = null;
    }

    const learner = await signedIn(db, ['learner']);
    await db('purchases').insert({
      userId: learner.user.id,
      productId: data.productIds[0],
      status: 'Valid',
      totalAmount: 0,
      currency: 'usd',
    });
    await endpointRows(servers, data, learner, admin);
    await settled(servers);
    if (wanted('search'))
      rows.push(
        ...(await searchRows(db, servers.product, learner, {
          scale: SCALE,
          seconds: SECONDS,
          productId: data.productIds[0]!,
        })),
      );
    await settled(servers);
    if (wanted('webhook fulfilment')) await fulfilmentRow(db, servers, data, stripe);
    await settled(servers);
    if (wanted('csv export')) await exportRows(servers, admin);
    await settled(servers);
    if (wanted('csv tax report')) await taxReportRow(db, servers, admin);

    if (wanted('console sorts')) {
      const plans = await sortPlans(db);
      // A table of a few thousand rows is sorted in a moment whatever the plan: the planner's choice there says
      // nothing (the API test checks those lists have their indexes, with sequential scans ruled out).
      const large = plans.filter((p) => !p.small && p.tableRows >= 10_000);
      const unindexed = large.filter((p) => !p.usesIndex);
      details.sortsWithoutIndex = unindexed.map((p) => ({ resource: p.resource, sort: p.sort, filter: p.filter }));
      for (const p of unindexed)
        console.log(`no index: ${p.resource} ${p.sort}${p.filter ? ` filtered by ${p.filter}` : ''}`);
      rows.push({
        name: `console sorts and filters on tables of 10,000 rows or more use an index (${unindexed.length} do not: listed above; ${plans.length - large.length} on smaller tables)`,
        value: large.length,
        unit: 'plans checked',
        baseline: null,
        ratio: null,
        target: 'none without an index',
        met: unindexed.length === 0,
      });
    }

    if (wanted('lighthouse') && (process.env.BENCH_LIGHTHOUSE === '1' || ONLY.includes('lighthouse'))) {
      await ensureAppsBuilt(logger);
      const { lighthouseScores } = await import('./lighthouse');
      for (const score of await lighthouseScores(servers.product))
        rows.push({
          name: `Lighthouse mobile performance, ${score.page} (LCP ${score.lcpMs} ms, TBT ${score.tbtMs} ms)`,
          value: score.performance,
          unit: 'score',
          baseline: null,
          ratio: null,
          target: '≥ 95',
          met: score.performance >= 95,
        });
    }

    await stopServers(servers.child); // and let a profiling server write its profile
    servers = null;
    if (wanted('video processing')) {
      const video = await benchVideoProcessing(db);
      rows.push({
        name: `video processing: 1 min 1080p30 with sound (${video.sourceMb} MB) to HLS ${video.renditions.join('/')} + poster`,
        value: video.seconds,
        unit: 's',
        baseline: null,
        ratio: null,
        target: 'ready',
        met: video.status === 'ready',
      });
    }
    if (wanted('npm start')) {
      await ensureAppsBuilt(logger); // a start measures the server, not the first build of the apps
      const start = await startTimes();
      rows.push({
        name: `\`npm start\` to first healthy answer, embedded DB (first start ${start.first} s)`,
        value: start.second,
        unit: 's',
        baseline: null,
        ratio: null,
        target: 'second start < 5 s',
        met: start.second < 5,
      });
    }
    if (wanted('initial javascript')) {
      for (const [app, dir, limitKb] of [
        ['storefront', 'storefront', 100],
        ['console', 'admin', 300],
      ] as const) {
        const js = await initialJs(path.join(PROJECT_ROOT, dir, 'dist'));
        rows.push({
          name: `initial JavaScript, ${app}, gzip (${js.rawKb} KB raw)`,
          value: js.gzipKb,
          unit: 'KB',
          baseline: null,
          ratio: null,
          target: `≤ ${limitKb} KB`,
          met: js.gzipKb <= limitKb,
        });
      }
    }

    const loadAtEnd = loadAverage();
    printTable(rows);
    console.log(
      `load average at start ${loadAtStart.join(', ')}, at end ${loadAtEnd.join(', ')}; ${round((performance.now() - started) / 60_000)} min`,
    );
    const out = path.join(PROJECT_ROOT, 'bench-results');
    await mkdir(out, { recursive: true });
    await writeFile(
      path.join(out, 'bench.json'),
      JSON.stringify(
        {
          at: new Date().toISOString(),
          node: process.version,
          cpus: os.cpus().length,
          cpuModel: os.cpus()[0]?.model,
          memoryGb: round(os.totalmem() / 1024 ** 3),
          loadavg: { start: loadAtStart, end: loadAtEnd },
          scale: SCALE,
          seconds: SECONDS,
          rounds: ROUNDS,
          dataset: { tenth: small.counts, full: counts },
          rows,
          details,
        },
        null,
        2,
      ),
    );
    if (process.env.BENCH_JSON) await writeFile(process.env.BENCH_JSON, JSON.stringify(rows, null, 2));
  } finally {
    if (servers) await stopServers(servers.child);
    if (tenthServers) await stopServers(tenthServers.child);
    await stripe.close();
    await db.destroy();
    await tenthDb?.destroy();
    await withClient(serverUrl, async (client) => {
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.query(`DROP DATABASE IF EXISTS ${tenthName} WITH (FORCE)`);
    });
    await embedded?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
