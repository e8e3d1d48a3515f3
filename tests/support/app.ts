import os from 'node:os';
import path from 'node:path';
import { createApp } from '../../api/src/app';
import type { Clock } from '../../api/src/clock';
import { loadConfig, type Config } from '../../api/src/config';
import type { Db } from '../../api/src/db/connection';
import { createLogger } from '../../api/src/logger';
import type { Deps } from '../../api/src/services';
import type { MailTransport, OutgoingEmail } from '../../api/src/mail/transport';

/**
 * Tests write rows directly as well as through the API, as another process would: the read caches are off unless a
 * test turns them on (READ_CACHE_MS) to test them. Every test buys from one address, often as one buyer: the commerce
 * limits are raised unless a test sets COMMERCE_LIMIT_SCALE ('1' is what a server runs with). Uploaded media go to a
 * directory of this test process's own (never the development server's .data/media), unless a test sets MEDIA_DIR.
 */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    READ_CACHE_MS: '0',
    COMMERCE_LIMIT_SCALE: '1000',
    MEDIA_DIR: path.join(os.tmpdir(), 'learning-platform-test-media', String(process.pid)),
    // The renditions as fast as x264 makes them: the tests prove what processing makes, not how small its files are.
    VIDEO_X264_PRESET: 'ultrafast',
    ...env,
  });
}

export interface TestOverrides {
  config?: Config;
  /** The readiness check's own connection, as the server has one. */
  probe?: Db;
  clock?: Clock;
  mailTransport?: MailTransport;
}

/** What the default transport was handed, by outbox row id: each email as it went out, its secret (a sign-in link's token) in place. */
export const deliveredEmails = new Map<string, OutgoingEmail>();

/** Emails go nowhere by default in tests; the outbox table keeps them (secrets redacted), `deliveredEmails` as sent. */
export const silentTransport: MailTransport = {
  name: 'log',
  timeoutSeconds: 5,
  send: async (email) => {
    if (email.id) deliveredEmails.set(email.id, email);
  },
};

export function testDeps(db: Db, overrides: TestOverrides = {}): Deps {
  const config = overrides.config ?? testConfig();
  return {
    db,
    probe: overrides.probe,
    config,
    logger: createLogger(config.LOG_LEVEL),
    clock: overrides.clock ?? { now: () => new Date() },
    mailTransport: overrides.mailTransport ?? silentTransport,
  };
}

type Handler = ReturnType<ReturnType<typeof createApp>['callback']>;
/** The app of each database with the default dependencies: one, as a server has one, however often a test asks. */
const plainApps = new WeakMap<Db, Handler>();

/**
 * The app as the server builds it, as a request handler for supertest. Building it takes tens of milliseconds, so
 * with no overrides a database's app is built once and handed out again (its services then keep their state from
 * one request to the next, as a server's do); with overrides, a new one each call.
 */
export function testApp(db: Db, overrides: TestOverrides = {}): Handler {
  if (Object.keys(overrides).length) return createApp(testDeps(db, overrides)).callback();
  let app = plainApps.get(db);
  if (!app) plainApps.set(db, (app = createApp(testDeps(db)).callback()));
  return app;
}
