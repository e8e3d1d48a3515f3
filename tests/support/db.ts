import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, inject } from 'vitest';
import { createDb, type Db } from '../../api/src/db/connection';
import { withClient, withDatabase } from './database-server';

export interface TestDatabase {
  db: Db;
  url: string;
  name: string;
}

/** A fresh, migrated database cloned from the run's template. */
export async function createTestDatabase(): Promise<
  TestDatabase & { drop(): Promise<void>; release(): Promise<void> }
> {
  const serverUrl = inject('databaseServerUrl');
  const template = inject('templateDatabase');
  const name = `${template.replace(/_template$/, '')}_${randomBytes(4).toString('hex')}`;
  await withClient(serverUrl, async (client) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
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
    async drop() {
      await db.destroy();
      await withClient(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
    /**
     * Closes the connections and drops the database without waiting for it. A drop waits until every backend of the
     * server has acknowledged it, and a backend blocked writing to a slow reader (a streamed export's test) holds
     * that for as long; the next file need not wait. The run's global teardown drops whatever is left.
     */
    async release() {
      await db.destroy();
      void withClient(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).catch(
        () => undefined,
      );
    },
  };
}

/** An empty database (no schema), as a new deployment's server has before its first release. */
export async function createEmptyDatabase(label: string): Promise<{ url: string; drop(): Promise<void> }> {
  const serverUrl = inject('databaseServerUrl');
  const name = `${inject('templateDatabase').replace(/_template$/, '')}_${label}_${randomBytes(4).toString('hex')}`;
  await withClient(serverUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  return {
    url: withDatabase(serverUrl, name),
    async drop() {
      await withClient(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
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
