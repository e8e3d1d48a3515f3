import { recordAudit, type Actor } from '../../audit/record';
import type { PayoutRunAnswer } from './schemas';
import { earnedBefore, PAYABLE_LINE, type PayoutDeps } from './deps';
import { sendPayouts } from './send';

/** Every run takes this lock first, on every replica: two runs at once would each pay the same lines. */
export const RUN_LOCK = "hashtext('payout-run')";

/**
 * A payout run (docs/domain.md §19). One transaction, under the run lock, writes the run, one pending payout per
 * recipient and currency whose payable lines sum to at least the minimum, and the lines each covers: a crash
 * leaves either all of it or none. Then, outside any transaction, every payout not yet sent by Stripe is sent,
 * this run's and those an earlier run left pending or failed (looked for at Stripe first: they may have been sent). Manual payouts
 * wait for someone to mark them paid. A negative total is carried: its lines stay uncovered until sales cover them.
 */
export async function runPayouts(deps: PayoutDeps, actor: Actor, requestId: string | null): Promise<PayoutRunAnswer> {
  const { db, config } = deps;
  const before = earnedBefore(deps);
  const connected = deps.stripe ? 'EXISTS (SELECT 1 FROM payout_recipients r WHERE r.user_id = t.user_id)' : 'false';
  const { runId, created } = await db.transaction(async (trx) => {
    await trx.raw(`SELECT pg_advisory_xact_lock(${RUN_LOCK})`);
    const [run] = (await trx('payoutRuns')
      .insert({ startedById: actor.id, startedByEmail: actor.email, earnedBefore: before })
      .returning('id')) as { id: string }[];
    // One statement, so the totals and the lines linked to each payout come from the same snapshot.
    const { rows } = await trx.raw<{ rows: { id: string; recipientId: string; currency: string; amount: number }[] }>(
      `WITH payable AS MATERIALIZED (
         SELECT l.id, l.user_id, l.currency, l.amount FROM split_lines l WHERE ${PAYABLE_LINE}
       ), totals AS (
         SELECT user_id, currency, sum(amount) AS amount FROM payable GROUP BY user_id, currency
         HAVING sum(amount) >= ?
       ), made AS (
         INSERT INTO payouts (run_id, recipient_id, currency, amount, method)
         SELECT ?, t.user_id, t.currency, t.amount, CASE WHEN ${connected} THEN 'stripe' ELSE 'manual' END
           FROM totals t
         RETURNING id, recipient_id, currency, amount
       ), covered AS (
         INSERT INTO payout_lines (split_line_id, payout_id)
         SELECT p.id, made.id FROM payable p JOIN made ON made.recipient_id = p.user_id AND made.currency = p.currency
       )
       SELECT id, recipient_id AS "recipientId", currency, amount FROM made ORDER BY recipient_id, currency`,
      [before, config.PAYOUT_MINIMUM_CENTS, run!.id],
    );
    await recordAudit(trx, {
      actor,
      action: 'payout.run',
      resource: 'payouts',
      recordId: run!.id,
      after: { earnedBefore: before, payouts: rows },
      requestId,
    });
    return { runId: run!.id, created: rows.length };
  });
  const sent = await sendPayouts(deps, runId, requestId);
  return { runId, created, ...sent };
}
