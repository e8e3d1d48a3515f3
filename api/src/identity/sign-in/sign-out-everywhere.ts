import type { Knex } from 'knex';
import { recordAudit, type Actor } from '../../audit/record';
import type { Db } from '../../db/connection';
import { AppError } from '../../shared/errors';
import type { Sessions } from './sessions';
import { assertMayManage } from '../staff/staff-guard';
import type { SignedOut } from '../schemas';

/**
 * Ends a person's browser sessions (but `keepSessionId`) and device tokens in the caller's transaction; answers the
 * ended sessions' hashes, for the caller to forget from the cache once it committed (a block, an email change).
 */
export async function endSignIns(
  trx: Knex.Transaction,
  userId: string,
  keepSessionId: string | null,
): Promise<{ hashes: string[]; devices: number }> {
  const ended = await trx('sessions')
    .where({ userId })
    .modify((q) => {
      if (keepSessionId) q.whereNot('id', keepSessionId);
    })
    .delete()
    .returning('sessionToken');
  // Codes approved but not yet exchanged would hand out a token afterwards: they end too (before the tokens are
  // deleted, so a token issued meanwhile is among them).
  await trx('deviceVerifications')
    .where({ verifiedByUserId: userId })
    .whereNotNull('verifiedAt')
    .whereNull('tokenIssuedAt')
    .update({ expires: trx.ref('createdAt') });
  const revoked = await trx('deviceAccessTokens').where({ userId }).delete().returning('id');
  return { hashes: ended.map((row: { sessionToken: string }) => row.sessionToken), devices: revoked.length };
}

/**
 * Ends a person's browser sessions and device tokens in one transaction. From the storefront the person keeps the
 * session they ask from; from the console staff end every one of them (and it is audited).
 */
export function signOutEverywhere({ db, sessions }: { db: Db; sessions: Pick<Sessions, 'forget'> }) {
  async function endAll(
    userId: string,
    keepSessionId: string | null,
    audit?: { actor: Actor; requestId: string | null },
  ): Promise<SignedOut> {
    const { hashes, devices } = await db.transaction(async (trx) => {
      const signedOut = await endSignIns(trx, userId, keepSessionId);
      if (audit) {
        await recordAudit(trx, {
          ...audit,
          action: 'sign-out-everywhere',
          resource: 'users',
          recordId: userId,
          before: { sessions: signedOut.hashes.length, deviceTokens: signedOut.devices },
          after: { sessions: 0, deviceTokens: 0 },
        });
      }
      return signedOut;
    });
    sessions.forget(hashes); // after commit: a request meanwhile cannot cache a session again
    return { sessions: hashes.length, devices };
  }

  return {
    /** The person's own request: every other browser and every device; the asking session stays signed in. */
    ownRequest: (userId: string, currentSessionId: string) => endAll(userId, currentSessionId),

    /**
     * Staff, from the console: every session and device token of the person. Only administrators sign out a
     * staff account (as only they delete one). The actor's own current session is kept if they sign out themselves.
     */
    async byStaff(
      userId: string,
      staff: { actor: Actor & { roles: readonly string[] }; currentSessionId: string | null; requestId: string | null },
    ): Promise<SignedOut> {
      const target = await db('users').where({ id: userId }).first('id', 'roles');
      if (!target) throw new AppError('not-found', `No users record with id ${userId}.`);
      assertMayManage(target as { roles: string[] }, staff.actor, 'sign out');
      const keep = staff.actor.id === userId ? staff.currentSessionId : null;
      return endAll(userId, keep, {
        actor: { id: staff.actor.id, email: staff.actor.email },
        requestId: staff.requestId,
      });
    },
  };
}

export type SignOutEverywhere = ReturnType<typeof signOutEverywhere>;
