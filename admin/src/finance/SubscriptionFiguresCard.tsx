import { lazy } from 'react';
import { Box, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDataProvider, useTranslate } from 'react-admin';
import type { SubscriptionFiguresAnswer } from '@contract/finance/subscription-figures';
import type { Wire } from '@contract/shared/wire';
import { ChartCard, FiguresFailed, TotalsRow } from '../common/Figures';
import { formatMoney } from '../common/money';
import { retryUnanswered, type ConsoleDataProvider } from '../dataProvider';

export type SubscriptionFigures = Wire<SubscriptionFiguresAnswer>;

const SubscribersChart = lazy(() => import('./SubscriptionCharts').then((m) => ({ default: m.SubscribersChart })));
const MrrChart = lazy(() => import('./SubscriptionCharts').then((m) => ({ default: m.MrrChart })));

/**
 * Recurring revenue for the page's period: MRR in each currency, active subscribers, trials, churn and failed
 * payments (docs/domain.md §22), with subscribers and MRR drawn day by day: a chart for every currency billed.
 */
export function SubscriptionFiguresCard({ period }: { period: { from: string; to: string } }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const query = useQuery<SubscriptionFigures>({
    queryKey: ['finance', 'getSubscriptionFigures', period.from, period.to],
    queryFn: ({ signal }) => dataProvider.getSubscriptionFigures(period, { signal }).then(({ data }) => data),
    placeholderData: keepPreviousData,
    retry: retryUnanswered,
  });
  const t = (key: string, args?: Record<string, unknown>) => translate(`resources.subscriptions.figures.${key}`, args);
  if (query.isError) return <FiguresFailed error={query.error} onRetry={() => void query.refetch()} />;
  const figures = query.data;
  if (!figures) return null;
  const mrr = figures.mrr.length ? figures.mrr.map((m) => formatMoney(m.amount, m.currency)).join(' · ') : '—';
  const churn = figures.churnRate === null ? '—' : `${(figures.churnRate * 100).toFixed(1)}%`;
  // Every currency billed in the period, each drawn on its own axis: amounts in two currencies never share one.
  const currencies = [
    ...new Set([...figures.mrr.map((m) => m.currency), ...figures.days.flatMap((d) => Object.keys(d.mrr))]),
  ];
  const none = figures.days.some((d) => d.active || d.trials) ? null : t('none');
  return (
    <Box component="section" aria-labelledby="subscription-figures-title" sx={{ display: 'grid', gap: 2, mb: 2 }}>
      <Typography variant="h6" component="h2" id="subscription-figures-title">
        {t('title')}
      </Typography>
      <TotalsRow
        label="resources.subscriptions.figures.totals"
        figures={[
          ['resources.subscriptions.figures.mrr', mrr, 'resources.subscriptions.figures.mrrHint'],
          ['resources.subscriptions.figures.active', figures.activeSubscribers],
          ['resources.subscriptions.figures.trials', figures.trials],
          [
            'resources.subscriptions.figures.churn',
            churn,
            'resources.subscriptions.figures.churnHint',
            { churned: String(figures.churned), start: String(figures.activeAtStart) },
          ],
          ['resources.subscriptions.figures.failed', figures.failedPayments],
        ]}
      />
      <ChartCard
        id="subscribers-over-time"
        title={t('subscribersTitle')}
        caption={t('subscribersCaption', { active: figures.activeSubscribers, trials: figures.trials })}
        empty={none}
        chart={
          <SubscribersChart
            figures={figures}
            title={t('subscribersTitle')}
            description={t('subscribersCaption', { active: figures.activeSubscribers, trials: figures.trials })}
          />
        }
        table={
          none ? null : (
            <>
              <TableHead>
                <TableRow>
                  <TableCell>{t('day')}</TableCell>
                  <TableCell align="right">{t('active')}</TableCell>
                  <TableCell align="right">{t('trials')}</TableCell>
                  <TableCell align="right">{t('failed')}</TableCell>
                  <TableCell align="right">{t('mrr')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {figures.days.map((d) => (
                  <TableRow key={d.day}>
                    <TableCell component="th" scope="row">
                      {d.day}
                    </TableCell>
                    <TableCell align="right">{d.active}</TableCell>
                    <TableCell align="right">{d.trials}</TableCell>
                    <TableCell align="right">{d.failedPayments}</TableCell>
                    <TableCell align="right">
                      {Object.entries(d.mrr)
                        .map(([c, amount]) => formatMoney(amount, c))
                        .join(' · ') || '—'}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </>
          )
        }
      />
      {currencies.map((currency) => (
        <ChartCard
          key={currency}
          id={`mrr-over-time-${currency}`}
          title={t('mrrTitle', { currency: currency.toUpperCase() })}
          caption={t('mrrHint')}
          empty={null}
          chart={
            <MrrChart
              figures={figures}
              currency={currency}
              title={t('mrrTitle', { currency: currency.toUpperCase() })}
              description={t('mrrHint')}
            />
          }
          table={null}
        />
      ))}
    </Box>
  );
}
