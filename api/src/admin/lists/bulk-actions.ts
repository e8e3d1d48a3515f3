import { randomUUID } from 'node:crypto';
import { recordAudit, type Actor } from '../../audit/record';
import { Coupon } from '../../commerce/models';
import { TEAM_COUPON_STAYS_ACTIVE } from '../../commerce/teams/seat-coupons';
import type { Db } from '../../db/connection';
import type { JobQueue } from '../../jobs/queue';
import { QueueJob } from '../../jobs/models';
import { OutboxEmail } from '../../mail/models';
import { SEND_EMAIL, whyNotResendable, type Outbox } from '../../mail/outbox';
import type { BulkOutcome } from '../schemas/list-tools';
import type { Trx } from '../resource';

interface BulkContext {
  actor: Actor;
  requestId: string | null;
}

type Refusal = { reason: string; message: string } | null;

/**
 * Runs one action on each of `ids` in one transaction, in the order given: `refuse` says why a record is left alone
 * (it does not exist, or its state does not allow it), `apply` does it and audits it. Either every allowed record is
 * done or, on an error, none is.
 */
async function eachOf<R>(
  db: Db,
  ids: readonly string[],
  load: (trx: Trx) => PromiseLike<R[]>,
  idOf: (record: R) => string,
  refuse: (record: R | undefined) => Refusal,
  apply: (trx: Trx, record: R) => Promise<void>,
): Promise<BulkOutcome & { records: R[] }> {
  return db.transaction(async (trx) => {
    const found = new Map((await load(trx)).map((r) => [idOf(r), r]));
    const outcome: BulkOutcome & { records: R[] } = { done: 0, doneIds: [], skipped: [], records: [] };
    for (const id of ids) {
      const record = found.get(id);
      const refusal = refuse(record);
      if (refusal || !record) {
        outcome.skipped.push({ id, ...(refusal ?? { reason: 'not-found', message: 'No such record.' }) });
        continue;
      }
      await apply(trx, record);
      outcome.done++;
      outcome.doneIds.push(id);
      outcome.records.push(record);
    }
    return outcome;
  });
}

const answer = ({ done, doneIds, skipped }: BulkOutcome): BulkOutcome => ({ done, doneIds, skipped });

/**
 * The console's bulk actions: each takes the ids selected in a list, does what the per-record action would to each
 * one it may, in one transaction, one audit entry per record, and says which it left alone and why.
 */
export function bulkActions({
  db,
  outbox,
  jobs,
  changed = () => {},
}: {
  db: Db;
  outbox: Outbox;
  jobs: JobQueue;
  /** After a committed change the storefront may show (a coupon): its read caches forget what they held. */
  changed?: () => void;
}) {
  return {
    /**
     * Active coupons become inactive (codes stop working, a site-wide sale ends), as the coupon's edit does; a team's
     * seat coupon is left alone, as its edit refuses.
     */
    async deactivateCoupons(ids: readonly string[], context: BulkContext): Promise<BulkOutcome> {
      const outcome = await eachOf(
        db,
        ids,
        (trx) =>
          Coupon.query(trx)
            .findByIds([...ids])
            .forUpdate(),
        (c) => c.id,
        (coupon) =>
          !coupon
            ? { reason: 'not-found', message: 'No such coupon.' }
            : coupon.status !== 'active'
              ? { reason: 'already-inactive', message: 'The coupon is inactive already.' }
              : coupon.bulkPurchaseId
                ? { reason: 'coupon-is-team-seats', message: TEAM_COUPON_STAYS_ACTIVE }
                : null,
        async (trx, coupon) => {
          const updated = await Coupon.query(trx).patchAndFetchById(coupon.id, { status: 'inactive' });
          await recordAudit(trx, {
            ...context,
            action: 'update',
            resource: 'coupons',
            recordId: coupon.id,
            before: coupon.toJSON(),
            after: updated.toJSON(),
          });
        },
      );
      if (outcome.done) changed();
      return answer(outcome);
    },

    /**
     * Failed or sent emails go out again: a failed one is queued as its Retry does (pending, attempts from 0), a sent
     * one as a copy as a person's Resend does (the original stays sent; the copy names it). Not an email still
     * waiting, one whose body was dropped, nor a sent one-time sign-in link (outbox's whyNotResendable).
     */
    async resendEmails(ids: readonly string[], context: BulkContext): Promise<BulkOutcome> {
      const outcome = await eachOf(
        db,
        ids,
        (trx) =>
          OutboxEmail.query(trx)
            .findByIds([...ids])
            .forUpdate(),
        (e) => e.id,
        (email) => {
          if (!email) return { reason: 'not-found', message: 'No such email.' };
          if (email.status !== 'failed' && email.status !== 'sent')
            return { reason: 'not-failed-or-sent', message: 'The email is waiting to be sent already.' };
          if (email.textBody === null)
            return { reason: 'body-dropped', message: 'Its body was dropped after the retention period.' };
          const why = email.status === 'sent' ? whyNotResendable(email) : null;
          return why ? { reason: 'one-time-link', message: why } : null;
        },
        async (trx, email) => {
          if (email.status === 'failed') {
            await OutboxEmail.query(trx)
              .findById(email.id)
              .patch({ status: 'pending', attempts: 0, nextAttemptAt: trx.fn.now() as unknown as Date });
            await jobs.add(trx, SEND_EMAIL, { emailId: email.id });
            await recordAudit(trx, {
              ...context,
              action: 'retry',
              resource: 'outbox-emails',
              recordId: email.id,
              before: { status: 'failed' },
              after: { status: 'pending' },
            });
            return;
          }
          const copy = {
            id: randomUUID(),
            toAddress: email.toAddress,
            fromName: email.fromName,
            replyTo: email.replyTo,
            subject: email.subject,
            textBody: email.textBody,
            htmlBody: email.htmlBody,
            kind: email.kind,
            attachments: email.attachments?.length ? JSON.stringify(email.attachments) : null,
            resentFromId: email.id,
          };
          await trx('outboxEmails').insert(copy);
          await jobs.add(trx, SEND_EMAIL, { emailId: copy.id });
          await recordAudit(trx, {
            ...context,
            action: 'resend',
            resource: 'outbox-emails',
            recordId: email.id,
            after: { copyId: copy.id, toAddress: copy.toAddress },
          });
        },
      );
      if (outcome.done) outbox.flushInBackground();
      return answer(outcome);
    },

    /** Failed jobs run again, as a failed job's retry does. */
    async retryJobs(ids: readonly string[], context: BulkContext): Promise<BulkOutcome> {
      const outcome = await eachOf(
        db,
        ids,
        // The queue's own maintenance jobs are not listed in the console: not found here either.
        (trx) =>
          QueueJob.query(trx)
            .findByIds([...ids])
            .whereNot('name', 'like', '\\_\\_pgboss\\_\\_%')
            .select('id', 'name', 'state')
            .forUpdate(),
        (j) => j.id,
        (job) =>
          !job
            ? { reason: 'not-found', message: 'No such job.' }
            : job.state !== 'failed'
              ? { reason: 'not-failed', message: `Only failed jobs are retried; this one is ${job.state}.` }
              : null,
        async (trx, job) => {
          if (!(await jobs.retryIn(trx, job.id, context.actor, context.requestId)))
            throw new Error(`job ${job.id} stopped being failed while it was retried`);
        },
      );
      for (const name of new Set(outcome.records.map((j) => j.name))) jobs.wake(name);
      return answer(outcome);
    },
  };
}

export type BulkActions = ReturnType<typeof bulkActions>;
