import { recordAudit, type Actor } from '../../audit/record';
import type { Db } from '../../db/connection';
import { AppError } from '../../shared/errors';
import type { User } from '../models';
import type { BlockAnswer } from '../schemas';
import type { Sessions } from '../sign-in/sessions';
import { endSignIns } from '../sign-in/sign-out-everywhere';
import { assertMayManage } from './staff-guard';

/** Who blocks or unblocks, from the console. */
export interface StaffAct {
  actor: Actor & { id: string; roles: readonly string[] };
  requestId: string | null;
}

/**
 * A person blocked by support: signed out everywhere in the block's own transaction, refused at every sign-in (email
 * link, GitHub, device) and at every checkout, signed in or as a guest with the same email (commerce/checkout/checkout.ts).
 * Their purchases stay as they are. Only administrators block staff accounts; nobody blocks themselves. Blocking and
 * unblocking are audited under the person, so their timeline shows who did it and why.
 */
export function userBlocks({
  db,
  sessions,
  changed = () => {},
}: {
  db: Db;
  sessions: Pick<Sessions, 'forget'>;
  /** After commit: the read caches forget the person as they were. */
  changed?: () => void;
}) {
  const answer = (user: User, signedOut: BlockAnswer['signedOut']): BlockAnswer => ({
    id: user.id,
    blockedAt: user.blockedAt,
    blockedReason: user.blockedReason,
    blockedById: user.blockedById,
    signedOut,
  });

  return {
    async block(userId: string, reason: string, { actor, requestId }: StaffAct): Promise<BlockAnswer> {
      const { user, hashes, devices } = await db.transaction(async (trx) => {
        // Locked: a sign-in committing meanwhile has its session ended below; one after sees the block.
        const target: User | undefined = await trx('users').where({ id: userId }).forUpdate().first();
        if (!target) throw new AppError('not-found', `No users record with id ${userId}.`);
        if (target.id === actor.id) throw new AppError('validation-failed', 'You cannot block your own account.');
        assertMayManage(target, actor, 'block');
        if (target.blockedAt)
          throw new AppError('conflict', `${target.email} is already blocked (${target.blockedReason}).`);
        const [blocked] = (await trx('users')
          .where({ id: userId })
          .update({ blockedAt: trx.fn.now(), blockedReason: reason, blockedById: actor.id })
          .returning('*')) as [User];
        const signedOut = await endSignIns(trx, userId, null);
        await recordAudit(trx, {
          actor,
          requestId,
          action: 'user.blocked',
          resource: 'users',
          recordId: userId,
          before: { blockedAt: null },
          after: {
            blockedAt: blocked.blockedAt,
            reason,
            sessionsEnded: signedOut.hashes.length,
            deviceTokensRevoked: signedOut.devices,
          },
        });
        return { user: blocked, ...signedOut };
      });
      sessions.forget(hashes); // after commit: a request meanwhile cannot cache a session again
      changed();
      return answer(user, { sessions: hashes.length, devices });
    },

    async unblock(userId: string, { actor, requestId }: StaffAct): Promise<BlockAnswer> {
      const user = await db.transaction(async (trx) => {
        const target: User | undefined = await trx('users').where({ id: userId }).forUpdate().first();
        if (!target) throw new AppError('not-found', `No users record with id ${userId}.`);
        assertMayManage(target, actor, 'unblock');
        if (!target.blockedAt) throw new AppError('conflict', `${target.email} is not blocked.`);
        const [unblocked] = (await trx('users')
          .where({ id: userId })
          .update({ blockedAt: null, blockedReason: null, blockedById: null })
          .returning('*')) as [User];
        await recordAudit(trx, {
          actor,
          requestId,
          action: 'user.unblocked',
          resource: 'users',
          recordId: userId,
          before: { blockedAt: target.blockedAt, reason: target.blockedReason },
          after: { blockedAt: null },
        });
        return unblocked;
      });
      changed();
      return answer(user, { sessions: 0, devices: 0 });
    },
  };
}

export type UserBlocks = ReturnType<typeof userBlocks>;

/**
 * Whether the account with this email (trimmed, in any case) is blocked. `lock` takes a share lock on it, so a block
 * racing the caller's transaction waits for it (a purchase written first stays, as every earlier purchase does).
 */
export async function isEmailBlocked(db: Db, email: string, lock = false): Promise<boolean> {
  const query = db('users').whereRaw('lower(email) = lower(?)', [email.trim()]).first('blockedAt');
  const row = await (lock ? query.forShare() : query);
  return Boolean(row?.blockedAt);
}

/**
 * Whether this account is blocked, or deleted (docs/domain.md §16: it signs in and buys nothing either, so a payment
 * completing for a checkout it started is refunded as a blocked buyer's is); `lock` as in isEmailBlocked.
 */
export async function isUserBlocked(db: Db, userId: string, lock = false): Promise<boolean> {
  const query = db('users').where({ id: userId }).first('blockedAt', 'deletedAt');
  const row = await (lock ? query.forShare() : query);
  return Boolean(row?.blockedAt ?? row?.deletedAt);
}

export const ACCOUNT_BLOCKED_MESSAGE =
  'This account is blocked. If you think this is a mistake, contact our support team.';
