import { useState } from 'react';
import { Box, Stack, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Choice, CurrencyChoice } from '../common/Choice';
import { FiguresFailed, FiguresLoading } from '../common/Figures';
import { RevenueCard } from './RevenueCard';
import { SalesTotals } from './SalesTotals';
import { SupportTotals } from './SupportTotals';
import { TopProductsCard } from './TopProductsCard';
import { useDashboard } from './useDashboard';

const PERIODS = [7, 30, 90] as const;

/**
 * Staff's figures for the last 7, 30 or 90 days. Finance and admins: totals, revenue per day and the top products, in
 * one currency (the one sold most, or the one chosen when the period has several); support (the API sends them no
 * finance figure): sales and refunds counted, disputes open, failed emails.
 */
export function SalesPanel() {
  const translate = useTranslate();
  const [days, setDays] = useState<number>(30);
  const [chosen, setChosen] = useState<string>();
  const { data, error, isError, isPlaceholderData, refetch } = useDashboard(days, chosen);
  // Amounts in two currencies do not add up: one at a time, switched between when the period has several.
  const currency = data?.view === 'finance' ? (chosen ?? data.currency) : undefined;
  return (
    <Stack spacing={2}>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap' }}>
        <Typography variant="h6" component="h2">
          {translate('finance.dashboard.sales')}
        </Typography>
        <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
          <Choice
            label={translate('finance.dashboard.period')}
            value={String(days)}
            options={PERIODS.map((n) => [String(n), translate('finance.dashboard.lastDays', { smart_count: n })])}
            onChange={(n) => setDays(Number(n))}
            width={180}
          />
          <CurrencyChoice
            label={translate('finance.dashboard.currency')}
            value={currency}
            currencies={data?.view === 'finance' ? [...data.currencies, data.currency] : []}
            onChange={setChosen}
          />
        </Box>
      </Box>
      {isError ? <FiguresFailed error={error} onRetry={() => void refetch()} /> : null}
      {!data && !isError ? <FiguresLoading /> : null}
      {data ? (
        <Stack spacing={2} aria-busy={isPlaceholderData} sx={{ opacity: isPlaceholderData ? 0.6 : 1 }}>
          {data.view === 'finance' ? (
            <>
              <SalesTotals totals={data.totals} currency={data.currency} />
              <RevenueCard data={data} />
              <TopProductsCard products={data.topProducts} currency={data.currency} />
            </>
          ) : (
            <>
              <SupportTotals totals={data.totals} />
              <TopProductsCard products={data.topProducts} />
            </>
          )}
        </Stack>
      ) : null}
    </Stack>
  );
}
