import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Stack,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import { Title, usePermissions, useTranslate } from 'react-admin';
import { problemOf } from '../common/ActionDialog';
import { CurrencyChoice } from '../common/Choice';
import { ConsolePage } from '../common/ConsolePage';
import { ExportProgress } from '../common/ExportProgress';
import { ChartCard, FiguresFailed, FiguresLoading, LinkedRowHead, TotalsRow } from '../common/Figures';
import { formatMoney } from '../common/money';
import { DEFAULT_CURRENCY } from '../../../api/src/shared/finance';
import { isComplete, presetPeriod, spanText, type Period } from '../finance/period';
import { PeriodPicker } from '../finance/PeriodPicker';
import { canSeeRefundsReport } from '../permissions';
import { RefundAmountChart } from './lazyCharts';
import { useRefundReport, type RefundReport } from './useRefundReport';
import { useRefundsCsv } from './useRefundsCsv';

const cents = (amount: number, currency: string) => formatMoney(amount, currency);

/** Count and amount cells of a row, right-aligned. */
function CountAmountCells({ row, currency }: { row: { count: number; amountCents: number }; currency: string }) {
  return (
    <>
      <TableCell align="right">{row.count}</TableCell>
      <TableCell align="right">{cents(row.amountCents, currency)}</TableCell>
    </>
  );
}

function CountAmountHeads({ first }: { first: string }) {
  const translate = useTranslate();
  return (
    <TableHead>
      <TableRow>
        <TableCell>{translate(first)}</TableCell>
        <TableCell align="right">{translate('reports.refunds.count')}</TableCell>
        <TableCell align="right">{translate('reports.refunds.amount')}</TableCell>
      </TableRow>
    </TableHead>
  );
}

/** The period's refunds by reason and by product: a bar chart each, with their figures as tables. */
function ReportFigures({ data }: { data: RefundReport }) {
  const translate = useTranslate();
  const span = spanText(data);
  const reasonName = (code: string | null) => translate(`reports.reasons.${code ?? 'notRecorded'}`);
  const reasons = data.byReason.map((r) => ({ ...r, name: reasonName(r.reason) }));
  const none = data.total.count === 0 ? translate('reports.refunds.none') : null;
  const byReason = translate('reports.refunds.byReason');
  const byProduct = translate('reports.refunds.byProduct');
  const seriesLabel = translate('reports.refunds.amount');
  return (
    <Stack spacing={2}>
      <TotalsRow
        figures={[
          ['reports.refunds.total', cents(data.total.amountCents, data.currency)],
          ['reports.refunds.count', data.total.count.toLocaleString('en-US')],
        ]}
      />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr' } }}>
        <ChartCard
          id="refunds-by-reason"
          title={byReason}
          caption={span}
          empty={none}
          chart={
            <RefundAmountChart
              rows={reasons}
              currency={data.currency}
              seriesLabel={seriesLabel}
              title={byReason}
              description={translate('reports.refunds.byReasonDescription')}
            />
          }
          table={
            none ? null : (
              <>
                <CountAmountHeads first="reports.refunds.reason" />
                <TableBody>
                  {reasons.map((r) => (
                    <TableRow key={r.reason ?? 'not-recorded'}>
                      <TableCell component="th" scope="row">
                        {r.name}
                      </TableCell>
                      <CountAmountCells row={r} currency={data.currency} />
                    </TableRow>
                  ))}
                </TableBody>
              </>
            )
          }
        />
        <ChartCard
          id="refunds-by-product"
          title={byProduct}
          caption={span}
          empty={none}
          chart={
            <RefundAmountChart
              rows={data.byProduct}
              currency={data.currency}
              seriesLabel={seriesLabel}
              title={byProduct}
              description={translate('reports.refunds.byProductDescription')}
            />
          }
          table={
            none ? null : (
              <>
                <CountAmountHeads first="reports.refunds.product" />
                <TableBody>
                  {data.byProduct.map((p) => (
                    <TableRow key={p.productId ?? 'none'}>
                      {p.productId ? (
                        <LinkedRowHead resource="products" id={p.productId}>
                          {p.name}
                        </LinkedRowHead>
                      ) : (
                        <TableCell component="th" scope="row">
                          {p.name}
                        </TableCell>
                      )}
                      <CountAmountCells row={p} currency={data.currency} />
                    </TableRow>
                  ))}
                </TableBody>
              </>
            )
          }
        />
      </Box>
    </Stack>
  );
}

/** The CSV of the period's refunds: a button, its progress while it streams, and how it ended. */
function RefundsExport({ period, onFieldErrors }: { period: Period; onFieldErrors(e: Record<string, string>): void }) {
  const translate = useTranslate();
  const { state, start, cancel } = useRefundsCsv(period, onFieldErrors);
  return (
    <Card variant="outlined" component="section" aria-labelledby="refunds-export-title">
      <CardContent>
        <Typography variant="h6" component="h2" id="refunds-export-title">
          {translate('reports.refunds.export')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {translate('reports.refunds.exportHelp')}
        </Typography>
        <Button
          variant="outlined"
          startIcon={<DownloadIcon />}
          disabled={!isComplete(period) || state.phase === 'running'}
          onClick={() => void start()}
        >
          {translate('reports.refunds.export')}
        </Button>
        {state.phase === 'running' ? (
          <ExportProgress
            rows={state.rows}
            total={state.total}
            what={translate('reports.refunds.title').toLowerCase()}
            onCancel={cancel}
          />
        ) : null}
        {state.phase === 'done' ? (
          <Alert severity="success" sx={{ mt: 2 }}>
            {translate('reports.refunds.exported', { filename: state.filename, rows: state.rows })}
          </Alert>
        ) : null}
        {state.phase === 'failed' ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {state.message}
          </Alert>
        ) : null}
      </CardContent>
    </Card>
  );
}

/** Support, finance and admins: the period's refunds by reason and product, as charts and tables, and their CSV. */
export default function RefundsReportPage() {
  const translate = useTranslate();
  const { permissions, isPending } = usePermissions();
  const { period, changePeriod, currency, setCurrency, settled, query } = useRefundReport(() =>
    presetPeriod('this-month'),
  );
  const [exportErrors, setExportErrors] = useState<Record<string, string>>({});
  const reportErrors = settled && query.isError ? problemOf(query.error, '').errors : {};
  const title = translate('reports.refunds.title');
  if (isPending) return null;
  if (!canSeeRefundsReport(permissions)) {
    return (
      <Box sx={{ mt: 2 }}>
        <Title title={title} />
        <Alert severity="warning">{translate('reports.refunds.forbidden')}</Alert>
      </Box>
    );
  }
  let figures;
  if (!isComplete(period)) figures = <Alert severity="info">{translate('finance.page.pickPeriod')}</Alert>;
  else if (settled && query.isError)
    figures =
      reportErrors.from || reportErrors.to ? (
        <Alert severity="warning">{translate('finance.page.datesRefused')}</Alert>
      ) : (
        <FiguresFailed error={query.error} onRetry={() => void query.refetch()} />
      );
  else if (!query.data) figures = <FiguresLoading />;
  else
    figures = (
      <Box aria-busy={!settled} sx={{ opacity: settled ? 1 : 0.6, transition: 'opacity 150ms' }}>
        <ReportFigures data={query.data} />
      </Box>
    );
  return (
    <ConsolePage
      title={title}
      intro={translate('reports.refunds.intro')}
      controls={
        <>
          <PeriodPicker
            period={period}
            onChange={(next) => {
              setExportErrors({});
              changePeriod(next);
            }}
            errors={{ ...reportErrors, ...exportErrors }}
          />
          <CurrencyChoice
            label={translate('reports.refunds.currency')}
            value={currency}
            currencies={[...(query.data?.currencies ?? []), DEFAULT_CURRENCY]}
            onChange={setCurrency}
            sx={{ mt: 1 }}
          />
        </>
      }
    >
      {figures}
      <RefundsExport period={period} onFieldErrors={setExportErrors} />
    </ConsolePage>
  );
}
