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
        sales: formatMoney(totals.sales),
        refunds: formatMoney(totals.refunds),
        disputes: formatMoney(totals.disputes),
        total: formatMoney(totals.total),
      })}
      empty={empty}
      chart={
        <RevenueOverTimeChart
          points={points}
          bucket={bucket}
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
                  <AmountCells row={p} />
                </TableRow>
              ))}
            </TableBody>
            <TotalRow totals={totals} />
          </>
        )
      }
    />
  );
}
