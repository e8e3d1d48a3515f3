import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../api/src/config';
import { createDb } from '../../api/src/db/connection';
import { pendingMigrations } from '../../api/src/db/migrations';
import { openDatabase, SchemaBehindError } from '../../api/src/db/open';
import { createLogger } from '../../api/src/logger';
import { testConfig } from '../support/app';
import { createEmptyDatabase } from '../support/db';

const run = promisify(execFile);

/** An empty database (no schema), as a new deployment's server has before its first release. */
const emptyDatabase = () => createEmptyDatabase('release');

describe('migrations as the release step, and the pool a replica opens', () => {
  const logger = createLogger('silent');

  it('with MIGRATE_ON_START=false refuses a database behind the code, naming npm run migrate; after it, opens', async () => {
    const url = await emptyDatabase();
    const config = testConfig({ DATABASE_URL: url, MIGRATE_ON_START: 'false' });
    await expect(openDatabase(config, logger)).rejects.toThrow(SchemaBehindError);
    await expect(openDatabase(config, logger)).rejects.toThrow(/Run `npm run migrate` first/);

    // The release step, as a deployment runs it: migrations, then the reference data, once.
    const released = await run(process.execPath, ['--import', 'tsx', 'api/src/migrate.ts'], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, DATABASE_URL: url, LOAD_DEMO_DATA: 'false', LOG_LEVEL: 'warn' },
    });
    expect(released.stdout).toContain('The database is at the latest schema.');
    const again = await run(process.execPath, ['--import', 'tsx', 'api/src/migrate.ts'], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, DATABASE_URL: url, LOAD_DEMO_DATA: 'false', LOG_LEVEL: 'warn' },
    });
    expect(again.stdout).toContain('The database is at the latest schema.'); // safe to run twice

    const database = await openDatabase(config, logger);
    try {
      expect(await pendingMigrations(database.db)).toEqual([]);
      // Reference data came with the release step (the server no longer seeds with MIGRATE_ON_START=false).
      expect(await database.db('merchantAccounts').where({ label: 'test' }).select('identifier')).toEqual([
        { identifier: 'test-provider' },
      ]);
    } finally {
      await database.close();
    }
  }, 120_000);

  it('opens DB_POOL_MAX request connections and one for health, each statement bounded by DB_STATEMENT_TIMEOUT_MS', async () => {
    const url = await emptyDatabase();
    const config = testConfig({ DATABASE_URL: url, DB_POOL_MAX: '3', DB_STATEMENT_TIMEOUT_MS: '200' });
    const database = await openDatabase(config, logger);
    try {
      expect(database.db.client.pool.max).toBe(3);
      expect(database.probe.client.pool.max).toBe(1);
      expect((await database.db.raw('show statement_timeout')).rows).toEqual([{ statement_timeout: '200ms' }]);
      await expect(database.db.raw('select pg_sleep(2)')).rejects.toMatchObject({ code: '57014' }); // query_canceled
      expect((await database.db.raw('select 1 as one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await database.close();
    }
    const unbounded = createDb(url);
    try {
      expect((await unbounded.raw('show statement_timeout')).rows).toEqual([{ statement_timeout: '0' }]);
    } finally {
      await unbounded.destroy();
    }
  }, 60_000);
});
