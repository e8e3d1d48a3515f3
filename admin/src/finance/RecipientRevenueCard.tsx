import { TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import { useTranslate } from 'react-admin';
import { ChartCard, LinkedRowHead } from '../common/Figures';
import { formatMoney, formatPercent } from '../common/money';
import { recipientLabel, type FinanceSummary } from './api';
import { RecipientShareChart } from './lazyCharts';
import { AmountCells, AmountHeads, TotalRow } from './LedgerTable';
import { spanText } from './period';

/** The ledger per recipient: each one's share of the period's total as a pie, the amounts in the table. */
export function RecipientRevenueCard({ data }: { data: FinanceSummary }) {
  const translate = useTranslate();
  const { totals, recipients } = data;
  const span = spanText(data);
  const title = translate('finance.recipients.title');
  const positive = recipients.filter((r) => r.total > 0);
  const share = (total: number) => (totals.total > 0 ? formatPercent(total / totals.total) : '—');
  const top = recipients[0];
  const caption = top
    ? [
        translate('finance.recipients.caption', {
          total: formatMoney(totals.total, data.currency),
          name: recipientLabel(top, translate),
          share: share(top.total),
        }),
        positive.length < recipients.length ? translate('finance.recipients.belowZero') : null,
      ]
        .filter(Boolean)
        .join(' ')
    : span;
  const empty = positive.length
    ? null
    : translate(recipients.length ? 'finance.recipients.noneAboveZero' : 'finance.ledger.nothing');
  return (
    <ChartCard
      id="finance-recipients"
      title={title}
      caption={caption}
      empty={empty}
      chart={
        <RecipientShareChart
          summary={data}
          title={title}
          description={translate('finance.recipients.description', { span })}
        />
      }
      table={
        recipients.length ? (
          <>
            <TableHead>
              <TableRow>
                <TableCell>{translate('finance.recipients.head')}</TableCell>
                <TableCell>{translate('finance.recipients.type')}</TableCell>
                <AmountHeads />
                <TableCell align="right">{translate('finance.recipients.share')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {recipients.map((r) => (
                <TableRow key={`${r.type}-${r.userId ?? 'platform'}`}>
                  {r.userId ? (
                    <LinkedRowHead resource="users" id={r.userId}>
                      {r.name || r.email || r.userId}
                    </LinkedRowHead>
                  ) : (
                    <TableCell component="th" scope="row">
                      {translate('finance.recipients.types.platform')}
                    </TableCell>
                  )}
                  <TableCell>{translate(`finance.recipients.types.${r.type}`)}</TableCell>
                  <AmountCells row={r} currency={data.currency} />
                  <TableCell align="right">{share(r.total)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
            <TotalRow
              totals={totals}
              currency={data.currency}
              span={2}
              extra={<TableCell align="right">{totals.total > 0 ? '100%' : '—'}</TableCell>}
            />
          </>
        ) : null
      }
    />
  );
}
