import { recordAudit } from '../../audit/record';
import type { Db } from '../../db/connection';
import { AppError } from '../../shared/errors';
import { emailChangedEmails } from '../../mail/account-emails';
import type { Outbox } from '../../mail/outbox';
import type { StaffAct } from '../staff/blocks';
import type { User } from '../models';
import type { EmailChanged } from '../schemas';
import type { Sessions } from '../sign-in/sessions';
import { endSignIns } from '../sign-in/sign-out-everywhere';
import { assertMayManage } from '../staff/staff-guard';

const TAKEN = 'already has an account';

/** Whether an error is the unique index on lower(email) refusing a second account with the address. */
function isEmailTaken(error: unknown): boolean {
  const native = ((error as { nativeError?: unknown }).nativeError ?? error) as { code?: string; constraint?: string };
  return native.code === '23505' && native.constraint === 'users_email_unique';
}

/**
 * Support changes a person's email (already normalised: trimmed, lower-case). In one transaction: the address
 * (unverified until they sign in with it), the sign-in links issued to the old address deleted, every session and
 * device token ended and every linked GitHub account unlinked (a changed address is a moment to make sure whoever is
 * signed in is the person: they sign in again with the new one), audited with before and after, and a notice queued to
 * both addresses (sent after commit).
 * Another account with the address, in any case, is a 409 on the field; only administrators change staff accounts'.
 */
export function emailChange({
  db,
  outbox,
  sessions,
  publicUrl,
  changed = () => {},
}: {
  db: Db;
  outbox: Pick<Outbox, 'enqueue' | 'flushInBackground'>;
  sessions: Pick<Sessions, 'forget'>;
  publicUrl: string;
  changed?: () => void;
}) {
  return {
    async change(
      userId: string,
      email: string,
      { actor, requestId, currentSessionId }: StaffAct & { currentSessionId: string | null },
    ): Promise<EmailChanged> {
      const outcome = await db
        .transaction(async (trx) => {
          // Their linked accounts first, then the person: the order a GitHub sign-in locks them in (no deadlock).
          await trx('accounts').where({ userId }).forUpdate().select('id');
          const target: User | undefined = await trx('users').where({ id: userId }).forUpdate().first();
          if (!target) throw new AppError('not-found', `No users record with id ${userId}.`);
          assertMayManage(target, actor, 'change the email of');
          const previous = target.email;
          if (previous.toLowerCase() === email)
            throw new AppError('validation-failed', `${email} is already their address.`, {
              email: 'is already their address',
            });
          const other = await trx('users').whereRaw('lower(email) = ?', [email]).whereNot('id', userId).first('id');
          if (other) throw new AppError('already-exists', `email ${TAKEN}`, { email: TAKEN });
          await trx('users').where({ id: userId }).update({ email, emailVerified: null });
          // A link sent to the old address would still sign in (it names the address, which no account has now).
          await trx('verificationTokens').where({ identifier: previous.toLowerCase() }).delete();
          // Their own session stays when an administrator changes their own address.
          const signedOut = await endSignIns(trx, userId, actor.id === userId ? currentSessionId : null);
          // A GitHub account was linked by the old address (or by whoever held it): it would still sign in as them.
          // They link GitHub again by signing in with it, where it must show the new address as verified.
          const unlinked = await trx('accounts').where({ userId }).delete();
          await recordAudit(trx, {
            actor,
            requestId,
            action: 'user.email-changed',
            resource: 'users',
            recordId: userId,
            before: { email: previous },
            after: {
              email,
              sessionsEnded: signedOut.hashes.length,
              deviceTokensRevoked: signedOut.devices,
              accountsUnlinked: unlinked,
            },
          });
          const signInUrl = new URL('/login', publicUrl).toString();
          for (const notice of emailChangedEmails({ from: previous, to: email, signInUrl }))
            await outbox.enqueue(trx, notice);
          return { previous, ...signedOut };
        })
        .catch((error: unknown) => {
          // Taken by another account between the check and the write.
          if (isEmailTaken(error)) throw new AppError('already-exists', `email ${TAKEN}`, { email: TAKEN });
          throw error;
        });
      sessions.forget(outcome.hashes);
      changed();
      outbox.flushInBackground();
      return {
        id: userId,
        email,
        previousEmail: outcome.previous,
        signedOut: { sessions: outcome.hashes.length, devices: outcome.devices },
      };
    },
  };
}

export type EmailChange = ReturnType<typeof emailChange>;
