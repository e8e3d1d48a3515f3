import type { Knex } from 'knex';
import type { Clock } from '../clock';
import type { Db } from '../db/connection';
import type { Logger } from '../logger';
import { recordAudit, type Actor } from '../audit/record';
import { OutboxEmail } from './models';
import type { MailTransport, OutgoingEmail } from './transport';

export const MAX_ATTEMPTS = 6;
const BATCH = 20;
/** A claimed email is not offered to another worker for this long, even if this one dies mid-send. */
export const LEASE_MS = 5 * 60 * 1000;

/** 30 s, 1 min, 2 min, ... capped at an hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);
}

/** What an email's stored bodies say where its secret goes; the sender puts the secret back as it sends. */
export const SECRET_PLACEHOLDER = '[redacted]';

export interface NewEmail extends OutgoingEmail {
  kind: string;
  /**
   * A bearer secret the email carries (a sign-in link's token). The bodies are stored with `[redacted]` in its place,
   * the secret beside them until the email is sent: the statement that marks it sent drops it.
   */
  secret?: string;
}

/**
 * The outbox: emails are written in the caller's transaction (so a rolled-back action sends nothing) and
 * delivered after commit by `deliverDue`, which retries failures with backoff and marks them failed at last.
 */
export function outbox({
  db,
  clock,
  logger,
  transport,
}: {
  db: Db;
  clock: Clock;
  logger: Logger;
  transport: MailTransport;
}) {
  let running: Promise<number> | null = null;

  /**
   * Takes up to a batch of due emails in one statement: leased (not offered again for a while) and counted as an
   * attempt, rows another worker holds skipped. The locking select is a WITH query, so it runs exactly once.
   */
  async function claimDue(): Promise<OutboxEmail[]> {
    const now = clock.now();
    const due = db('outboxEmails')
      .select('id')
      .where('status', 'pending')
      .where('nextAttemptAt', '<=', now)
      .orderBy('nextAttemptAt')
      .limit(BATCH)
      .forUpdate()
      .skipLocked();
    const claimed: OutboxEmail[] = await db
      .with('due', due)
      .from('outboxEmails')
      .whereIn('id', db('due').select('id'))
      .update({ attempts: db.raw('attempts + 1'), nextAttemptAt: new Date(now.getTime() + LEASE_MS) })
      .returning('*');
    // Oldest first (UPDATE ... RETURNING keeps no order).
    return claimed.sort((a, b) => new Date(a.createdAt).getTime() - new Date(b.createdAt).getTime());
  }

  /**
   * Sends one email and records the outcome at once: sent (its secret dropped in the same statement, so no live
   * link outlasts the hand-over by more than that one round trip), or a failure (retry later, or failed for good;
   * the secret stays so the retry sends a working link).
   */
  async function deliver(email: OutboxEmail): Promise<void> {
    const reveal = (text: string) => (email.secret ? text.replaceAll(SECRET_PLACEHOLDER, email.secret) : text);
    try {
      await transport.send({
        id: email.id,
        to: email.toAddress,
        subject: reveal(email.subject),
        text: reveal(email.textBody ?? ''),
        html: email.htmlBody && reveal(email.htmlBody),
      });
    } catch (error) {
      const failed = email.attempts >= MAX_ATTEMPTS;
      const message = error instanceof Error ? error.message : String(error);
      logger.warn(
        { emailId: email.id, attempts: email.attempts, err: error },
        failed ? 'email failed for good' : 'email failed; will retry',
      );
      await OutboxEmail.query(db)
        .findById(email.id)
        .patch({
          status: failed ? 'failed' : 'pending',
          lastError: message.slice(0, 2000),
          transport: transport.name,
          nextAttemptAt: new Date(clock.now().getTime() + retryDelayMs(email.attempts)),
        });
      return;
    }
    await OutboxEmail.query(db)
      .findById(email.id)
      .patch({ status: 'sent', sentAt: clock.now(), transport: transport.name, lastError: null, secret: null });
  }

  async function deliverDue(): Promise<number> {
    let delivered = 0;
    for (let batch = await claimDue(); batch.length; batch = await claimDue()) {
      for (const email of batch) await deliver(email);
      delivered += batch.length;
    }
    return delivered;
  }

  /**
   * The row for an email. Its secret is kept apart from the bodies (never in them, so nothing redacts them later)
   * and in the row, not in memory: an email still unsent when the process stops goes out after the restart.
   */
  const rowOf = (email: NewEmail) => {
    const hide = (text: string) => (email.secret ? text.replaceAll(email.secret, SECRET_PLACEHOLDER) : text);
    return {
      toAddress: email.to,
      subject: hide(email.subject),
      textBody: hide(email.text),
      htmlBody: email.html ? hide(email.html) : null,
      secret: email.secret || null,
      kind: email.kind,
      nextAttemptAt: clock.now(),
    };
  };

  return {
    async enqueue(trx: Knex | Knex.Transaction, email: NewEmail): Promise<string> {
      const [row] = await trx('outboxEmails').insert(rowOf(email)).returning('id');
      return row.id;
    },

    /**
     * `enqueue` as a query not yet run, for a caller that writes the email as part of a larger statement (a WITH):
     * it is in that statement's transaction like any other enqueued email.
     */
    enqueueQuery(trx: Knex | Knex.Transaction, email: NewEmail): Knex.QueryBuilder {
      return trx('outboxEmails').insert(rowOf(email));
    },

    /** Sends whatever is due; concurrent calls share one run. Resolves with how many were attempted. */
    flush(): Promise<number> {
      running ??= deliverDue().finally(() => {
        running = null;
      });
      return running;
    },

    /** For after-commit hooks: deliver now, never fail the request that sent the email. */
    flushInBackground(): void {
      this.flush().catch((error) => logger.error({ err: error }, 'email delivery run failed'));
    },

    /** Makes a failed email due again (from the console), audited; not once its body was dropped. */
    async retry(id: string, actor: Actor, requestId: string | null): Promise<OutboxEmail | undefined> {
      return db.transaction(async (trx) => {
        const rows = (await OutboxEmail.query(trx)
          .where({ id, status: 'failed' })
          .whereNotNull('textBody')
          .patch({ status: 'pending', attempts: 0, nextAttemptAt: clock.now() })
          .returning('*')) as unknown as OutboxEmail[];
        if (rows[0]) {
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
    },
  };
}

export type Outbox = ReturnType<typeof outbox>;
