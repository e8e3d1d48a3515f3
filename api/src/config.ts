import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const emptyAsUndefined = (v: unknown) => (v === '' ? undefined : v);

/**
 * How long the catalog and course-content caches keep an entry: the most another process's change takes to show
 * on the storefront (this process's own writes show at once). 0 turns them off.
 */
export const DEFAULT_READ_CACHE_MS = 1000;

const ConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATABASE_URL: z.preprocess(
    emptyAsUndefined,
    z
      .url()
      .refine((u) => /^postgres(ql)?:\/\//.test(u), 'must be a postgres:// URL')
      .optional(),
  ),
  EMBEDDED_PG_DIR: z
    .string()
    .min(1)
    .default(path.join(PROJECT_ROOT, '.data', 'postgres')),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  /**
   * Connections this process may hold. Replicas × DB_POOL_MAX (plus one health connection each) must stay under
   * the server's max_connections, or PgBouncer's pool.
   */
  DB_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  /**
   * DATABASE_URL goes through PgBouncer in transaction mode: no named prepared statements, nothing that needs a
   * session. Set the statement timeout on the role then (ALTER ROLE … SET statement_timeout).
   */
  DB_PGBOUNCER: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /** The longest one SQL statement may run before PostgreSQL cancels it; 0 means no limit. */
  DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).max(3_600_000).default(0),
  /**
   * `false` on every replica once `npm run migrate` is the release step: the server then only checks that the
   * schema is current and refuses to start if it is not.
   */
  MIGRATE_ON_START: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  DEFAULT_COUNTRY: z
    .string()
    .regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code such as US')
    .default('US'),
  LOAD_DEMO_DATA: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  TRUST_PROXY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /** How many trusted proxies stand in front (with TRUST_PROXY): the client address is read that far from the right. */
  PROXY_HOPS: z.coerce.number().int().min(1).max(10).default(1),
  /** The header a trusted proxy puts the buyer's country in (e.g. cf-ipcountry); read only with TRUST_PROXY. */
  COUNTRY_HEADER: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^[a-z0-9-]+$/i)
      .optional(),
  ),
  /** Headers the same proxy puts the buyer's city and region in (e.g. cf-ipcity, cf-region), recorded on purchases. */
  CITY_HEADER: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^[a-z0-9-]+$/i)
      .optional(),
  ),
  REGION_HEADER: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^[a-z0-9-]+$/i)
      .optional(),
  ),
  SMTP_URL: z.preprocess(
    emptyAsUndefined,
    z
      .url()
      .refine((u) => /^smtps?:\/\//.test(u), 'must be an smtp:// or smtps:// URL')
      .optional(),
  ),
  MAIL_FROM: z.string().min(3).default('Courses <no-reply@localhost>'),
  /** Each SMTP step (connect, greeting, each reply) gives up after this; a send job's run may last 6× as long. */
  SMTP_TIMEOUT_MS: z.coerce.number().int().min(500).max(120_000).default(20_000),
  /** The wait before an email's first retry; each later one waits twice as long (with jitter). */
  EMAIL_RETRY_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /** Whether this process runs background jobs and schedules (a replica may only answer requests). */
  JOB_WORKERS: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /** How often an idle job worker looks for work it was not woken for (retries, jobs another replica left). */
  JOB_POLL_SECONDS: z.coerce.number().min(0.5).max(600).default(2),
  GITHUB_CLIENT_ID: z.preprocess(emptyAsUndefined, z.string().optional()),
  GITHUB_CLIENT_SECRET: z.preprocess(emptyAsUndefined, z.string().optional()),
  GITHUB_AUTHORIZE_URL: z.url().default('https://github.com/login/oauth/authorize'),
  GITHUB_TOKEN_URL: z.url().default('https://github.com/login/oauth/access_token'),
  GITHUB_API_URL: z.url().default('https://api.github.com'),
  /** How long after buying an individual purchase may be given to someone else. */
  TRANSFER_WINDOW_DAYS: z.coerce.number().int().min(0).max(365).default(7),
  /** How long a membership's failed renewal keeps its access (docs/domain.md §22). */
  SUBSCRIPTION_GRACE_DAYS: z.coerce.number().int().min(0).max(90).default(7),
  /**
   * When a failed renewal is tried again: days after the first failure, comma-separated and rising ("1,3,5"); empty
   * for no retries of our own (docs/domain.md §22).
   */
  SUBSCRIPTION_RETRY_DAYS: z
    .string()
    .default('1,3,5')
    .transform((v) => (v.trim() === '' ? [] : v.split(',').map((day) => Number(day.trim()))))
    .pipe(
      z
        .array(z.number().int().min(0).max(90))
        .refine((days) => days.every((day, n) => n === 0 || day > days[n - 1]!), 'must be whole days, rising'),
    ),
  /** How long a split line waits before a payout run may pay it (refunds and disputes come within it). */
  PAYOUT_HOLD_DAYS: z.coerce.number().int().min(0).max(365).default(14),
  /** The smallest payout a run sends, in the currency's minor unit; a smaller balance waits for the next run. */
  PAYOUT_MINIMUM_CENTS: z.coerce.number().int().min(1).max(100_000_000).default(2000),
  /**
   * Multiplies every commerce rate limit (checkout starts, coupon codes tried in quotes, transfer offers; the numbers
   * are in api/src/commerce/checkout/limits.ts): raise it where many real buyers share one address. The tests raise it.
   */
  COMMERCE_LIMIT_SCALE: z.coerce.number().int().min(1).max(100_000).default(1),
  /** How many comments and replies one person may post in a minute; more are refused (429) until the next minute. */
  COMMENTS_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(10),
  /**
   * How long after a reply its email to the comment's author is decided and sent: a reply deleted or hidden meanwhile
   * sends nothing, and an edit made meanwhile is what the email quotes. 0 sends at once.
   */
  REPLY_EMAIL_DELAY_SECONDS: z.coerce.number().int().min(0).max(86_400).default(600),
  /** How long the outbox keeps a sent (or failed) email's bodies; the row itself (to, kind, subject, status, dates) stays. */
  OUTBOX_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  // Stripe is used whenever a secret key is set; the built-in test provider otherwise.
  STRIPE_SECRET_KEY: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^(sk|rk)_(test|live)_\w+$/, 'must be a Stripe secret key (sk_test_… or sk_live_…)')
      .optional(),
  ),
  STRIPE_WEBHOOK_SECRET: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^whsec_\w+$/, 'must be a webhook signing secret (whsec_…)')
      .optional(),
  ),
  // Another address for Stripe's API (a local stand-in in tests); the SDK's own default otherwise.
  STRIPE_API_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
  /** How long one request to Stripe may take before the SDK gives up on it and retries (same idempotency key). */
  STRIPE_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(20_000),
  /** In production without Stripe keys, `true` lets the built-in test provider take (free) payments: a demo site. */
  ALLOW_TEST_PAYMENTS: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  READ_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(DEFAULT_READ_CACHE_MS),
  /** A device token unused this many days is signed out (its last use is recorded at most every ten minutes). */
  DEVICE_TOKEN_IDLE_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  /** How much of a lesson's video (in %) a learner watches before the lesson counts as complete. */
  VIDEO_COMPLETE_PERCENT: z.coerce.number().int().min(1).max(100).default(90),
  /**
   * The key that signs video links (/media/videos/<token>/…). Without it, a random key made once and kept in the
   * database: every replica signs with the same one either way.
   */
  MEDIA_URL_SECRET: z.preprocess(emptyAsUndefined, z.string().min(32, 'must be at least 32 characters').optional()),
  /** Where to report a vulnerability, in /.well-known/security.txt (default: security@ at PUBLIC_URL's host). */
  SECURITY_CONTACT: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^(mailto:\S+@\S+|https:\/\/\S+)$/, 'must be a mailto: address or an https:// URL')
      .optional(),
  ),
  /** Where uploaded media (images) live when no S3_BUCKET is set: one directory every replica shares. */
  MEDIA_DIR: z
    .string()
    .min(1)
    .default(path.join(PROJECT_ROOT, '.data', 'media')),
  /** S3-compatible object storage for media instead of MEDIA_DIR (AWS S3, MinIO, Cloudflare R2, …). */
  S3_BUCKET: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name (3–63 lower-case letters, digits, . or -)')
      .optional(),
  ),
  /** The storage's address when it is not AWS (e.g. http://127.0.0.1:9000 for MinIO); AWS's own otherwise. */
  S3_ENDPOINT: z.preprocess(
    emptyAsUndefined,
    z
      .url()
      .refine((u) => /^https?:\/\//.test(u), 'must be an http:// or https:// URL')
      .optional(),
  ),
  /** The storage's address for browsers, when S3_ENDPOINT is one they cannot reach: downloads' presigned links. */
  S3_PUBLIC_ENDPOINT: z.preprocess(
    emptyAsUndefined,
    z
      .url()
      .refine((u) => /^https?:\/\//.test(u), 'must be an http:// or https:// URL')
      .optional(),
  ),
  S3_REGION: z.string().min(1).default('us-east-1'),
  /** Both or neither: without them the AWS SDK's own chain (AWS_* variables, an instance role) is used. */
  S3_ACCESS_KEY_ID: z.preprocess(emptyAsUndefined, z.string().optional()),
  S3_SECRET_ACCESS_KEY: z.preprocess(emptyAsUndefined, z.string().optional()),
  /** `true` addresses objects as endpoint/bucket/key (MinIO and most S3-compatible servers) instead of bucket.endpoint/key. */
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /** The programs that process lesson videos (Debian: apt-get install ffmpeg brings both); found on PATH by default. */
  FFMPEG_PATH: z.string().min(1).default('ffmpeg'),
  FFPROBE_PATH: z.string().min(1).default('ffprobe'),
  /**
   * How hard libx264 works on the renditions: a faster preset takes less CPU for a larger file at the same quality
   * (x264's names, `ultrafast` to `placebo`). Tests use `ultrafast`.
   */
  VIDEO_X264_PRESET: z
    .enum(['ultrafast', 'superfast', 'veryfast', 'faster', 'fast', 'medium', 'slow', 'slower', 'veryslow', 'placebo'])
    .default('veryfast'),
  /** The largest video file an upload or `attach-video` takes (default 5 GiB). */
  VIDEO_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024 * 1024)
    .max(1024 ** 4)
    .default(5 * 1024 ** 3),
});

export type Config = z.infer<typeof ConfigSchema> & { publicUrl: string };

export class ConfigError extends Error {}

/** Parses the environment once; a wrong or missing setting throws a message that names it. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const config = parsed.data;
  if (Boolean(config.GITHUB_CLIENT_ID) !== Boolean(config.GITHUB_CLIENT_SECRET)) {
    throw new ConfigError(
      'Invalid configuration:\n  GITHUB_CLIENT_SECRET: set both GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET, or neither',
    );
  }
  if (config.STRIPE_SECRET_KEY && !config.STRIPE_WEBHOOK_SECRET) {
    throw new ConfigError(
      'Invalid configuration:\n  STRIPE_WEBHOOK_SECRET: required with STRIPE_SECRET_KEY, or no payment would ever be confirmed',
    );
  }
  if (config.NODE_ENV === 'production' && !config.STRIPE_SECRET_KEY && !config.ALLOW_TEST_PAYMENTS) {
    throw new ConfigError(
      'Invalid configuration:\n  STRIPE_SECRET_KEY: required with NODE_ENV=production, or every purchase would be free (the built-in test provider); set ALLOW_TEST_PAYMENTS=true for a demo site',
    );
  }
  if (Boolean(config.S3_ACCESS_KEY_ID) !== Boolean(config.S3_SECRET_ACCESS_KEY)) {
    throw new ConfigError(
      'Invalid configuration:\n  S3_SECRET_ACCESS_KEY: set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither',
    );
  }
  if (!config.S3_BUCKET && (config.S3_ENDPOINT || config.S3_ACCESS_KEY_ID)) {
    throw new ConfigError(
      'Invalid configuration:\n  S3_BUCKET: required with S3_ENDPOINT or S3 keys, or media would stay on local disk (MEDIA_DIR)',
    );
  }
  return { ...config, publicUrl: config.PUBLIC_URL ?? `http://localhost:${config.PORT}` };
}
