import { TotalsRow } from '../common/Figures';
import { formatMoney } from '../common/money';
import type { LedgerAmounts } from './api';

/** The period's headline figures: the ledger's four, and the courses given (comps), counted and never revenue. */
export function FinanceTotals({ totals, comps }: { totals: LedgerAmounts; comps: number }) {
  return (
    <TotalsRow
      figures={[
        ['finance.ledger.sales', formatMoney(totals.sales), 'finance.totals.salesHint'],
        ['finance.ledger.refunds', formatMoney(totals.refunds)],
        ['finance.ledger.disputes', formatMoney(totals.disputes), 'finance.totals.disputesHint'],
        ['finance.ledger.total', formatMoney(totals.total), 'finance.totals.totalHint'],
        ['finance.totals.comps', String(comps), 'finance.totals.compsHint'],
      ]}
    />
  );
}
