import { moneyByDayAndCurrency, topEarners } from '../../finance/rollups/sales-figures';
import { mostSold } from '../../shared/finance';
import { DAY_MS } from '../../shared/durations';
import { activeLearners, type DashboardDeps, period } from './figures';
import type { DashboardDay, FinanceDashboard } from '../schemas/dashboard';

const NO_MONEY = { gross: 0, tax: 0, fees: 0, refunded: 0, disputed: 0, net: 0, refunds: 0, purchases: 0 };

/** The finance view: money per day in one currency, its totals, and the products that earned most. */
export async function financeSummary(
  { db, clock }: DashboardDeps,
  days: number,
  asked: string | undefined,
): Promise<FinanceDashboard> {
  const { since, sinceDay } = period(clock, days);
  const money = await moneyByDayAndCurrency(db, sinceDay);

  // Amounts in two currencies do not add up: one at a time, by default the one with the most sales in the period.
  const sales = new Map<string, number>();
  for (const d of money) sales.set(d.currency, (sales.get(d.currency) ?? 0) + d.purchases);
  const currencies = [...sales.keys()].sort();
  const currency = asked ?? mostSold(sales);

  const inCurrency = new Map(money.filter((d) => d.currency === currency).map(({ currency: _, ...d }) => [d.day, d]));
  const revenueByDay = Array.from({ length: days }, (_, i): DashboardDay => {
    const day = new Date(since.getTime() + i * DAY_MS).toISOString().slice(0, 10);
    return inCurrency.get(day) ?? { ...NO_MONEY, day };
  });
  const topProducts = await topEarners(db, sinceDay, currency);

  const sum = (key: Exclude<keyof DashboardDay, 'day'>) => revenueByDay.reduce((total, d) => total + d[key], 0);
  return {
    view: 'finance',
    days,
    since: sinceDay,
    currency,
    currencies,
    revenueByDay,
    totals: {
      gross: sum('gross'),
      tax: sum('tax'),
      fees: sum('fees'),
      refunded: sum('refunded'),
      disputed: sum('disputed'),
      net: sum('net'),
      purchases: sum('purchases'),
      refunds: sum('refunds'),
      activeLearners: await activeLearners(db, since),
    },
    topProducts,
  };
}
