import type { Db } from '../../db/connection';
import type { Logger } from '../../logger';
import { salesByCurrency } from '../rollups/ledger-figures';
import { moneyByDayAndCurrency } from '../rollups/sales-figures';
import { financeSummary } from '../summary';
import { taxReport } from '../tax-report';
import { daysOf, monthStart, nextMonth } from './months';
import type { CurrencyFigures } from './schemas';

/**
 * A month's figures per currency (docs/domain.md §21), read through the finance reports' own functions (the daily
 * rollups of charges and of the ledger, the finance summary's recipients, the tax report's summary), so a closed
 * month says what those reports said about it when it closed. `db` may be the close's transaction.
 */
export async function monthFigures(db: Db, logger: Logger, month: string): Promise<CurrencyFigures[]> {
  const days = daysOf(month);
  const from = monthStart(month);
  const until = monthStart(nextMonth(month));
  const charged = (await moneyByDayAndCurrency(db, days.from)).filter((d) => d.day <= days.to);
  const tax = taxReport({ db, logger });
  const summary = financeSummary({ db });
  const { rows: paid } = (await db.raw(
    `SELECT currency, count(*)::int AS payouts, coalesce(sum(amount), 0)::bigint AS amount FROM payouts
      WHERE status = 'paid' AND paid_at >= ? AND paid_at < ? GROUP BY currency`,
    [from, until],
  )) as { rows: { currency: string; payouts: number; amount: number }[] };
  // Lines marked for a closed month (the month-close triggers): dated in one and booked on this month's first
  // instant, or a refund's or dispute's of a closed month's sale, booked when it was made.
  const { rows: late } = (await db.raw(
    `SELECT currency, coalesce(sum(amount), 0)::bigint AS amount FROM split_lines
      WHERE created_at >= ? AND created_at < ? AND belongs_to_month IS NOT NULL GROUP BY currency`,
    [from, until],
  )) as { rows: { currency: string; amount: number }[] };
  const ledgerCurrencies = (await salesByCurrency(db, days)).map((r) => r.currency);
  const taxPeriod = { from: days.from, to: `${nextMonth(month)}-01` };
  const taxed = await tax.summary(taxPeriod);
  const currencies = [
    ...new Set([
      ...charged.map((d) => d.currency),
      ...ledgerCurrencies,
      ...taxed.currencies,
      ...paid.map((p) => p.currency),
    ]),
  ].sort();
  const figures: CurrencyFigures[] = [];
  for (const currency of currencies) {
    const ledger = await summary.summary({ from: days.from, to: days.to, currency });
    const taxes = await tax.summary({ ...taxPeriod, currency });
    const mine = charged.filter((d) => d.currency === currency);
    const sum = (pick: (d: (typeof mine)[number]) => number) => mine.reduce((n, d) => n + pick(d), 0);
    const payouts = paid.find((p) => p.currency === currency);
    figures.push({
      currency,
      gross: sum((d) => d.gross),
      tax: sum((d) => d.tax),
      fees: sum((d) => d.fees),
      sales: ledger.totals.sales,
      refunds: ledger.totals.refunds,
      disputes: ledger.totals.disputes,
      net: ledger.totals.total,
      taxCollected: taxes.totals.collected,
      taxRefunded: taxes.totals.refunded,
      taxNet: taxes.totals.net,
      taxByCountry: taxes.countries,
      splits: ledger.recipients.map((r) => ({
        type: r.type,
        userId: r.userId,
        email: r.email,
        name: r.name,
        sales: r.sales,
        refunds: r.refunds,
        disputes: r.disputes,
        total: r.total,
      })),
      payoutsPaid: Number(payouts?.amount ?? 0),
      payouts: payouts?.payouts ?? 0,
      lateFromClosedMonths: Number(late.find((l) => l.currency === currency)?.amount ?? 0),
    });
  }
  return figures;
}
