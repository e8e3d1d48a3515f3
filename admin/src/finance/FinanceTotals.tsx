import { useTranslate } from 'react-admin';
import { Figure, TotalsRow } from '../common/Figures';
import { formatMoney } from '../common/money';
import type { LedgerAmounts } from './api';

/** The period's four headline figures. */
export function FinanceTotals({ totals }: { totals: LedgerAmounts }) {
  const translate = useTranslate();
  return (
    <TotalsRow>
      <Figure
        label={translate('finance.ledger.sales')}
        value={formatMoney(totals.sales)}
        hint={translate('finance.totals.salesHint')}
      />
      <Figure label={translate('finance.ledger.refunds')} value={formatMoney(totals.refunds)} />
      <Figure
        label={translate('finance.ledger.disputes')}
        value={formatMoney(totals.disputes)}
        hint={translate('finance.totals.disputesHint')}
      />
      <Figure
        label={translate('finance.ledger.total')}
        value={formatMoney(totals.total)}
        hint={translate('finance.totals.totalHint')}
      />
    </TotalsRow>
  );
}
