import type { Config } from '../config';
import type { Logger } from '../logger';
import { createDb, type Db } from './connection';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './embedded';
import { migrateLatest } from './migrations';

export interface OpenDatabase {
  db: Db;
  embedded?: EmbeddedDatabase;
  /** Closes the pool, and stops the embedded server if this process started it. */
  close(): Promise<void>;
}

/** The database named by DATABASE_URL, else the embedded one; migrated to the latest schema. */
export async function openDatabase(config: Config, logger: Logger): Promise<OpenDatabase> {
  let embedded: EmbeddedDatabase | undefined;
  if (config.DATABASE_URL) {
    logger.info('using the PostgreSQL server named by DATABASE_URL');
  } else {
    embedded = await startEmbeddedPostgres({
      dir: config.EMBEDDED_PG_DIR,
      port: config.EMBEDDED_PG_PORT,
      database: 'learning',
      logger,
    });
    if (!embedded.attached)
      logger.info({ dir: config.EMBEDDED_PG_DIR, port: config.EMBEDDED_PG_PORT }, 'embedded PostgreSQL is running');
  }
  const db = createDb(config.DATABASE_URL ?? embedded!.url);
  const close = async () => {
    await db.destroy();
    if (embedded && !embedded.attached) {
      await embedded.stop();
      logger.info('embedded PostgreSQL stopped');
    }
  };
  try {
    const applied = await migrateLatest(db);
    if (applied.length) logger.info({ migrations: applied }, 'applied migrations');
  } catch (error) {
    await close();
    throw error;
  }
  return { db, embedded, close };
}
