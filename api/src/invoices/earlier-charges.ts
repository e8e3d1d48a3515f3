import type { Knex } from 'knex';
import type { Db } from '../db/connection';
import { JOBS_SCHEMA } from '../jobs/models';
import type { JobQueue } from '../jobs/queue';
import type { Logger } from '../logger';
import { issueCreditNote, issueInvoice } from './issue';

/**
 * The invoices of charges recorded before invoices were issued (docs/domain.md §18), issued in the background after
 * a release rather than inside its migration: in batches, oldest charge first, each batch one transaction whose
 * charges are locked (others' batches and a refund in flight skip or wait, never double-issue). Each invoice is
 * numbered in the year it is issued and dated then, its date of supply the charge's; a charge refunded meanwhile
 * gets its credit note for all refunded so far, supplied on the last refund's date. The payer is who paid: for a purchase given away before payers
 * were kept, the first completed transfer's source.
 */

export const ISSUE_EARLIER_INVOICES = 'issue-earlier-invoices';

/** Charges per transaction: a batch's locks and numbers are held for a few seconds at most. */
export const EARLIER_INVOICES_BATCH = 500;

interface Waiting {
  id: string;
  createdAt: Date;
  refundAmount: number;
  /** The last refund recorded as gone through: the credit note's date of supply (null: none recorded, today). */
  refundedAt: Date | null;
  payerUserId: string;
}

type Cursor = Pick<Waiting, 'createdAt' | 'id'> | null;

/**
 * The oldest charges after `after` with no invoice that no one else holds, locked for this transaction (the
 * merchant_charges_created_at index walks them in order).
 */
async function waitingCharges(trx: Knex.Transaction, after: Cursor, limit: number): Promise<Waiting[]> {
  const { rows } = await trx.raw(
    `SELECT ch.id, ch.created_at, ch.refund_amount, coalesce(first_move.source_user_id, ch.user_id) AS payer_user_id,
            (SELECT max(r.created_at) FROM merchant_refunds r
              WHERE r.merchant_charge_id = ch.id AND r.status = 'succeeded') AS refunded_at
       FROM merchant_charges ch
       LEFT JOIN LATERAL (SELECT t.source_user_id FROM purchases p
                            JOIN purchase_user_transfers t ON t.purchase_id = p.id AND t.transfer_state = 'COMPLETED'
                           WHERE p.merchant_charge_id = ch.id
                           ORDER BY t.completed_at, t.id LIMIT 1) first_move ON true
      WHERE NOT EXISTS (SELECT 1 FROM invoices i WHERE i.merchant_charge_id = ch.id AND i.kind = 'invoice')
        ${after ? 'AND (ch.created_at, ch.id) > (?, ?)' : ''}
      ORDER BY ch.created_at, ch.id
      LIMIT ?
        FOR UPDATE OF ch SKIP LOCKED`,
    [...(after ? [after.createdAt, after.id] : []), limit],
  );
  type Row = { id: string; created_at: Date; refund_amount: number; refunded_at: Date | null; payer_user_id: string };
  return (rows as Row[]).map((r) => ({
    id: r.id,
    createdAt: r.created_at,
    refundAmount: r.refund_amount,
    refundedAt: r.refunded_at,
    payerUserId: r.payer_user_id,
  }));
}

export interface EarlierInvoicesDone {
  invoices: number;
  creditNotes: number;
}

export function earlierInvoices({ db, jobs, logger }: { db: Db; jobs: JobQueue; logger: Logger }) {
  /**
   * Issues batch after batch, each after the last one's charges, until none is left; then looks once more from the
   * start for a charge skipped while someone held it (a refund in flight). `signal` stops it between batches: the
   * next run goes on, each batch having committed.
   */
  async function issue({
    batchSize = EARLIER_INVOICES_BATCH,
    signal,
  }: { batchSize?: number; signal?: AbortSignal } = {}): Promise<EarlierInvoicesDone> {
    const done: EarlierInvoicesDone = { invoices: 0, creditNotes: 0 };
    let after: Cursor = null;
    let again = true;
    for (;;) {
      if (signal?.aborted) return done;
      const charges = await db.transaction(async (trx) => {
        const batch = await waitingCharges(trx, after, batchSize);
        for (const charge of batch) {
          await issueInvoice(trx, charge.id, { payerUserId: charge.payerUserId });
          const suppliedAt = charge.refundedAt ?? undefined;
          if (charge.refundAmount > 0 && (await issueCreditNote(trx, charge.id, charge.refundAmount, { suppliedAt })))
            done.creditNotes++;
        }
        return batch;
      });
      done.invoices += charges.length;
      if (charges.length === batchSize) {
        after = charges.at(-1)!;
        continue;
      }
      if (!again || after === null) return done;
      again = false;
      after = null;
    }
  }

  return {
    issue,

    /**
     * At boot: queues the job when a charge waits for its invoice and no such job is waiting already (replicas
     * starting together queue one). Returns whether it queued one.
     */
    async queue(): Promise<boolean> {
      const queued = await db.transaction(async (trx) => {
        await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [ISSUE_EARLIER_INVOICES]);
        const waiting = await trx.raw(
          `SELECT 1 FROM merchant_charges ch
            WHERE NOT EXISTS (SELECT 1 FROM invoices i WHERE i.merchant_charge_id = ch.id AND i.kind = 'invoice')
            LIMIT 1`,
        );
        if (!waiting.rows.length) return false;
        const pending = await trx(`${JOBS_SCHEMA}.job`)
          .where({ name: ISSUE_EARLIER_INVOICES })
          .whereIn('state', ['created', 'retry'])
          .first('id');
        if (pending) return false;
        await jobs.add(trx, ISSUE_EARLIER_INVOICES, {});
        return true;
      });
      if (queued) logger.info('queued the invoices of charges recorded before invoices');
      return queued;
    },

    /** The job: every batch, logged with what it issued. */
    define(): void {
      jobs.define({
        name: ISSUE_EARLIER_INVOICES,
        retryLimit: 3,
        retryDelaySeconds: 60,
        // A run ends early when the server stops (its batches so far are kept); a long table takes many batches.
        expireInSeconds: 60 * 60,
        run: async (_data, job) => {
          const done = await issue({ signal: job.signal });
          logger.info(done, 'issued the invoices of charges recorded before invoices');
        },
      });
    },
  };
}
