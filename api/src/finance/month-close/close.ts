import { recordAudit, type Actor } from '../../audit/record';
import type { Clock } from '../../clock';
import type { Db } from '../../db/connection';
import type { Logger } from '../../logger';
import { AppError } from '../../shared/errors';
import { monthFigures } from './figures';
import { monthOf, monthStart, nextMonth } from './months';
import type { MonthCloseRecord, NextMonthCloseAnswer } from './schemas';

export interface MonthCloseDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
}

/**
 * The lock every money write shares (taken by finance_open_from(), migrations/20261202050000_create_month_closes.ts)
 * and a close takes alone: the close waits for the writes under way, and the writes after it see the month closed.
 */
const MONTH_CLOSE_LOCK = 2026120205;

/** The month of the earliest money recorded (a charge or a ledger line), or null when there is none. */
async function firstMoneyMonth(db: Db): Promise<string | null> {
  const { rows } = (await db.raw(
    `SELECT least((SELECT min(created_at) FROM merchant_charges), (SELECT min(created_at) FROM split_lines)) AS at`,
  )) as { rows: { at: Date | null }[] };
  const at = rows[0]?.at;
  return at ? monthOf(at) : null;
}

/** The month a close would freeze next: the one after the latest closed, else the first with any money. */
async function monthToClose(db: Db): Promise<string | null> {
  const latest = await latestClosed(db);
  return latest !== null ? nextMonth(latest) : firstMoneyMonth(db);
}

async function latestClosed(db: Db): Promise<string | null> {
  const row = (await db('monthCloses').orderBy('month', 'desc').first('month')) as { month: string } | undefined;
  return row?.month ?? null;
}

const ended = (deps: Pick<MonthCloseDeps, 'clock'>, month: string) =>
  monthStart(nextMonth(month)).getTime() <= deps.clock.now().getTime();

/**
 * Closes a month (docs/domain.md §21): once it has ended, in order, under the lock every money write shares. Its
 * figures are computed from the reports' rollups inside that lock, so they hold every write committed before it,
 * stored, and the first open month's first instant moved past it: a later write dated in it is booked then.
 */
export async function closeMonth(
  deps: MonthCloseDeps,
  month: string,
  actor: Actor,
  requestId: string | null,
): Promise<MonthCloseRecord> {
  if (!ended(deps, month))
    throw new AppError('month-not-ended', `${month} has not ended yet: a month is closed once it is over (UTC).`);
  return deps.db.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(?)', [MONTH_CLOSE_LOCK]);
    const latest = await latestClosed(trx);
    if (latest !== null && month <= latest)
      throw new AppError('month-already-closed', `${month} is already closed (every month up to ${latest} is).`);
    // The first close may be of any month up to the first with money; after it, each next month in turn.
    const open = latest !== null ? nextMonth(latest) : await firstMoneyMonth(trx);
    if (open !== null && open < month)
      throw new AppError('earlier-month-open', `${open} is still open: months are closed in order.`, {
        month: `close ${open} first`,
      });
    const figures = await monthFigures(trx, deps.logger, month);
    const [row] = (await trx('monthCloses')
      .insert({
        month,
        closedAt: deps.clock.now(),
        closedById: actor.id,
        closedByEmail: actor.email,
        figures: JSON.stringify(figures),
      })
      .returning('*')) as Omit<MonthCloseRecord, 'id'>[];
    await trx.raw(
      `INSERT INTO finance_closed_through (one, open_from) VALUES (true, ?)
       ON CONFLICT (one) DO UPDATE SET open_from = excluded.open_from`,
      [monthStart(nextMonth(month))],
    );
    await recordAudit(trx, {
      actor,
      action: 'month.closed',
      resource: 'month-closes',
      recordId: month,
      after: { month, figures },
      requestId,
    });
    return JSON.parse(JSON.stringify({ id: month, ...row })) as MonthCloseRecord;
  });
}

/** The month a close would freeze next and its figures as they stand, for the console's confirmation. */
export async function nextMonthClose(deps: MonthCloseDeps): Promise<NextMonthCloseAnswer> {
  const month = await monthToClose(deps.db);
  if (month === null) return { month: null, ended: false, figures: [] };
  return { month, ended: ended(deps, month), figures: await monthFigures(deps.db, deps.logger, month) };
}
