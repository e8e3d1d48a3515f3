import { useState } from 'react';
import { Alert, Box, Card, CardContent, Stack, Typography } from '@mui/material';
import { Title, usePermissions, useTranslate } from 'react-admin';
import { problemOf } from '../common/ActionDialog';
import { canSeeFinance } from '../permissions';
import { ExportsPanel } from './ExportsPanel';
import { isComplete, presetPeriod } from './period';
import { PeriodPicker } from './PeriodPicker';
import { SummaryPanel } from './SummaryPanel';
import { useFinanceSummary } from './useFinanceSummary';

/** Finance and admins: the split ledger's figures for a period, as charts and tables, and the CSV exports. */
export default function FinancePage() {
  const translate = useTranslate();
  const { permissions, isPending } = usePermissions();
  const { period, changePeriod, settled, query } = useFinanceSummary(() => presetPeriod('this-month'));
  const [exportErrors, setExportErrors] = useState<Record<string, string>>({});
  const summaryErrors = settled && query.isError ? problemOf(query.error, '').errors : {};
  const ready = isComplete(period);
  const title = translate('finance.page.title');

  if (isPending) return null;
  if (!canSeeFinance(permissions)) {
    return (
      <Box sx={{ mt: 2 }}>
        <Title title={title} />
        <Alert severity="warning">{translate('finance.page.forbidden')}</Alert>
      </Box>
    );
  }
  return (
    <Box sx={{ mt: 2, mb: 4 }}>
      <Title title={title} />
      <Stack spacing={2}>
        <Card>
          <CardContent>
            <Typography variant="h5" component="h1" gutterBottom>
              {title}
            </Typography>
            <Typography color="text.secondary" sx={{ mb: 2 }}>
              {translate('finance.page.intro')}
            </Typography>
            <PeriodPicker
              period={period}
              onChange={(next) => {
                setExportErrors({});
                changePeriod(next);
              }}
              errors={{ ...summaryErrors, ...exportErrors }}
            />
          </CardContent>
        </Card>
        <SummaryPanel ready={ready} settled={settled} query={query} />
        <ExportsPanel period={period} ready={ready} onFieldErrors={setExportErrors} />
      </Stack>
    </Box>
  );
}
