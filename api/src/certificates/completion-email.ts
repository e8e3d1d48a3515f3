import type { Db } from '../db/connection';
import type { Logger } from '../logger';
import type { IssueCertificate } from '../learning/progress';
import { courseCompleteEmail } from '../mail/learning-emails';
import type { Outbox } from '../mail/outbox';

interface Deps {
  db: Db;
  outbox: Pick<Outbox, 'enqueue' | 'flushInBackground'>;
  publicUrl: string;
  logger: Logger;
}

/**
 * The course-complete email of a certificate, once: the certificate is marked emailed by a conditional update in the
 * transaction that queues the email, so completing again, progress churn or two requests racing send one. A revoked
 * certificate is not congratulated. Answers whether this call queued it.
 */
export async function congratulate({ db, outbox, publicUrl }: Deps, certificateId: string): Promise<boolean> {
  const queued = await db.transaction(async (trx) => {
    const [certificate] = await trx('certificates')
      .where({ id: certificateId })
      .whereNull('completionEmailedAt')
      .whereNull('revokedAt')
      .update({ completionEmailedAt: trx.fn.now() })
      .returning(['id', 'userId', 'learnerName', 'courseTitle']);
    if (!certificate) return false;
    const learner = await trx('users').where({ id: certificate.userId }).first('email');
    const url = new URL(`/certificates/${certificate.id}`, publicUrl).toString();
    await outbox.enqueue(
      trx,
      courseCompleteEmail(learner.email, {
        courseTitle: certificate.courseTitle,
        learnerName: certificate.learnerName,
        certificateUrl: url,
        pdfUrl: `${url}.pdf`,
      }),
    );
    return true;
  });
  if (queued) outbox.flushInBackground();
  return queued;
}

/**
 * Issuing a completed course's certificate (`issue`, certificates/queries.ts) followed by its email. The email is
 * news, not the completion: if queueing it fails, the learner's progress and certificate stand (logged), and the next
 * completion write tries again.
 */
export function issuingWithEmail(deps: Deps, issue: IssueCertificate): IssueCertificate {
  return async (db, completion) => {
    const certificate = await issue(db, completion);
    if (certificate)
      await congratulate(deps, certificate.id).catch((error: unknown) =>
        deps.logger.warn({ err: error, certificateId: certificate.id }, 'course-complete email not queued'),
      );
    return certificate;
  };
}
