import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, inject } from 'vitest';
import { createDb, type Db } from '../../api/src/db/connection';
import { withClient, withDatabase } from './database-server';

export interface TestDatabase {
  db: Db;
  url: string;
  name: string;
}

/**
 * A fresh, migrated database cloned from the run's template. `release()` closes its connections and leaves it to the
 * run's teardown, which drops every file's database at once: PostgreSQL makes each DROP DATABASE wait for a
 * checkpoint, and one every few seconds while the suite writes cost more than all the tests' queries (each page
 * written after a checkpoint goes into the log whole again).
 */
export async function createTestDatabase(): Promise<TestDatabase & { release(): Promise<void> }> {
  const serverUrl = inject('databaseServerUrl');
  const template = inject('templateDatabase');
  const name = `${template.replace(/_template$/, '')}_${randomBytes(4).toString('hex')}`;
  await withClient(serverUrl, async (client) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
        // A commit answers without waiting for the log to reach the disk: what a transaction sees, locks and
        // conflicts with is the same, only a crash of the server could lose the last commits, and no test crashes
        // this one (those that restart PostgreSQL start their own). A fifth off the API files' time.
        await client.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
        return;
      } catch (error) {
        // 55006: the template is briefly in use by another clone; try again.
        if ((error as { code?: string }).code !== '55006' || attempt >= 20) throw error;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  });
  const url = withDatabase(serverUrl, name);
  const db = createDb(url);
  return {
    db,
    url,
    name,
    async release() {
      await db.destroy();
    },
  };
}

/**
 * An empty database (no schema), as a new deployment's server has before its first release; its address. The run's
 * teardown drops it with the files' databases.
 */
export async function createEmptyDatabase(label: string): Promise<string> {
  const serverUrl = inject('databaseServerUrl');
  const name = `${inject('templateDatabase').replace(/_template$/, '')}_${label}_${randomBytes(4).toString('hex')}`;
  await withClient(serverUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  return withDatabase(serverUrl, name);
}

/** One database for the whole test file; the getter is valid inside tests and hooks. */
export function useTestDatabase(): () => TestDatabase {
  let current: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  beforeAll(async () => {
    current = await createTestDatabase();
  });
  afterAll(async () => {
    await current?.release();
  });
  return () => {
    if (!current) throw new Error('the test database is not ready: call it inside a test or hook');
    return current;
  };
}
