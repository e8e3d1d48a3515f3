import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Db } from '../../db/connection';
import { DAY_MS } from '../../shared/durations';

const GRACE_MS = 24 * 60 * 60 * 1000;
/** How long a sign-in stays on the person's timeline. */
const SIGN_IN_RETENTION_DAYS = 365;

/**
 * Deletes credentials that can no longer be used: expired sign-in links, OAuth states, device codes and
 * sessions (a day after expiry, so late requests still get a clear "expired"), device tokens unused for
 * `DEVICE_TOKEN_IDLE_DAYS`, old rate-limit windows and sign-ins older than a year. Emails
 * done (sent or failed) for longer than `OUTBOX_RETENTION_DAYS` lose their bodies (and a failed one its secret);
 * the row stays for the back office.
 */
export async function pruneExpired({
  db,
  clock,
  config,
}: {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'OUTBOX_RETENTION_DAYS' | 'DEVICE_TOKEN_IDLE_DAYS'>;
}): Promise<Record<string, number>> {
  const cutoff = new Date(clock.now().getTime() - GRACE_MS);
  const idleCutoff = new Date(clock.now().getTime() - config.DEVICE_TOKEN_IDLE_DAYS * DAY_MS);
  const emailCutoff = new Date(clock.now().getTime() - config.OUTBOX_RETENTION_DAYS * DAY_MS);
  return {
    verificationTokens: await db('verificationTokens').where('expires', '<', cutoff).delete(),
    oauthStates: await db('oauthStates').where('expires', '<', cutoff).delete(),
    deviceVerifications: await db('deviceVerifications').where('expires', '<', cutoff).delete(),
    sessions: await db('sessions').where('expires', '<', cutoff).delete(),
    // Device tokens unused for DEVICE_TOKEN_IDLE_DAYS (already refused when presented).
    deviceAccessTokens: await db('deviceAccessTokens')
      .whereRaw('coalesce(last_used_at, created_at) < ?', [idleCutoff])
      .delete(),
    rateLimitHits: await db('rateLimitHits').where('windowStart', '<', cutoff).delete(),
    signIns: await db('signIns')
      .where('createdAt', '<', new Date(clock.now().getTime() - SIGN_IN_RETENTION_DAYS * DAY_MS))
      .delete(),
    emailBodies: await db('outboxEmails')
      .whereNot('status', 'pending')
      .whereNotNull('textBody')
      .where('createdAt', '<', emailCutoff)
      .update({ textBody: null, htmlBody: null, secret: null, attachments: null }),
  };
}
