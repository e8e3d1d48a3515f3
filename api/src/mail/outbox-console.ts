import { randomUUID } from 'node:crypto';
import type { Db } from '../db/connection';
import { recordAudit, type Actor } from '../audit/record';
import type { JobQueue } from '../jobs/queue';
import { AppError } from '../shared/errors';
import type { OutboxEmail } from './models';
import { SEND_EMAIL, whyNotResendable } from './outbox-email';

/** What the console's actions on an email need: the database and the queue that sends. */
interface ConsoleDeps {
  db: Db;
  jobs: JobQueue;
}

/** A console request to resend: its key (one copy per key), the address (the original's when not given), who asked. */
export interface ResendRequest {
  key: string;
  to?: string;
  actor: Actor;
  requestId: string | null;
}

/**
 * Queues a copy of an email (from the console) to `to` (the person's current address; the original's when not
 * given), audited under the original. One copy per request key: a double click, or the same request retried,
 * answers the copy the first one made (`created` false). Sent after commit: the caller flushes.
 */
export async function resendEmail(
  { db, jobs }: ConsoleDeps,
  id: string,
  request: ResendRequest,
): Promise<{ email: OutboxEmail; created: boolean }> {
  return db.transaction(async (trx) => {
    const original: OutboxEmail | undefined = await trx('outboxEmails').where({ id }).first();
    if (!original) throw new AppError('not-found', `No outbox-emails record with id ${id}.`);
    const why = whyNotResendable(original);
    if (why) throw new AppError('email-not-resendable', why);
    const copy = {
      id: randomUUID(),
      toAddress: request.to ?? original.toAddress,
      // A copy is the email as first sent: its body names the school as it was then, so its sender does too.
      fromName: original.fromName,
      replyTo: original.replyTo,
      subject: original.subject,
      textBody: original.textBody,
      htmlBody: original.htmlBody,
      kind: original.kind,
      attachments: original.attachments?.length ? JSON.stringify(original.attachments) : null,
      listUnsubscribeUrl: original.listUnsubscribeUrl,
      resentFromId: original.id,
      resendKey: request.key,
    };
    const [inserted] = (await trx('outboxEmails')
      .insert(copy)
      .onConflict('resendKey')
      .ignore()
      .returning('*')) as OutboxEmail[];
    if (!inserted) {
      const made: OutboxEmail | undefined = await trx('outboxEmails').where({ resendKey: request.key }).first();
      if (made?.resentFromId !== id)
        throw new AppError('conflict', 'This request key was already used to resend another email.');
      return { email: made, created: false };
    }
    await jobs.add(trx, SEND_EMAIL, { emailId: copy.id });
    await recordAudit(trx, {
      actor: request.actor,
      requestId: request.requestId,
      action: 'resend',
      resource: 'outbox-emails',
      recordId: id,
      after: { copyId: copy.id, toAddress: copy.toAddress },
    });
    return { email: inserted, created: true };
  });
}

/** Makes a failed email due again (from the console), audited; not once its body was dropped. */
export async function retryFailedEmail(
  { db, jobs }: ConsoleDeps,
  id: string,
  actor: Actor,
  requestId: string | null,
): Promise<OutboxEmail | undefined> {
  return db.transaction(async (trx) => {
    const rows: OutboxEmail[] = await trx('outboxEmails')
      .where({ id, status: 'failed' })
      .whereNotNull('textBody')
      .update({ status: 'pending', attempts: 0, nextAttemptAt: trx.fn.now() })
      .returning('*');
    if (rows[0]) {
      await jobs.add(trx, SEND_EMAIL, { emailId: id });
      await recordAudit(trx, {
        actor,
        requestId,
        action: 'retry',
        resource: 'outbox-emails',
        recordId: id,
        before: { status: 'failed' },
        after: { status: 'pending' },
      });
    }
    return rows[0];
  });
}
