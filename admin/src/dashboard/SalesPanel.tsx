import { useState } from 'react';
import { Box, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { FiguresFailed, FiguresLoading } from '../common/Figures';
import { RevenueCard } from './RevenueCard';
import { SalesTotals } from './SalesTotals';
import { SupportTotals } from './SupportTotals';
import { TopProductsCard } from './TopProductsCard';
import { useDashboard } from './useDashboard';

const PERIODS = [7, 30, 90] as const;

/**
 * Staff's figures for the last 7, 30 or 90 days. Finance and admins: totals, revenue per day and the top products;
 * support (the API sends them no finance figure): sales and refunds counted, disputes open, failed emails.
 */
export function SalesPanel() {
  const translate = useTranslate();
  const [days, setDays] = useState<number>(30);
  const { data, error, isError, isPlaceholderData, refetch } = useDashboard(days);
  return (
    <Stack spacing={2}>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap' }}>
        <Typography variant="h6" component="h2">
          {translate('finance.dashboard.sales')}
        </Typography>
        <TextField
          select
          size="small"
          fullWidth={false}
          label={translate('finance.dashboard.period')}
          value={days}
          onChange={(event) => setDays(Number(event.target.value))}
          sx={{ width: 180 }}
        >
          {PERIODS.map((n) => (
            <MenuItem key={n} value={n}>
              {translate('finance.dashboard.lastDays', { smart_count: n })}
            </MenuItem>
          ))}
        </TextField>
      </Box>
      {isError ? <FiguresFailed error={error} onRetry={() => void refetch()} /> : null}
      {!data && !isError ? <FiguresLoading /> : null}
      {data ? (
        <Stack spacing={2} aria-busy={isPlaceholderData} sx={{ opacity: isPlaceholderData ? 0.6 : 1 }}>
          {data.view === 'finance' ? (
            <>
              <SalesTotals totals={data.totals} />
              <RevenueCard data={data} />
            </>
          ) : (
            <SupportTotals totals={data.totals} />
          )}
          <TopProductsCard products={data.topProducts} />
        </Stack>
      ) : null}
    </Stack>
  );
}
