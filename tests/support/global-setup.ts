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
  await withClient(serverUrl, async (client) => {
    await dropLeftovers(client);
    await client.query(`CREATE DATABASE ${template}`);
  });
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
    // The template and the files' databases whose drop was not waited for (tests/support/db.ts).
    await withClient(serverUrl, (client) => dropDatabases(client, `${TEST_DATABASE_PREFIX}${process.pid}_`));
    await embedded?.stop();
  };
}

/** Every database whose name starts with `prefix` (taken literally: `_` is a wildcard of LIKE). */
async function dropDatabases(client: import('pg').Client, prefix: string): Promise<void> {
  const { rows } = await client.query<{ datname: string }>(
    `SELECT datname FROM pg_database WHERE starts_with(datname, $1)`,
    [prefix],
  );
  for (const { datname } of rows) {
    await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(datname)} WITH (FORCE)`);
  }
}

/** Databases of earlier runs whose process is gone (a crash or Ctrl-C skips teardown). */
async function dropLeftovers(client: import('pg').Client): Promise<void> {
  const { rows } = await client.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [
    `${TEST_DATABASE_PREFIX}%`,
  ]);
  for (const { datname } of rows) {
    const pid = Number(/^lp_test_(\d+)_/.exec(datname)?.[1]);
    if (pid && isAlive(pid)) continue;
    await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(datname)} WITH (FORCE)`);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
