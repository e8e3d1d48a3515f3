import { TotalsRow } from '../common/Figures';
import { formatMoney } from '../common/money';
import type { FinanceSummary } from './types';

/** The period's headline figures: revenue, net revenue, purchases, refunds and active learners. */
export function SalesTotals({ totals }: { totals: FinanceSummary['totals'] }) {
  return (
    <TotalsRow
      figures={[
        ['finance.dashboard.revenue', formatMoney(totals.gross), 'finance.dashboard.revenueHint'],
        [
          'finance.dashboard.netRevenue',
          formatMoney(totals.net),
          'finance.dashboard.netRevenueHint',
          {
            fees: formatMoney(totals.fees),
            refunded: formatMoney(totals.refunded),
            disputed: formatMoney(totals.disputed),
          },
        ],
        ['finance.dashboard.purchases', totals.purchases, 'finance.dashboard.purchasesHint'],
        ['finance.dashboard.refunds', totals.refunds, 'finance.dashboard.refundsHint'],
        ['finance.dashboard.activeLearners', totals.activeLearners, 'finance.dashboard.activeLearnersHint'],
      ]}
    />
  );
}
