import { once } from 'node:events';
import type { Server } from 'node:http';
import { ConfigError, loadConfig, type Config } from './config';
import { openDatabase, SchemaBehindError, type OpenDatabase } from './db/open';
import { databaseUnavailable, unavailableSummary } from './db/unavailable';
import { createLogger, type Logger } from './logger';
import { AppsNotBuiltError, assertAppsBuilt, ensureAppsBuilt } from './web/build';

interface Running {
  server?: Server;
  database?: OpenDatabase;
  stopBackground?: () => Promise<void>;
  /** The start under way, which a stop lets settle before closing what it opened. */
  starting?: Promise<void>;
}

async function start(config: Config, logger: Logger, running: Running): Promise<void> {
  const started = performance.now();
  // Production runs what `npm run build` made; development builds the apps below when missing or stale.
  if (config.NODE_ENV === 'production') assertAppsBuilt();
  // The application's modules load only now, once the settings are read: a wrong setting is said at once.
  const [
    { createApp },
    { systemClock },
    { startBackgroundWork },
    { createServices },
    { warnWhenVideoToolsMissing },
    { runSeeds },
  ] = await Promise.all([
    import('./app'),
    import('./clock'),
    import('./background'),
    import('./services'),
    import('./video/ffmpeg'),
    import('../../seeds/run'),
  ]);
  const database = (running.database = await openDatabase(config, logger));
  const { db, probe } = database;
  // With MIGRATE_ON_START=false, `npm run migrate` (the release step) loads the seeds too.
  if (config.MIGRATE_ON_START) {
    const seeded = await runSeeds(db, { demo: config.LOAD_DEMO_DATA });
    if (seeded.demoLoaded) logger.info('loaded the demo data (first start)');
  }

  if (config.NODE_ENV !== 'production') await ensureAppsBuilt(logger);

  const deps = { db, probe, config, logger, clock: systemClock };
  const services = createServices(deps);
  const app = createApp(deps, { services });
  const server = (running.server = app.listen(config.PORT, config.HOST));
  await once(server, 'listening');
  running.stopBackground = await startBackgroundWork(services, config);

  const base = config.publicUrl.replace(/\/$/, '');
  logger.info({ ms: Math.round(performance.now() - started) }, 'ready');
  process.stdout.write(
    [
      '',
      `  Storefront  ${base}/`,
      `  Console     ${base}/admin`,
      `  API         ${base}/api  (health: ${base}/api/health/live, ${base}/api/health/ready)`,
      database.embedded
        ? `  Database    embedded PostgreSQL in ${config.EMBEDDED_PG_DIR}`
        : '  Database    DATABASE_URL',
      config.SMTP_URL
        ? '  Email       SMTP'
        : "  Email       printed here and kept in the console's outbox (no SMTP_URL)",
      '',
      '  Press Ctrl-C to stop.',
      '',
    ].join('\n') + '\n',
  );
  // After the addresses, where it is seen; only videos need ffmpeg: everything else runs without it.
  await warnWhenVideoToolsMissing(config, logger);
}

async function stop(running: Running, logger: Logger): Promise<void> {
  // Closing the pool under a start's pending queries makes the pool print their aborts: let the start settle
  // first (it fails fast once the database is gone), but not for ever.
  await Promise.race([running.starting?.catch(() => undefined), new Promise((r) => setTimeout(r, 10_000).unref())]);
  if (running.server) {
    running.server.closeAllConnections();
    await new Promise((resolve) => running.server!.close(resolve));
  }
  await running.stopBackground?.();
  await running.database?.close();
  logger.info('stopped');
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.LOG_LEVEL);
  const running: Running = {};

  let stopping = false;
  let heardSignal: () => void = () => undefined;
  const signalHeard = new Promise<void>((resolve) => (heardSignal = resolve));
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    heardSignal();
    logger.info({ signal }, 'shutting down');
    stop(running, logger).then(
      () => process.exit(0),
      (error) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => shutdown(signal));
  // pg-boss records a run's end without awaiting it: when the database is away (a restart, or Ctrl-C reaching the
  // embedded server before this process hears it) that write fails with nobody to hear it. Anything else ends the
  // process, as Node would, but said in the log's JSON.
  process.on('unhandledRejection', (reason) => {
    if (stopping) logger.debug({ message: String(reason) }, 'a write failed while stopping');
    else if (databaseUnavailable(reason))
      logger.warn(unavailableSummary(reason), 'a background write failed: database unavailable');
    else {
      logger.fatal({ err: reason }, 'unhandled rejection');
      process.exit(1);
    }
  });

  try {
    await (running.starting = start(config, logger, running));
  } catch (error) {
    // Ctrl-C while starting reaches the embedded database too, which ends the start's queries: the shutdown under
    // way is the story, not that failure. The database may hear it first (one process group, a busy machine), so a
    // start that lost its database waits a moment for the signal before calling it a failure.
    if (stopping) return;
    if (databaseUnavailable(error)) {
      const signalled = await Promise.race([
        signalHeard.then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5_000)),
      ]);
      if (signalled) return;
    }
    // Refusals that say what to do are one line, not a stack.
    if (error instanceof SchemaBehindError || error instanceof ConfigError || error instanceof AppsNotBuiltError)
      process.stderr.write(`${error.message}\n`);
    else logger.fatal({ err: error }, error instanceof Error ? error.message : 'start failed');
    await stop(running, logger).catch(() => undefined);
    process.exit(1);
  }
}

await main();
