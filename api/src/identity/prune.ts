import type { Clock } from '../clock';
import type { Db } from '../db/connection';

const GRACE_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes credentials that can no longer be used: expired sign-in links, OAuth states, device codes and
 * sessions (a day after expiry, so late requests still get a clear "expired"), and old rate-limit windows.
 */
export async function pruneExpired({ db, clock }: { db: Db; clock: Clock }): Promise<Record<string, number>> {
  const cutoff = new Date(clock.now().getTime() - GRACE_MS);
  return {
    verificationTokens: await db('verificationTokens').where('expires', '<', cutoff).delete(),
    oauthStates: await db('oauthStates').where('expires', '<', cutoff).delete(),
    deviceVerifications: await db('deviceVerifications').where('expires', '<', cutoff).delete(),
    sessions: await db('sessions').where('expires', '<', cutoff).delete(),
    rateLimitHits: await db('rateLimitHits').where('windowStart', '<', cutoff).delete(),
  };
}
