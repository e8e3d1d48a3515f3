import type { Clock } from '../../clock';
import type { Db } from '../../db/connection';

/** What the console's front page is built from (passed by the composition root). */
export interface DashboardDeps {
  db: Db;
  clock: Clock;
}

export const DAY_MS = 24 * 60 * 60 * 1000;

/** A sale: a purchase someone paid for (a seat taken from a team, or a free or 100 %-off purchase, is not one). */
export const PAID = `total_amount > 0 AND redeemed_bulk_coupon_id IS NULL`;

/** Refunds made, one per refund of a charge, counted from the split ledger's refund lines (the finance view's count). */
export const REFUNDS = `count(DISTINCT (merchant_charge_id, reference)) FILTER (WHERE kind = 'refund')`;

/** The last `days` days up to today (UTC), as a start instant and as the first and last days. */
export function period(clock: Clock, days: number) {
  const today = new Date(clock.now().toISOString().slice(0, 10));
  const since = new Date(today.getTime() - (days - 1) * DAY_MS);
  return { since, sinceDay: since.toISOString().slice(0, 10), todayDay: today.toISOString().slice(0, 10) };
}

/** People who moved forward in a lesson since then. */
export async function activeLearners(db: Db, since: Date): Promise<number> {
  const [row] = (await db('lessonProgress').where('updatedAt', '>=', since).countDistinct({ learners: 'userId' })) as {
    learners: number;
  }[];
  return Number(row?.learners ?? 0);
}
