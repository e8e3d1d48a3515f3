import { useState } from 'react';
import { Alert, Box } from '@mui/material';
import { Title, usePermissions, useTranslate } from 'react-admin';
import { problemOf } from '../common/ActionDialog';
import { CurrencyChoice } from '../common/Choice';
import { ConsolePage } from '../common/ConsolePage';
import { canSeeFinance } from '../permissions';
import { ExportsPanel } from './ExportsPanel';
import { isComplete, presetPeriod } from './period';
import { PeriodPicker } from './PeriodPicker';
import { SubscriptionFiguresCard } from './SubscriptionFiguresCard';
import { SummaryPanel } from './SummaryPanel';
import { TaxCard } from './TaxCard';
import { useFinanceSummary } from './useFinanceSummary';

/**
 * Finance and admins: the split ledger's figures for a period, as charts and tables, the tax collected, and the CSV
 * exports (the tax report for filing among them).
 */
export default function FinancePage() {
  const translate = useTranslate();
  const { permissions, isPending } = usePermissions();
  const { period, changePeriod, currency, setCurrency, settled, query } = useFinanceSummary(() =>
    presetPeriod('this-month'),
  );
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
    <ConsolePage
      title={title}
      intro={translate('finance.page.intro')}
      controls={
        <>
          <PeriodPicker
            period={period}
            onChange={(next) => {
              setExportErrors({});
              changePeriod(next);
            }}
            errors={{ ...summaryErrors, ...exportErrors }}
          />
          <CurrencyChoice
            label={translate('finance.page.currency')}
            value={currency ?? query.data?.currency}
            currencies={[...(query.data?.currencies ?? []), query.data?.currency]}
            onChange={setCurrency}
            sx={{ mt: 1 }}
          />
        </>
      }
    >
      <SummaryPanel ready={ready} settled={settled} query={query} />
      {/* Dates the summary refused are shown on their fields; the membership figures wait for good ones. */}
      {ready && !(settled && query.isError) ? <SubscriptionFiguresCard period={period} /> : null}
      {ready ? <TaxCard period={period} currency={currency} /> : null}
      <ExportsPanel period={period} ready={ready} onFieldErrors={setExportErrors} />
    </ConsolePage>
  );
}
