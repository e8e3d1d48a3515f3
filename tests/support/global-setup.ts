import type { TestProject } from 'vitest/node';
import { createDb } from '../../api/src/db/connection';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../api/src/db/embedded';
import { migrateLatest } from '../../api/src/db/migrations';
import { createLogger } from '../../api/src/logger';
import { ensureAppsBuilt } from '../../api/src/web/build';
import {
  EMBEDDED_TEST_DIR,
  EMBEDDED_TEST_PORT,
  TEST_DATABASE_PREFIX,
  configuredServerUrl,
  withClient,
  withDatabase,
} from './database-server';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseServerUrl: string;
    templateDatabase: string;
  }
}

/**
 * Once per run: a migrated template database (each test file clones it, which takes milliseconds),
 * and built apps for the browser tests.
 */
export default async function setup(project: TestProject) {
  const logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'warn');
  let embedded: EmbeddedDatabase | undefined;
  let serverUrl = configuredServerUrl();
  if (!serverUrl) {
    embedded = await startEmbeddedPostgres({
      dir: EMBEDDED_TEST_DIR,
      port: EMBEDDED_TEST_PORT,
      database: 'postgres',
      logger,
    });
    serverUrl = embedded.url;
  }

  const template = `${TEST_DATABASE_PREFIX}${process.pid}_template`;
  await dropDatabases(serverUrl, leftover);
  await withClient(serverUrl, (client) => client.query(`CREATE DATABASE ${template}`));
  const db = createDb(withDatabase(serverUrl, template), { max: 1 });
  try {
    await migrateLatest(db);
  } finally {
    await db.destroy();
  }

  // Lets API-only runs skip the app builds (browser tests need them).
  if (process.env.TEST_SKIP_APP_BUILD !== 'true') await ensureAppsBuilt(logger);

  project.provide('databaseServerUrl', serverUrl);
  project.provide('templateDatabase', template);

  return async () => {
    // The template and every database the files made (tests/support/db.ts leaves them to this).
    await dropDatabases(serverUrl, (name) => name.startsWith(`${TEST_DATABASE_PREFIX}${process.pid}_`));
    await embedded?.stop();
  };
}

/**
 * Drops the test databases `doomed` picks. Each DROP DATABASE waits for a checkpoint; drops sent side by side share
 * one, so four connections take turns through the list.
 */
async function dropDatabases(serverUrl: string, doomed: (name: string) => boolean): Promise<void> {
  const names = await withClient(serverUrl, async (client) =>
    (
      await client.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE starts_with(datname, $1)`, [
        TEST_DATABASE_PREFIX,
      ])
    ).rows
      .map((row) => row.datname)
      .filter(doomed),
  );
  const next = () => names.pop();
  await Promise.all(
    Array.from({ length: Math.min(4, names.length) }, () =>
      withClient(serverUrl, async (client) => {
        for (let name = next(); name; name = next())
          await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`);
      }),
    ),
  );
}

/** Databases of earlier runs whose process is gone (a crash or Ctrl-C skips teardown). */
function leftover(name: string): boolean {
  const pid = Number(/^lp_test_(\d+)_/.exec(name)?.[1]);
  return !pid || !isAlive(pid);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
