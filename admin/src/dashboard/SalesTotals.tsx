import { useTranslate } from 'react-admin';
import { Figure, TotalsRow } from '../common/Figures';
import { formatMoney } from '../common/money';
import type { DashboardSummary } from './types';

/** The period's headline figures: revenue, net revenue, purchases, refunds and active learners. */
export function SalesTotals({ totals }: { totals: DashboardSummary['totals'] }) {
  const translate = useTranslate();
  return (
    <TotalsRow>
      <Figure
        label={translate('finance.dashboard.revenue')}
        value={formatMoney(totals.gross)}
        hint={translate('finance.dashboard.revenueHint')}
      />
      <Figure
        label={translate('finance.dashboard.netRevenue')}
        value={formatMoney(totals.net)}
        hint={translate('finance.dashboard.netRevenueHint', { refunded: formatMoney(totals.refunded) })}
      />
      <Figure label={translate('finance.dashboard.purchases')} value={totals.purchases} />
      <Figure
        label={translate('finance.dashboard.refunds')}
        value={totals.refunds}
        hint={translate('finance.dashboard.refundsHint')}
      />
      <Figure
        label={translate('finance.dashboard.activeLearners')}
        value={totals.activeLearners}
        hint={translate('finance.dashboard.activeLearnersHint')}
      />
    </TotalsRow>
  );
}
