import { TotalsRow } from '../common/Figures';
import { formatMoney } from '../common/money';
import type { FinanceSummary } from './types';

/**
 * The period's headline figures in its one currency: revenue (what was charged less its tax, which is never revenue),
 * net revenue, purchases and refunds; active learners.
 */
export function SalesTotals({ totals, currency }: Pick<FinanceSummary, 'totals' | 'currency'>) {
  const money = (amount: number) => formatMoney(amount, currency);
  return (
    <TotalsRow
      figures={[
        [
          'finance.dashboard.revenue',
          money(totals.gross - totals.tax),
          'finance.dashboard.revenueHint',
          { tax: money(totals.tax) },
        ],
        [
          'finance.dashboard.netRevenue',
          money(totals.net),
          'finance.dashboard.netRevenueHint',
          { fees: money(totals.fees), refunded: money(totals.refunded), disputed: money(totals.disputed) },
        ],
        [
          'finance.dashboard.purchases',
          totals.purchases,
          'finance.dashboard.purchasesInCurrencyHint',
          { currency: currency.toUpperCase() },
        ],
        ['finance.dashboard.refunds', totals.refunds, 'finance.dashboard.refundsHint'],
        ['finance.dashboard.activeLearners', totals.activeLearners, 'finance.dashboard.activeLearnersHint'],
      ]}
    />
  );
}
