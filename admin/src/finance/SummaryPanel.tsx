import { Alert, Box, Stack } from '@mui/material';
import { useTranslate } from 'react-admin';
import { problemOf } from '../common/ActionDialog';
import { FiguresFailed, FiguresLoading } from '../common/Figures';
import { FinanceTotals } from './FinanceTotals';
import { ProductRevenueCard } from './ProductRevenueCard';
import { RecipientRevenueCard } from './RecipientRevenueCard';
import { RevenueOverTimeCard } from './RevenueOverTimeCard';
import type { useFinanceSummary } from './useFinanceSummary';

type SummaryPanelProps = Pick<ReturnType<typeof useFinanceSummary>, 'settled' | 'query'> & {
  /** Both dates complete. */
  ready: boolean;
};

/** The period's figures: totals, then the ledger over time, per product and per recipient; or why there are none. */
export function SummaryPanel({ ready, settled, query }: SummaryPanelProps) {
  const translate = useTranslate();
  if (!ready) return <Alert severity="info">{translate('finance.page.pickPeriod')}</Alert>;
  if (settled && query.isError) {
    const { errors } = problemOf(query.error, '');
    return errors.from || errors.to ? (
      <Alert severity="warning">{translate('finance.page.datesRefused')}</Alert>
    ) : (
      <FiguresFailed error={query.error} onRetry={() => void query.refetch()} />
    );
  }
  const { data } = query;
  if (!data) return <FiguresLoading chartPair />;
  // The previous dates' figures stay, dimmed, until the new ones come.
  return (
    <Stack spacing={2} aria-busy={!settled} sx={{ opacity: settled ? 1 : 0.6, transition: 'opacity 150ms' }}>
      <FinanceTotals totals={data.totals} comps={data.comps} currency={data.currency} />
      <RevenueOverTimeCard data={data} />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', xl: '1fr 1fr' } }}>
        <ProductRevenueCard data={data} />
        <RecipientRevenueCard data={data} />
      </Box>
    </Stack>
  );
}
