// The release step (npm run migrate): brings the database to this code's schema and loads the reference data (and the
// demo, with LOAD_DEMO_DATA), once, before the new servers start with MIGRATE_ON_START=false. Safe to run again.
import { loadConfig } from './config';
import { openDatabase } from './db/open';
import { createLogger } from './logger';
import { runSeeds } from '../../seeds/run';

async function main(): Promise<number> {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL);
  const database = await openDatabase(config, logger, { migrate: true });
  try {
    const seeded = await runSeeds(database.db, { demo: config.LOAD_DEMO_DATA });
    if (seeded.demoLoaded) logger.info('loaded the demo data');
    process.stdout.write('The database is at the latest schema.\n');
    return 0;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
