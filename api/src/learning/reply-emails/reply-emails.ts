import type { Knex } from 'knex';
import type { Db } from '../../db/connection';
import type { JobQueue } from '../../jobs/queue';
import { commentReplyEmail } from '../../mail/learning-emails';
import type { Outbox } from '../../mail/outbox';
import { AppError } from '../../shared/errors';
import { wantsReplyEmails, type ReplyEmailOptOut } from '../../identity/profile/reply-emails';
import { shownName } from '../../shared/shown-name';
import * as queries from '../queries';
import type { LessonAccess } from '../access';
import {
  decided,
  lockedReply,
  recordOutcome,
  restrictedCountries,
  type ReplyOutcome,
  type ReplyRow,
} from './reply-rows';

/** The job that decides, and writes, one reply's email. */
export const COMMENT_REPLY_EMAIL = 'comment-reply-email';

interface Deps {
  db: Db;
  jobs: JobQueue;
  outbox: Pick<Outbox, 'enqueue' | 'flushInBackground'>;
  optOut: Pick<ReplyEmailOptOut, 'links'>;
  /** Whether a person may open the lesson (learning.assertOpen): it is visible, and free or theirs. */
  assertOpen: LessonAccess['assertOpen'];
  publicUrl: string;
  /** REPLY_EMAIL_DELAY_SECONDS. */
  delaySeconds: number;
}

/**
 * Replies to a learner's comment, emailed to them (docs/domain.md §11): one email per reply, never for a reply to
 * oneself. Each reply's job runs REPLY_EMAIL_DELAY_SECONDS after it was posted and decides then, once (the reply's
 * row locked, the decision recorded by its key): a reply deleted meanwhile (or under a deleted comment) sends nothing,
 * a hidden one or one under a hidden comment sends nothing, nor does a lesson the comment's author cannot open any more
 * (hidden from learners, or a paid lesson of a course they no longer hold: refunded, their seat revoked), nor a
 * reply to someone who turned these emails off or deleted their account. The wait is the author's moment to fix or delete it, and moderation's.
 */
export function replyEmails(deps: Deps) {
  const { jobs, outbox, delaySeconds } = deps;

  jobs.define<{ replyId: string }>({
    name: COMMENT_REPLY_EMAIL,
    retryLimit: 5,
    retryDelaySeconds: 30,
    expireInSeconds: 60,
    run: async ({ replyId }) => {
      if (await decide(deps, replyId)) outbox.flushInBackground();
    },
  });

  return {
    /** In the reply's transaction: its email is decided later, or not at all if the reply is rolled back. */
    async schedule(trx: Knex.Transaction, replyId: string): Promise<void> {
      // The queue's own time, not the injected clock: the job comes due by the database's clock.
      await jobs.add(trx, COMMENT_REPLY_EMAIL, { replyId }, { startAfter: new Date(Date.now() + delaySeconds * 1000) });
    },

    /** After the reply's commit: with no wait configured, decide now rather than at the next poll. */
    committed(): void {
      if (delaySeconds === 0) jobs.wake(COMMENT_REPLY_EMAIL);
    },

    /** Runs every reply email due now, here (tests; the workers do it otherwise). */
    runDue: () => jobs.runDue(COMMENT_REPLY_EMAIL),
  };
}

export type ReplyEmails = ReturnType<typeof replyEmails>;

/** Why a reply sends nothing, or null when it is emailed. */
async function withheld(trx: Knex.Transaction, deps: Deps, reply: ReplyRow): Promise<ReplyOutcome | null> {
  if (reply.recipientDeletedAt) return 'account-deleted';
  if (reply.hiddenAt || reply.parentHiddenAt) return 'hidden';
  if (!(await opensTo(trx, deps, reply.lessonId, reply.recipientId))) return 'not-open';
  if (!(await wantsReplyEmails(trx, reply.recipientId))) return 'opted-out';
  return null;
}

/**
 * Whether the lesson opens to the person: a free lesson or a Valid purchase from anywhere, a Restricted purchase from
 * its own country (where they would read it from, as far as the job can know).
 */
async function opensTo(trx: Knex.Transaction, deps: Deps, lessonId: string, userId: string): Promise<boolean> {
  const countries = await restrictedCountries(trx, userId);
  for (const country of countries.length ? countries : ['']) {
    try {
      await deps.assertOpen(lessonId, { user: { id: userId }, country });
      return true;
    } catch (error) {
      if (!(error instanceof AppError) || !['lesson-locked', 'lesson-not-open-yet', 'not-found'].includes(error.code))
        throw error;
    }
  }
  return false;
}

/** Decides one reply's email and queues it when it goes; answers whether an email was queued. */
async function decide(deps: Deps, replyId: string): Promise<boolean> {
  const { db, outbox, optOut, publicUrl } = deps;
  return db.transaction(async (trx) => {
    const reply = await lockedReply(trx, replyId);
    // Deleted (with it, its decision), a reply to oneself, or decided by an earlier run: nothing more to do.
    if (!reply || reply.replierId === reply.recipientId || (await decided(trx, replyId))) return false;
    const outcome = await withheld(trx, deps, reply);
    if (outcome) {
      await recordOutcome(trx, replyId, outcome);
      return false;
    }
    const [courseId] = await queries.publicCoursesOfLesson(trx, reply.lessonId);
    const course = courseId ? await queries.resourceById(trx, courseId) : null;
    const lessonPath = `/courses/${course?.fields.slug ?? courseId}/lessons/${reply.lessonSlug ?? reply.lessonId}`;
    const emailId = await outbox.enqueue(
      trx,
      commentReplyEmail(reply.recipientEmail, {
        replierName: shownName({ id: reply.replierId, name: reply.replierName }),
        replyText: reply.text,
        commentText: reply.parentText,
        lessonTitle: reply.lessonTitle ?? 'a lesson',
        courseTitle: course?.fields.title ?? 'your course',
        replyUrl: new URL(`${lessonPath}#comment-${reply.id}`, publicUrl).toString(),
        unsubscribe: await optOut.links(reply.recipientId),
        settingsUrl: new URL('/settings', publicUrl).toString(),
      }),
    );
    await recordOutcome(trx, replyId, 'sent', emailId);
    return true;
  });
}
