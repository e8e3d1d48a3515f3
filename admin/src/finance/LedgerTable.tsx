import type { ReactNode } from 'react';
import { TableCell, TableFooter, TableRow } from '@mui/material';
import { useTranslate } from 'react-admin';
import { formatMoney } from '../common/money';
import type { LedgerAmounts } from './api';

// The cells every ledger table shares: net sales, refunds, disputes and total in the page's currency, and the footer
// that sums them.

const AMOUNTS = ['sales', 'refunds', 'disputes', 'total'] as const;

export function AmountHeads() {
  const translate = useTranslate();
  return (
    <>
      {AMOUNTS.map((amount) => (
        <TableCell key={amount} align="right">
          {translate(`finance.ledger.${amount}`)}
        </TableCell>
      ))}
    </>
  );
}

export function AmountCells({ row, currency }: { row: LedgerAmounts; currency: string }) {
  return (
    <>
      {AMOUNTS.map((amount) => (
        <TableCell key={amount} align="right">
          {formatMoney(row[amount], currency)}
        </TableCell>
      ))}
    </>
  );
}

/** The period's totals under the rows; `span` cells for the label, `extra` cells after the amounts. */
export function TotalRow({
  totals,
  currency,
  span = 1,
  extra,
}: {
  totals: LedgerAmounts;
  currency: string;
  span?: number;
  extra?: ReactNode;
}) {
  const translate = useTranslate();
  return (
    <TableFooter sx={{ '& td, & th': { color: 'text.primary', fontWeight: 600, fontSize: '0.875rem' } }}>
      <TableRow>
        <TableCell component="th" scope="row" colSpan={span}>
          {translate('finance.ledger.total')}
        </TableCell>
        <AmountCells row={totals} currency={currency} />
        {extra}
      </TableRow>
    </TableFooter>
  );
}
