import { recordAudit, type Actor } from '../../audit/record';
import type { Clock } from '../../clock';
import type { Db } from '../../db/connection';
import { AppError } from '../../shared/errors';
import type { User } from '../models';
import { isStaffAccount, type Role } from '../../shared/roles';
import { hashSecret, newSecret } from '../secrets';

/** Who may view as someone (admins always may): checked when a view starts and on every request under it. */
export const VIEW_AS_ROLES = ['support'] as const satisfies readonly Role[];
const MAY_VIEW_AS: readonly Role[] = ['admin', ...VIEW_AS_ROLES];

/** The longest a view-as may last. */
export const VIEW_AS_MAX_MINUTES = 30;
const MINUTE_MS = 60_000;

export interface ViewAsGrant {
  id: string;
  learner: User;
  staffEmail: string;
  reason: string;
  expiresAt: Date;
}

/**
 * Support opens the storefront as a learner sees it: for a stated reason, at most 30 minutes, read-only (every
 * write the storefront would make is refused), never for a staff account. Starting, entering and ending are in
 * the audit log under the learner, so their timeline shows who looked and why. The browser must also hold the
 * staff member's own session: a forwarded link opens nothing.
 */
export function viewAs({ db, clock }: { db: Db; clock: Clock }) {
  /** Sets a moment of the view once (entered, ended), auditing it under the learner the first time only. */
  async function mark(
    grant: ViewAsGrant,
    staff: Actor,
    column: 'enteredAt' | 'endedAt',
    action: 'view-as.entered' | 'view-as.ended',
  ): Promise<void> {
    const first = await db('viewAsSessions')
      .where({ id: grant.id })
      .whereNull(column)
      .update({ [column]: clock.now() });
    if (first)
      await recordAudit(db, {
        actor: staff,
        action,
        resource: 'users',
        recordId: grant.learner.id,
        after: { viewAsId: grant.id },
      });
  }

  return {
    async start(
      staff: Actor & { id: string },
      learnerId: string,
      input: { reason: string; minutes: number },
      requestId: string | null,
    ): Promise<{ token: string; expiresAt: Date }> {
      const learner = await db('users').where({ id: learnerId }).first('id', 'roles');
      if (!learner) throw new AppError('not-found', 'No such user.');
      if (isStaffAccount(learner.roles))
        throw new AppError('view-as-staff', 'Staff accounts cannot be viewed as: ask the person instead.');
      if (learner.id === staff.id) throw new AppError('view-as-self', 'That is your own account: open the storefront.');
      const token = newSecret();
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + Math.min(input.minutes, VIEW_AS_MAX_MINUTES) * MINUTE_MS);
      await db.transaction(async (trx) => {
        const [row] = await trx('viewAsSessions')
          .insert({
            tokenHash: hashSecret(token),
            staffUserId: staff.id,
            learnerUserId: learner.id,
            reason: input.reason,
            createdAt: now,
            expiresAt,
          })
          .returning('id');
        await recordAudit(trx, {
          actor: staff,
          action: 'view-as.started',
          resource: 'users',
          recordId: learner.id,
          after: { viewAsId: row.id, reason: input.reason, expiresAt },
          requestId,
        });
      });
      return { token, expiresAt };
    },

    /**
     * The view a token opens for this staff member, or null (unknown, someone else's, ended or expired, or its staff
     * member no longer holds a role that views as, or is blocked): read from their account as it is now, not as their
     * cached session has it, so a role taken away ends their views at once.
     */
    async resolve(token: string, staffUserId: string): Promise<ViewAsGrant | null> {
      const row = await db('viewAsSessions as v')
        .join('users as s', 's.id', 'v.staffUserId')
        .where({ 'v.tokenHash': hashSecret(token), 'v.staffUserId': staffUserId })
        .whereNull('v.endedAt')
        .where('v.expiresAt', '>', clock.now())
        .whereRaw('s.roles && ?::text[]', [[...MAY_VIEW_AS]])
        .whereNull('s.blockedAt')
        .first('v.id', 'v.learnerUserId', 'v.reason', 'v.expiresAt', 'v.enteredAt', 's.email as staffEmail');
      if (!row) return null;
      const learner = (await db('users').where({ id: row.learnerUserId }).first()) as User | undefined;
      // A learner made staff meanwhile is not viewed as any more.
      if (!learner || isStaffAccount(learner.roles)) return null;
      return { id: row.id, learner, staffEmail: row.staffEmail, reason: row.reason, expiresAt: row.expiresAt };
    },

    /** The first page load through the link: noted once, for the audit log. */
    entered: (grant: ViewAsGrant, staff: Actor) => mark(grant, staff, 'enteredAt', 'view-as.entered'),

    end: (grant: ViewAsGrant, staff: Actor) => mark(grant, staff, 'endedAt', 'view-as.ended'),
  };
}

export type ViewAs = ReturnType<typeof viewAs>;
