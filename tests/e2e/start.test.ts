import { execSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/db';
import { cliHere } from '../support/cli';
import {
  freePort,
  isListening,
  npmStart as spawnNpmStart,
  startServer as spawnServer,
  waitForOk,
  type Started,
} from '../support/processes';

/** The environment of a fresh machine: no database configured. */
function baseEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'info', ...extra };
  delete env.DATABASE_URL;
  delete env.TEST_DATABASE_URL;
  delete env.VITEST;
  return env;
}

function postmasterPid(dataDir: string): number | undefined {
  const file = path.join(dataDir, 'postmaster.pid');
  return existsSync(file) ? Number(readFileSync(file, 'utf8').split('\n')[0]) : undefined;
}

/** A live process (a zombie left for a reaper does not count). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Kills npm and node the hard way (as an out-of-memory kill would), leaving PostgreSQL running. */
function crash(started: Started): void {
  const group = execSync(`ps -o pid=,args= -g ${started.child.pid}`, { encoding: 'utf8' });
  for (const line of group.trim().split('\n')) {
    const [pid, ...args] = line.trim().split(/\s+/);
    if (args.join(' ').includes('postgres')) continue;
    try {
      process.kill(Number(pid), 'SIGKILL');
    } catch (error) {
      // Gone between ps and the kill (a short-lived child, such as the start's ffmpeg probe): nothing to kill.
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
  }
}

/**
 * Ctrl-C: the whole group gets SIGINT. npm re-raises it and dies at once; the server then stops the
 * database and exits 0 on its own.
 */
async function stopWithCtrlC(started: Started): Promise<void> {
  process.kill(-started.child.pid!, 'SIGINT');
  const exit = await started.exited;
  expect(exit.code === 0 || exit.signal === 'SIGINT', JSON.stringify(exit)).toBe(true);
  await waitFor(() => /"msg":"stopped"/.test(started.output()), started);
  expect(started.output()).not.toMatch(/shutdown failed|"level":50/);
  // No stack trace of any kind (a pg error printed as the embedded server goes away with the same Ctrl-C).
  expect(started.output()).not.toMatch(/\n\s+at |"stack":/);
}

async function waitFor(condition: () => boolean, started: Started, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out; output so far:\n${started.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Whether any process of the group `pgid` still runs. */
function groupAlive(pgid: number): boolean {
  return spawnSync('ps', ['-o', 'pid=', '-g', String(pgid)], { encoding: 'utf8' }).stdout.trim() !== '';
}

// A test that fails half way leaves its server (and the database it started) running, and every later test would
// find them: each is stopped with a Ctrl-C after its test, and waited for.
// `npm start` is proved once per database (embedded, DATABASE_URL) and with a crash that kills npm too; the other
// cases, about the server itself, start what npm runs (`node scripts/run.mjs server`) without npm.
const launched: Started[] = [];
const npmStart = (env: NodeJS.ProcessEnv) => {
  const started = spawnNpmStart(env);
  launched.push(started);
  return started;
};
const startServer = (env: NodeJS.ProcessEnv) => {
  const started = spawnServer(env);
  launched.push(started);
  return started;
};
/** A signal to the process group, which may already be gone. */
function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // gone already
  }
}
afterEach(async () => {
  for (const { child } of launched.splice(0)) {
    if (!groupAlive(child.pid!)) continue;
    signalGroup(child.pid!, 'SIGINT');
    const deadline = Date.now() + 30_000;
    while (groupAlive(child.pid!) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    if (groupAlive(child.pid!)) signalGroup(child.pid!, 'SIGKILL');
  }
});

describe('npm start on the embedded database', { timeout: 120_000 }, () => {
  // Under the system temp folder: the `postgres` user that runs the server must be able to reach it.
  const root = mkdtempSync(path.join(tmpdir(), 'lp-start-'));
  chmodSync(root, 0o755);
  const dataDir = path.join(root, 'postgres');
  afterAll(() => {
    const pid = postmasterPid(dataDir);
    if (pid && alive(pid)) process.kill(pid, 'SIGKILL');
    rmSync(root, { recursive: true, force: true });
  });

  const startEnv = async () => {
    const port = await freePort();
    const pgPort = await freePort();
    return {
      port,
      pgPort,
      env: baseEnv({ PORT: String(port), EMBEDDED_PG_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort) }),
    };
  };

  it('initialises, migrates, loads the demo, prints the URLs and stops the database on Ctrl-C', async () => {
    const { port, pgPort, env } = await startEnv();
    const started = npmStart(env);
    await waitForOk(`http://127.0.0.1:${port}/api/health`, started);

    const products = (await (await fetch(`http://127.0.0.1:${port}/api/store/products`)).json()) as { data: unknown[] };
    expect(products.data.length).toBeGreaterThanOrEqual(3);
    // The addresses come once the server is ready, which may be a moment after it first answers.
    await waitFor(() => started.output().includes('Press Ctrl-C to stop.'), started);
    expect(started.output()).toContain(`Storefront  http://localhost:${port}/`);
    expect(started.output()).toContain(`Console     http://localhost:${port}/admin`);
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);
    expect(await isListening(pgPort)).toBe(true);

    // The command-line tool uses the running server's database and leaves it running (run here, through what its
    // entry runs: another process than the server's, as `npm run cli` is; tests/e2e/cli.test.ts runs npm's).
    const cli = await cliHere(['grant-role', 'ops@example.com', 'support'], env);
    expect(cli.stdout).toBe('ops@example.com: learner, support\n');
    // Still serving (a fresh request: on a busy machine the CLI can outlast the keep-alive socket of the last one).
    await waitForOk(`http://127.0.0.1:${port}/api/health`, started);

    await stopWithCtrlC(started);
    expect(await isListening(pgPort)).toBe(false);
    expect(await isListening(port)).toBe(false);
    expect(postmasterPid(dataDir)).toBeUndefined();
  });

  it('reuses the data on a later start without loading the demo again, and recovers by itself after a crash left the database server running', async () => {
    const first = await startEnv();
    const crashed = npmStart(first.env);
    await waitForOk(`http://127.0.0.1:${first.port}/api/health`, crashed);
    const products = (await (await fetch(`http://127.0.0.1:${first.port}/api/store/products`)).json()) as {
      data: { name: string }[];
    };
    expect(products.data.map((p) => p.name).sort()).toEqual([
      'All access',
      'Live Workshop: Type-Level TypeScript',
      'TypeScript Fundamentals',
      'TypeScript Pro',
    ]);
    expect(crashed.output()).not.toContain('loaded the demo data');
    const orphan = postmasterPid(dataDir)!;
    crash(crashed);
    await crashed.exited;
    expect(alive(orphan)).toBe(true);

    const second = await startEnv();
    const restarted = startServer(second.env);
    await waitForOk(`http://127.0.0.1:${second.port}/api/health`, restarted);
    expect(restarted.output()).toContain('stopping an embedded PostgreSQL left running');
    expect(alive(orphan)).toBe(false);
    expect(restarted.output()).not.toContain('loaded the demo data');
    await stopWithCtrlC(restarted);
  });
  it('stops cleanly on a Ctrl-C that comes while it is still starting (the database gets it too)', async () => {
    const { env } = await startEnv();
    const started = startServer(env);
    await waitFor(() => started.output().includes('embedded PostgreSQL is running'), started, 90_000);
    await stopWithCtrlC(started);
    expect(postmasterPid(dataDir)).toBeUndefined();
  });
  it('stops cleanly when the database hears the Ctrl-C before the server does (a busy machine)', async () => {
    const { env } = await startEnv();
    const started = startServer(env);
    await waitFor(() => started.output().includes('embedded PostgreSQL is running'), started, 90_000);
    // The terminal's SIGINT reaches the whole group; here the database gets it first and ends the start's queries.
    const postmaster = postmasterPid(dataDir)!;
    process.kill(postmaster, 'SIGINT');
    await waitFor(() => !alive(postmaster), started);
    await stopWithCtrlC(started);
    expect(started.output()).not.toMatch(/"level":60/);
  });
});

// Each database is released without waiting for its drop, which waits for every backend of the shared server.
describe('npm start with DATABASE_URL', { timeout: 120_000 }, () => {
  it('uses that server and starts no embedded one', async () => {
    const database = await createTestDatabase();
    const unusedDir = path.join(tmpdir(), `lp-unused-${process.pid}`);
    try {
      const port = await freePort();
      const env = { ...baseEnv({ PORT: String(port), EMBEDDED_PG_DIR: unusedDir }), DATABASE_URL: database.url };
      const started = npmStart(env);
      await waitForOk(`http://127.0.0.1:${port}/api/health`, started);
      expect(started.output()).toContain('using the PostgreSQL server named by DATABASE_URL');
      expect(existsSync(unusedDir)).toBe(false);
      expect(Number((await database.db('products').count({ n: '*' }))[0]!.n)).toBeGreaterThanOrEqual(3);
      await stopWithCtrlC(started);
    } finally {
      await database.release();
    }
  });

  it('with MIGRATE_ON_START=false, refuses a database behind the code in one line naming npm run migrate', async () => {
    const database = await createTestDatabase();
    try {
      await database.db.raw(`DELETE FROM knex_migrations WHERE id = (SELECT max(id) FROM knex_migrations)`);
      const env = {
        ...baseEnv({ PORT: String(await freePort()), MIGRATE_ON_START: 'false' }),
        DATABASE_URL: database.url,
      };
      const started = startServer(env);
      const exit = await started.exited;
      expect(exit.code).toBe(1);
      expect(started.output()).toMatch(
        /The database is behind this code \(1 migration to run: \d{14}_\w+\.ts\)\. Run `npm run migrate` first/,
      );
      expect(started.output()).not.toMatch(/\n\s+at /); // no stack trace
    } finally {
      await database.release();
    }
  });

  it('stops with a message naming a wrong setting', async () => {
    const started = startServer(baseEnv({ PORT: 'eighty' }));
    const exit = await started.exited;
    expect(exit.code).toBe(1);
    expect(started.output()).toMatch(/Invalid configuration:\n\s+PORT: /);
  });
});
