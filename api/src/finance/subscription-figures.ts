import type { Clock } from '../clock';
import type { Db } from '../db/connection';
import type { PeriodQuery } from './schemas';
import { DAY_MS } from '../shared/durations';

/**
 * Recurring revenue's figures (docs/domain.md §22), read from subscriptions and their periods at an instant `t`:
 * - a subscription **ends** at `t` when an end is recorded by then (status canceled or lapsed, written at or before
 *   `t`: staff's cancel now, a sweep's lapse); until then its billed periods speak for it;
 * - it is **active** at `t` when a paid period covers `t` (start ≤ t < end), **trialing** when a trial's does;
 * - **MRR** is what the active ones' covering periods bill, net of tax, a month's worth: a yearly one (a period longer
 *   than a month) counts a twelfth, summed per currency and rounded once to the cent;
 * - **churn** over a period: of those active at its start, the share neither active nor trialing at its end;
 * - **failed payments**: renewals recorded as failed within the period.
 * A payment plan's subscription (a course in instalments, §23) is no recurring revenue: it counts only in failed payments.
 */

/** `s` has ended by `:at` (SQL). */
const ENDED = `(s.status IN ('canceled', 'lapsed') AND s.updated_at <= :at)`;
/** A period of `s` with `outcome` covering `:at` (SQL). */
const covering = (outcome: 'paid' | 'trial') =>
  `EXISTS (SELECT 1 FROM subscription_periods p WHERE p.subscription_id = s.id AND p.outcome = '${outcome}'
     AND p.period_start <= :at AND p.period_end > :at)`;
/** `s` is a membership's, not a payment plan's (SQL). */
const MEMBERSHIP = `s.payment_plan_id IS NULL`;
export const ACTIVE_AT = `(${MEMBERSHIP} AND NOT ${ENDED} AND ${covering('paid')})`;
export const TRIALING_AT = `(${MEMBERSHIP} AND NOT ${ENDED} AND ${covering('trial')} AND NOT ${covering('paid')})`;
/** A period longer than this is a year's (a month is at most 31 days). */
const YEARLY = `interval '32 days'`;

export interface SubscriptionFiguresDay {
  /** The UTC day; its figures are those at its end (now, for today). */
  day: string;
  active: number;
  trials: number;
  failedPayments: number;
  /** Currency → MRR in cents. */
  mrr: Record<string, number>;
}

/** GET /api/admin/finance/subscriptions. */
export interface SubscriptionFiguresAnswer {
  from: string;
  to: string;
  /** The instant the end figures are read at: the end of `to`, or now when that is later. */
  at: string;
  mrr: { currency: string; amount: number }[];
  activeSubscribers: number;
  trials: number;
  activeAtStart: number;
  churned: number;
  /** churned ÷ activeAtStart; null when none was active at the start. */
  churnRate: number | null;
  failedPayments: number;
  days: SubscriptionFiguresDay[];
}

export function subscriptionFigures({ db, clock }: { db: Db; clock: Clock }) {
  /** Each day's figures at its end (or now), in one statement. */
  async function days(from: string, to: string, now: Date): Promise<SubscriptionFiguresDay[]> {
    const { rows } = await db.raw(
      `WITH instants AS (
         SELECT (d AT TIME ZONE 'UTC')::date AS day, d AS starts, LEAST(d + interval '1 day', :now::timestamptz) AS at
           FROM generate_series(:from::date::timestamp AT TIME ZONE 'UTC', :to::date::timestamp AT TIME ZONE 'UTC',
                                interval '1 day') d),
       counted AS (
         SELECT i.day,
                (SELECT count(*) FROM subscriptions s WHERE ${ACTIVE_AT.replaceAll(':at', 'i.at')})::int AS active,
                (SELECT count(*) FROM subscriptions s WHERE ${TRIALING_AT.replaceAll(':at', 'i.at')})::int AS trials,
                (SELECT count(*) FROM subscription_periods f
                  WHERE f.outcome = 'failed' AND f.created_at >= i.starts
                    AND f.created_at < i.starts + interval '1 day')::int AS failed,
                (SELECT coalesce(jsonb_object_agg(m.currency, m.amount), '{}') FROM (
                   SELECT c.currency,
                          round(sum(CASE WHEN p.period_end - p.period_start > ${YEARLY}
                                         THEN c.amount - c.tax_amount ELSE (c.amount - c.tax_amount) * 12 END) / 12.0
                          )::int AS amount
                     FROM subscriptions s
                     JOIN subscription_periods p ON p.subscription_id = s.id AND p.outcome = 'paid'
                          AND p.period_start <= i.at AND p.period_end > i.at
                     JOIN merchant_charges c ON c.id = p.merchant_charge_id
                    WHERE ${MEMBERSHIP} AND NOT ${ENDED.replaceAll(':at', 'i.at')}
                    GROUP BY c.currency) m) AS mrr
           FROM instants i)
       SELECT to_char(day, 'YYYY-MM-DD') AS day, active, trials, failed, mrr FROM counted ORDER BY day`,
      { from, to, now },
    );
    return (rows as { day: string; active: number; trials: number; failed: number; mrr: Record<string, number> }[]).map(
      (r) => ({ day: r.day, active: r.active, trials: r.trials, failedPayments: r.failed, mrr: r.mrr }),
    );
  }

  return {
    async figures({ from, to }: Pick<PeriodQuery, 'from' | 'to'>): Promise<SubscriptionFiguresAnswer> {
      const now = clock.now();
      const start = new Date(`${from}T00:00:00Z`);
      const end = new Date(Math.min(Date.parse(`${to}T00:00:00Z`) + DAY_MS, now.getTime()));
      const daily = await days(from, to, now);
      const [churn] = (
        await db.raw(
          `SELECT count(*) FILTER (WHERE ${ACTIVE_AT.replaceAll(':at', ':start')})::int AS "activeAtStart",
                  count(*) FILTER (WHERE ${ACTIVE_AT.replaceAll(':at', ':start')}
                    AND NOT ${ACTIVE_AT.replaceAll(':at', ':end')}
                    AND NOT ${TRIALING_AT.replaceAll(':at', ':end')})::int AS churned
             FROM subscriptions s`,
          { start, end },
        )
      ).rows as { activeAtStart: number; churned: number }[];
      const failed = await db('subscriptionPeriods')
        .where({ outcome: 'failed' })
        .where('createdAt', '>=', start)
        .where('createdAt', '<', new Date(Date.parse(`${to}T00:00:00Z`) + DAY_MS))
        .count({ n: '*' })
        .first();
      const last = daily[daily.length - 1]!;
      const { activeAtStart, churned } = churn!;
      return {
        from,
        to,
        at: end.toISOString(),
        mrr: Object.entries(last.mrr)
          .map(([currency, amount]) => ({ currency, amount }))
          .sort((a, b) => a.currency.localeCompare(b.currency)),
        activeSubscribers: last.active,
        trials: last.trials,
        activeAtStart,
        churned,
        churnRate: activeAtStart ? churned / activeAtStart : null,
        failedPayments: Number(failed?.n ?? 0),
        days: daily,
      };
    },
  };
}

export type SubscriptionFigures = ReturnType<typeof subscriptionFigures>;
