import type { Clock } from '../../clock';
import type { Db } from '../../db/connection';
import { DAY_MS } from '../../shared/durations';

/** What the console's front page is built from (passed by the composition root). */
export interface DashboardDeps {
  db: Db;
  clock: Clock;
}

/** The last `days` days up to today (UTC), as a start instant and as the first and last days. */
export function period(clock: Clock, days: number) {
  const today = new Date(clock.now().toISOString().slice(0, 10));
  const since = new Date(today.getTime() - (days - 1) * DAY_MS);
  return { since, sinceDay: since.toISOString().slice(0, 10), todayDay: today.toISOString().slice(0, 10) };
}

/**
 * People whose lesson progress moved since then (a day's start, UTC): each learner is counted on the day of their
 * latest progress write (learner_last_active_days, kept by triggers), so the count sums a row or so a day, however
 * many learners there are.
 */
export async function activeLearners(db: Db, since: Date): Promise<number> {
  const [row] = (await db('learnerLastActiveDays')
    .where('day', '>=', since.toISOString().slice(0, 10))
    .sum({ learners: 'learners' })) as { learners: number | string | null }[];
  return Number(row?.learners ?? 0);
}
