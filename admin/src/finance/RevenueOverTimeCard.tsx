import { TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import { useTranslate } from 'react-admin';
import { ChartCard } from '../common/Figures';
import { formatMoney } from '../common/money';
import type { FinanceSummary } from './api';
import { RevenueOverTimeChart } from './lazyCharts';
import { AmountCells, AmountHeads, TotalRow } from './LedgerTable';
import { bucketFor, bucketLabel, hasMoney, overTime, spanText } from './period';

/** The ledger over time: a bar per day, week or month (by the period's length), and the same figures as a table. */
export function RevenueOverTimeCard({ data }: { data: FinanceSummary }) {
  const translate = useTranslate();
  const { totals } = data;
  const money = (amount: number) => formatMoney(amount, data.currency);
  const span = spanText(data);
  const bucket = bucketFor(data.days.length);
  const points = overTime(data.days, bucket);
  const title = translate(`finance.overTime.title.${bucket}`);
  const empty = data.days.some(hasMoney) ? null : translate('finance.ledger.nothing');
  return (
    <ChartCard
      id="finance-over-time"
      title={title}
      caption={translate('finance.overTime.caption', {
        span,
        sales: money(totals.sales),
        refunds: money(totals.refunds),
        disputes: money(totals.disputes),
        total: money(totals.total),
      })}
      empty={empty}
      chart={
        <RevenueOverTimeChart
          points={points}
          bucket={bucket}
          currency={data.currency}
          title={title}
          description={translate(`finance.overTime.description.${bucket}`, { span })}
        />
      }
      table={
        empty ? null : (
          <>
            <TableHead>
              <TableRow>
                <TableCell>{translate(`finance.overTime.head.${bucket}`)}</TableCell>
                <AmountHeads />
              </TableRow>
            </TableHead>
            <TableBody>
              {points.map((p) => (
                <TableRow key={p.start}>
                  <TableCell component="th" scope="row">
                    {bucketLabel(p.start, bucket, translate)}
                  </TableCell>
                  <AmountCells row={p} currency={data.currency} />
                </TableRow>
              ))}
            </TableBody>
            <TotalRow totals={totals} currency={data.currency} />
          </>
        )
      }
    />
  );
}
