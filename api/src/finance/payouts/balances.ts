import type { PayoutBalance } from './schemas';
import { earnedBefore, type PayoutDeps } from './deps';

/**
 * Every recipient's balance per currency (docs/domain.md §19): earned (positive lines), clawed back (negative lines,
 * as a positive number), paid (payouts sent or marked paid), and what a run would pay now (`payable`: lines past the
 * holding period that no payout covers yet). A negative balance shows as it is: it is carried until sales cover it.
 *
 * It reads as few rows as the ledger's size allows, in one statement (one snapshot):
 * - earned and the lines' total from the monthly rollup by recipient (a few rows a recipient and month, kept exact in
 *   the transaction that writes the lines);
 * - payable = total − what payouts cover − the positive lines still in the holding period that no payout covers. A
 *   payout is exactly the lines it covers (its amount is their sum), so the covered lines are the payouts' amounts.
 *   The positive lines still held are the daily rollup's `earned` for the whole days after the one the holding period
 *   began in, the hourly rollup's for that day's whole hours, and the ledger's lines of the hour it began in, by its
 *   shorter part: at most half an hour's lines, whatever the school sells. A line still held is covered only by a run
 *   whose holding period ended after the present one (the clock set back, or the period lengthened): then the holding
 *   period's lines are read one by one, and only those before the latest run's end are looked up among the covered
 *   ones.
 */
const HALF_HOUR_MS = 30 * 60 * 1000;

/** The UTC day the holding period starts in (`:earnedBefore`), and the moments its hour and the next day begin. */
const START_DAY = `(CAST(:earnedBefore AS timestamptz) AT TIME ZONE 'UTC')::date`;
const HOUR_START = `date_trunc('hour', CAST(:earnedBefore AS timestamptz), 'UTC')`;
const NEXT_DAY_START = `((${START_DAY} + 1)::timestamp AT TIME ZONE 'UTC')`;

/**
 * The hour the holding period starts in, read from the ledger by its shorter part, so at most half an hour of lines
 * is read whatever the time: in its first half that hour's rollup counts whole and its lines before the start are
 * taken off; from then on, the hours after it count and its lines from the start on are added.
 */
function partialHour(start: Date): { name: string; hours: '>=' | '>'; sign: '-' | ''; lines: string } {
  return start.getTime() % (2 * HALF_HOUR_MS) < HALF_HOUR_MS
    ? {
        name: 'its lines before the start taken off its hour',
        hours: '>=',
        sign: '-',
        lines: `l.created_at >= ${HOUR_START} AND l.created_at < :earnedBefore`,
      }
    : {
        name: 'its lines from the start on, before the next hour',
        hours: '>',
        sign: '',
        lines: `l.created_at >= :earnedBefore AND l.created_at < ${HOUR_START} + interval '1 hour'`,
      };
}

export async function balances(deps: PayoutDeps, recipientId?: string): Promise<PayoutBalance[]> {
  // One recipient's alone (their earnings page), or everyone's.
  const only = (column: string) => (recipientId ? `AND ${column} = :recipientId` : '');
  const held = earnedBefore(deps);
  const partial = partialHour(held);
  const { rows } = await deps.db.raw<{ rows: Record<string, string | number>[] }>(
    `WITH ledger AS (
       SELECT user_id, currency, sum(earned) AS earned, sum(total) AS total
         FROM finance_monthly_ledger_recipients
        WHERE user_id IS NOT NULL ${only('user_id')}
        GROUP BY user_id, currency
       HAVING sum(lines) > 0
     ), latest_run AS (
       SELECT coalesce(max(earned_before), '-infinity') AS earned_before FROM payout_runs
     ), held AS (
       SELECT user_id, currency, sum(amount) AS held
         FROM (
           -- As a rule every positive line since the holding period began is held: whole days from the daily
           -- rollup, the first day's whole hours from the hourly one, and from the ledger the part of the hour it
           -- began in nearer its start or its end (${partial.name}).
           SELECT r.user_id, r.currency, r.earned AS amount
             FROM finance_daily_ledger_recipients r
            WHERE r.day > ${START_DAY}
              AND r.user_id IS NOT NULL ${only('r.user_id')}
              AND (SELECT earned_before FROM latest_run) <= :earnedBefore
           UNION ALL
           SELECT h.user_id, h.currency, h.earned
             FROM finance_hourly_recipient_earnings h
            WHERE h.hour ${partial.hours} ${HOUR_START} AND h.hour < ${NEXT_DAY_START} ${only('h.user_id')}
              AND (SELECT earned_before FROM latest_run) <= :earnedBefore
           UNION ALL
           SELECT l.user_id, l.currency, ${partial.sign}l.amount
             FROM split_lines l
            WHERE ${partial.lines}
              AND l.amount > 0 AND l.user_id IS NOT NULL ${only('l.user_id')}
              AND (SELECT earned_before FROM latest_run) <= :earnedBefore
           UNION ALL
           -- A run that ended after the holding period's start (the clock set back, the period lengthened) may
           -- cover some of its lines: then each line is looked at.
           SELECT l.user_id, l.currency, l.amount
             FROM split_lines l
            WHERE l.created_at >= :earnedBefore AND l.amount > 0 AND l.user_id IS NOT NULL ${only('l.user_id')}
              AND (SELECT earned_before FROM latest_run) > :earnedBefore
              AND (l.created_at >= (SELECT earned_before FROM latest_run)
                   OR NOT EXISTS (SELECT 1 FROM payout_lines pl WHERE pl.split_line_id = l.id))
         ) lines
        GROUP BY user_id, currency
     ), sent AS (
       SELECT recipient_id, currency,
              coalesce(sum(amount) FILTER (WHERE status = 'paid'), 0) AS paid,
              coalesce(sum(amount) FILTER (WHERE status <> 'paid'), 0) AS unsent
         FROM payouts
        WHERE true ${only('recipient_id')}
        GROUP BY recipient_id, currency
     )
     SELECT ledger.user_id AS "recipientId", u.name AS "recipientName", u.email AS "recipientEmail",
            ledger.currency, ledger.earned::bigint AS earned, (ledger.earned - ledger.total)::bigint AS "clawedBack",
            coalesce(sent.paid, 0)::bigint AS paid, coalesce(sent.unsent, 0)::bigint AS unsent,
            (ledger.total - coalesce(sent.paid + sent.unsent, 0) - coalesce(held.held, 0))::bigint AS payable
       FROM ledger
       JOIN users u ON u.id = ledger.user_id
       LEFT JOIN held ON held.user_id = ledger.user_id AND held.currency = ledger.currency
       LEFT JOIN sent ON sent.recipient_id = ledger.user_id AND sent.currency = ledger.currency
      ORDER BY u.email, ledger.currency`,
    { earnedBefore: held, ...(recipientId ? { recipientId } : {}) },
  );
  return rows.map((row) => {
    const earned = Number(row.earned);
    const clawedBack = Number(row.clawedBack);
    const paid = Number(row.paid);
    return {
      recipientId: String(row.recipientId),
      recipientName: (row.recipientName as string | null) ?? null,
      recipientEmail: String(row.recipientEmail),
      currency: String(row.currency),
      earned,
      clawedBack,
      paid,
      inPayouts: Number(row.unsent),
      balance: earned - clawedBack - paid,
      payable: Number(row.payable),
    };
  });
}
