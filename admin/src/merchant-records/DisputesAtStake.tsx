import { Box, Card, CardContent, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useTranslate } from 'react-admin';
import type { DisputeReportAnswer } from '@contract/finance/schemas';
import type { Wire } from '@contract/shared/wire';
import { ChartCard, FiguresFailed, TotalsRow } from '../common/Figures';
import { formatMoney } from '../common/money';
import { retryUnanswered, type ConsoleDataProvider } from '../dataProvider';
import { dayText, presetPeriod } from '../finance/period';
import { DisputeWeeksChart } from '../refunds-report/lazyCharts';

/** The weeks the chart covers: this one and the eleven before it. */
const WEEKS = 12;
const STATUSES = ['open', 'won', 'lost'] as const;

function lastWeeks(now = new Date()) {
  const today = presetPeriod('this-month', now).to;
  const from = new Date(Date.parse(`${today}T00:00:00Z`) - (WEEKS * 7 - 1) * 86_400_000);
  return { from: from.toISOString().slice(0, 10), to: today };
}

/**
 * Above the disputes list: what is at stake now (open disputes and their amount, evidence overdue or due within three
 * days) and the disputes opened in the last twelve weeks by where they stand now, in US dollars.
 */
export function DisputesAtStake() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const period = lastWeeks();
  const query = useQuery<Wire<DisputeReportAnswer>>({
    queryKey: ['reports', 'getDisputeReport', period],
    queryFn: ({ signal }) =>
      dataProvider.getDisputeReport({ ...period, currency: 'usd' }, { signal }).then(({ data }) => data),
    retry: retryUnanswered,
  });
  if (query.isError)
    return (
      <Box sx={{ mt: 2 }}>
        <FiguresFailed error={query.error} onRetry={() => void query.refetch()} />
      </Box>
    );
  const data = query.data;
  if (!data) return null;
  const title = translate('reports.disputes.chart');
  const labels = Object.fromEntries(STATUSES.map((s) => [s, translate(`reports.disputes.statuses.${s}`)])) as Record<
    (typeof STATUSES)[number],
    string
  >;
  const weekLabel = (week: string) => dayText(week, { month: 'short', day: 'numeric' });
  const opened = data.weeks.some((w) => w.open + w.won + w.lost > 0);
  return (
    <Box
      component="section"
      aria-label={translate('reports.disputes.atStake')}
      sx={{ mt: 2, display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: 'minmax(0, 2fr) minmax(0, 3fr)' } }}
    >
      <Card variant="outlined">
        <CardContent>
          <TotalsRow
            figures={[
              [
                'reports.disputes.open',
                formatMoney(data.open.amountCents, data.currency),
                'reports.disputes.openText',
                {
                  amount: formatMoney(data.open.amountCents, data.currency),
                  count: String(data.open.count),
                },
              ],
              ['reports.disputes.overdue', String(data.overdue)],
              ['reports.disputes.dueSoon', String(data.dueSoon)],
            ]}
          />
        </CardContent>
      </Card>
      <ChartCard
        id="disputes-per-week"
        title={title}
        caption={`${dayText(data.from)} – ${dayText(data.to)}`}
        empty={opened ? null : translate('reports.disputes.none')}
        height={200}
        chart={
          <DisputeWeeksChart
            weeks={data.weeks}
            labels={labels}
            weekLabel={weekLabel}
            title={title}
            description={translate('reports.disputes.chartDescription')}
          />
        }
        table={
          <>
            <TableHead>
              <TableRow>
                <TableCell>{translate('reports.disputes.week')}</TableCell>
                {STATUSES.map((s) => (
                  <TableCell key={s} align="right">
                    {labels[s]}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {data.weeks.map((w) => (
                <TableRow key={w.week}>
                  <TableCell component="th" scope="row">
                    {dayText(w.week)}
                  </TableCell>
                  {STATUSES.map((s) => (
                    <TableCell key={s} align="right">
                      {w[s]}
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </>
        }
      />
    </Box>
  );
}
