import type { Knex } from 'knex';
import type { Clock } from '../../clock';
import type { Db } from '../../db/connection';
import type { JobQueue } from '../../jobs/queue';
import type { Logger } from '../../logger';
import type { WaitlistProduct } from './models';
import { saleStateOf } from './sale-state';

/** The job of one opening: emails the people waiting for it (opening-emails.ts). */
export const WAITLIST_OPENING = 'waitlist-opening';

/** What the sweep needs: the database, the time, a log and the queue its openings' jobs go to. */
interface SweepDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  jobs: Pick<JobQueue, 'add'>;
}

export interface SweepResult {
  /** Products found open that were closed at the last look. */
  opened: number;
  /** Products found closed that were open at the last look. */
  closed: number;
  /** Opening jobs queued (one per product that is open with people waiting for this opening). */
  queued: number;
}

/** A job for this product's current opening is queued or running: the sweep need not add another. */
const jobPending = async (trx: Knex.Transaction, productId: string) =>
  Boolean(
    await trx
      .withSchema('pgboss')
      .from('job')
      .where({ name: WAITLIST_OPENING })
      .whereIn('state', ['created', 'retry', 'active'])
      .whereRaw(`data->>'productId' = ?`, [productId])
      .first('id'),
  );

const someoneWaiting = async (trx: Knex.Transaction, productId: string, opening: number) =>
  Boolean(await trx('waitlistEntries').where({ productId }).where('notifiedOpening', '<', opening).first('id'));

/** One product's look: its state row locked (a racing sweep skips it), an opening counted and its job queued. */
async function look(
  { db, jobs }: SweepDeps,
  productId: string,
  now: Date,
): Promise<{ opened: boolean; closed: boolean; queued: boolean }> {
  return db.transaction(async (trx) => {
    const row: WaitlistProduct | undefined = await trx('waitlistProducts')
      .where({ productId })
      .forUpdate()
      .skipLocked()
      .first();
    const outcome = { opened: false, closed: false, queued: false };
    if (!row) return outcome; // another sweep (or an opening's job) has it now
    const { state } = await saleStateOf(trx, productId, now);
    const open = state === 'on-sale';
    let opening = row.opening;
    if (open && !row.open) {
      opening += 1;
      outcome.opened = true;
      await trx('waitlistProducts').where({ productId }).update({ open: true, opening, changedAt: now });
    } else if (!open && (row.open || row.closedReason !== state)) {
      outcome.closed = row.open;
      await trx('waitlistProducts').where({ productId }).update({ open: false, closedReason: state, changedAt: now });
    }
    if (open && (await someoneWaiting(trx, productId, opening)) && !(await jobPending(trx, productId))) {
      await jobs.add(trx, WAITLIST_OPENING, { productId, opening });
      outcome.queued = true;
    }
    return outcome;
  });
}

/**
 * Looks at every product people wait for: an opening counted (and its job queued) for each found open that was
 * closed, the closing noted for each found closed. Run every minute; racing sweeps split the products. The
 * queued jobs are taken by the workers' next poll (JOB_POLL_SECONDS), like any job added outside a request.
 */
export async function sweepWaitlists(deps: SweepDeps): Promise<SweepResult> {
  const now = deps.clock.now();
  const rows: { productId: string }[] = await deps.db('waitlistProducts').orderBy('productId').select('productId');
  const products = rows.map((row) => row.productId);
  const result: SweepResult = { opened: 0, closed: 0, queued: 0 };
  for (const productId of products) {
    const outcome = await look(deps, productId, now);
    result.opened += Number(outcome.opened);
    result.closed += Number(outcome.closed);
    result.queued += Number(outcome.queued);
  }
  if (result.opened || result.closed) deps.logger.info({ waitlist: result }, 'waitlist products opened or closed');
  return result;
}
