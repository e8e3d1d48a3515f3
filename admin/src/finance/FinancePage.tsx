import { useState } from 'react';
import { Alert, Box } from '@mui/material';
import { Title, usePermissions, useTranslate } from 'react-admin';
import { problemOf } from '../common/ActionDialog';
import { Choice, currencyOptions } from '../common/Choice';
import { ConsolePage } from '../common/ConsolePage';
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
  const { period, changePeriod, currency, setCurrency, settled, query } = useFinanceSummary(() =>
    presetPeriod('this-month'),
  );
  const [exportErrors, setExportErrors] = useState<Record<string, string>>({});
  const summaryErrors = settled && query.isError ? problemOf(query.error, '').errors : {};
  const ready = isComplete(period);
  const title = translate('finance.page.title');
  // Amounts in two currencies do not add up: one at a time, switched between when the ledger has several.
  const shown = currency ?? query.data?.currency;
  const currencies = currencyOptions(query.data?.currencies ?? [], query.data?.currency, currency);

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
          {shown && currencies.length > 1 ? (
            <Box sx={{ mt: 1 }}>
              <Choice
                label={translate('finance.page.currency')}
                value={shown}
                options={currencies}
                onChange={setCurrency}
                width={140}
              />
            </Box>
          ) : null}
        </>
      }
    >
      <SummaryPanel ready={ready} settled={settled} query={query} />
      <ExportsPanel period={period} ready={ready} onFieldErrors={setExportErrors} />
    </ConsolePage>
  );
}
