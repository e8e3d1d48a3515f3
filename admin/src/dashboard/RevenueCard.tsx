import { lazy } from 'react';
import { TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import { useTranslate } from 'react-admin';
import { ChartCard } from '../common/Figures';
import { formatMoney } from '../common/money';
import type { FinanceSummary } from './types';

// The chart library is loaded only when the dashboard has figures to draw.
const RevenueChart = lazy(() => import('../common/RevenueChart'));

const dayText = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });

/**
 * Revenue and refunds per day, in the view's currency, as a chart and as a table: what was charged, the tax in it,
 * refunds and the ledger's net (both net of tax), and purchases.
 */
export function RevenueCard({ data }: { data: FinanceSummary }) {
  const translate = useTranslate();
  const { totals } = data;
  const money = (amount: number) => formatMoney(amount, data.currency);
  const title = translate('finance.dashboard.chartTitle', { smart_count: data.days });
  const description = translate('finance.dashboard.summary', {
    since: data.since,
    gross: money(totals.gross),
    tax: money(totals.tax),
    refunded: money(totals.refunded),
    net: money(totals.net),
    smart_count: totals.purchases,
  });
  const hasRevenue = data.revenueByDay.some((d) => d.gross > 0 || d.refunded > 0);
  return (
    <ChartCard
      id="revenue-chart"
      title={title}
      caption={translate('finance.dashboard.chartCaption', { summary: description })}
      empty={hasRevenue ? null : translate('finance.dashboard.noRevenue')}
      height={300}
      chart={<RevenueChart days={data.revenueByDay} currency={data.currency} title={title} description={description} />}
      table={
        <>
          <TableHead>
            <TableRow>
              <TableCell>{translate('finance.dashboard.day')}</TableCell>
              <TableCell align="right">{translate('finance.dashboard.gross')}</TableCell>
              <TableCell align="right">{translate('finance.dashboard.tax')}</TableCell>
              <TableCell align="right">{translate('finance.dashboard.refunded')}</TableCell>
              <TableCell align="right">{translate('finance.dashboard.net')}</TableCell>
              <TableCell align="right">{translate('finance.dashboard.purchases')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {data.revenueByDay.map((d) => (
              <TableRow key={d.day}>
                <TableCell component="th" scope="row">
                  {dayText(d.day)}
                </TableCell>
                <TableCell align="right">{money(d.gross)}</TableCell>
                <TableCell align="right">{money(d.tax)}</TableCell>
                <TableCell align="right">{money(d.refunded)}</TableCell>
                <TableCell align="right">{money(d.net)}</TableCell>
                <TableCell align="right">{d.purchases}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </>
      }
    />
  );
}
