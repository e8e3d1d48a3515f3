import type { Db } from '../db/connection';
import { mostSold } from '../shared/finance';
import {
  amountsByDay,
  amountsByProduct,
  amountsByRecipient,
  compsGiven,
  salesByCurrency,
} from './rollups/ledger-figures';
import type { FinanceSummaryAnswer, PeriodQuery } from './schemas';

/**
 * Reads at once on the pool; one after another on a transaction (a month's close), whose one connection runs one
 * query at a time.
 */
async function readAll<T extends unknown[] | []>(db: Db, reads: { [K in keyof T]: () => Promise<T[K]> }): Promise<T> {
  if (!db.isTransaction) return (await Promise.all(reads.map((read) => read()))) as T;
  const results: unknown[] = [];
  for (const read of reads) results.push(await read());
  return results as T;
}

/**
 * The console's finance charts for one period (whole UTC days), read from the split ledger's daily rollups: the
 * same sums as the ledger's lines, in time that does not grow with the ledger.
 */
export function financeSummary({ db }: { db: Db }) {
  return {
    /**
     * One currency at a time (amounts in different currencies do not add up), by default the one with the most sales
     * in the period, as on the dashboard; the ledger's currencies are listed.
     */
    async summary(
      q: Pick<PeriodQuery, 'from' | 'to'> & { currency?: string | undefined },
    ): Promise<FinanceSummaryAnswer> {
      const period = { from: q.from, to: q.to };
      // A sale is a charge whose sale lines are in the period, counted once however many recipients share it.
      const byCurrency = await salesByCurrency(db, period);
      const currencies = byCurrency.map((r) => r.currency);
      const currency = q.currency ?? mostSold(new Map(byCurrency.map((r) => [r.currency, r.sales])));
      const [days, products, recipients, comps] = await readAll(db, [
        () => amountsByDay(db, period, currency),
        () => amountsByProduct(db, period, currency),
        () => amountsByRecipient(db, period, currency),
        // Courses given (comps) in the period: counted here, never revenue (they have no charge and no ledger line).
        () => compsGiven(db, period, currency),
      ]);
      const totals = days.reduce(
        (t, d) => ({
          sales: t.sales + d.sales,
          refunds: t.refunds + d.refunds,
          disputes: t.disputes + d.disputes,
          total: t.total + d.total,
        }),
        { sales: 0, refunds: 0, disputes: 0, total: 0 },
      );
      return { from: q.from, to: q.to, currency, currencies, totals, comps, days, products, recipients };
    },
  };
}

export type FinanceSummary = ReturnType<typeof financeSummary>;
