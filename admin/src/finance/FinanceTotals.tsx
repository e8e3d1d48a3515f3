import { TotalsRow } from '../common/Figures';
import { formatMoney } from '../common/money';
import type { LedgerAmounts } from './api';

/** The period's four headline figures. */
export function FinanceTotals({ totals }: { totals: LedgerAmounts }) {
  return (
    <TotalsRow
      figures={[
        ['finance.ledger.sales', formatMoney(totals.sales), 'finance.totals.salesHint'],
        ['finance.ledger.refunds', formatMoney(totals.refunds)],
        ['finance.ledger.disputes', formatMoney(totals.disputes), 'finance.totals.disputesHint'],
        ['finance.ledger.total', formatMoney(totals.total), 'finance.totals.totalHint'],
      ]}
    />
  );
}
