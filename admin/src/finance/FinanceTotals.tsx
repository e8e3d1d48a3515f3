import { TotalsRow } from '../common/Figures';
import { formatMoney } from '../common/money';
import type { LedgerAmounts } from './api';

/**
 * The period's headline figures in the page's currency: the ledger's four, and the courses given (comps), counted and
 * never revenue.
 */
export function FinanceTotals({ totals, comps, currency }: { totals: LedgerAmounts; comps: number; currency: string }) {
  const money = (amount: number) => formatMoney(amount, currency);
  return (
    <TotalsRow
      figures={[
        ['finance.ledger.sales', money(totals.sales), 'finance.totals.salesHint'],
        ['finance.ledger.refunds', money(totals.refunds)],
        ['finance.ledger.disputes', money(totals.disputes), 'finance.totals.disputesHint'],
        ['finance.ledger.total', money(totals.total), 'finance.totals.totalHint'],
        ['finance.totals.comps', String(comps), 'finance.totals.compsHint'],
      ]}
    />
  );
}
