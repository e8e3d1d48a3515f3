import { Suspense, lazy, useCallback, useEffect, useState, type ReactNode } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Link as MuiLink,
  Skeleton,
  Stack,
  TableBody,
  TableCell,
  TableFooter,
  TableHead,
  TableRow,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { Link, Title, useCreatePath, usePermissions } from 'react-admin';
import { problemOf } from '../common/ActionDialog';
import { ChartFallback, Figure, FiguresTable } from '../common/Figures';
import { formatMoney, formatPercent } from '../common/money';
import { canSeeFinance } from '../permissions';
import {
  fetchFinanceSummary,
  recipientLabel,
  recipientTypeLabel,
  type FinanceSummary,
  type LedgerAmounts,
} from './api';
import { ExportsPanel } from './ExportsPanel';
import {
  PRESETS,
  bucketFor,
  bucketLabel,
  bucketStart,
  dayText,
  isDay,
  matchingPreset,
  presetPeriod,
  type Bucket,
  type Period,
  type PresetId,
} from './period';

// The chart library loads only when there are figures to draw (one chunk for the three charts, shared with the dashboard's).
const RevenueOverTimeChart = lazy(() => import('./FinanceCharts').then((m) => ({ default: m.RevenueOverTimeChart })));
const ProductRevenueChart = lazy(() => import('./FinanceCharts').then((m) => ({ default: m.ProductRevenueChart })));
const RecipientShareChart = lazy(() => import('./FinanceCharts').then((m) => ({ default: m.RecipientShareChart })));

const DEFAULT_PRESET: PresetId = 'this-month';

type Load =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'error'; message: string; errors: Record<string, string> }
  | { state: 'done'; data: FinanceSummary };

/** The summary of a period, fetched once the dates settle (typing a date changes it several times). */
function useFinanceSummary(period: Period | null) {
  const [load, setLoad] = useState<Load>({ state: period ? 'loading' : 'idle' });
  const [attempt, setAttempt] = useState(0);
  const from = period?.from;
  const to = period?.to;
  useEffect(() => {
    if (!from || !to) {
      setLoad({ state: 'idle' });
      return;
    }
    const controller = new AbortController();
    setLoad({ state: 'loading' });
    const timer = window.setTimeout(() => {
      fetchFinanceSummary({ from, to }, controller.signal).then(
        (data) => !controller.signal.aborted && setLoad({ state: 'done', data }),
        (error: unknown) => {
          if (controller.signal.aborted) return;
          const { message, errors } = problemOf(error, 'The figures could not be loaded.');
          setLoad({ state: 'error', message, errors });
        },
      );
    }, 250);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [from, to, attempt]);
  return { load, retry: useCallback(() => setAttempt((n) => n + 1), []) };
}

/** "must not be after "to"" → "Must not be after "to"". */
const sentence = (text: string | undefined) => (text ? text.charAt(0).toUpperCase() + text.slice(1) : undefined);

function PeriodPicker({
  period,
  onChange,
  errors,
}: {
  period: Period;
  onChange(period: Period): void;
  errors: Record<string, string | undefined>;
}) {
  const preset = matchingPreset(period);
  const dateInput = (field: 'from' | 'to', label: string) => {
    const incomplete = !isDay(period[field]);
    const error = incomplete ? 'Enter a complete date.' : sentence(errors[field]);
    return (
      <TextField
        type="date"
        size="small"
        label={label}
        value={period[field]}
        onChange={(event) => onChange({ ...period, [field]: event.target.value })}
        error={Boolean(error)}
        helperText={error ?? ' '}
        slotProps={{
          inputLabel: { shrink: true },
          htmlInput: {
            max: field === 'from' ? period.to || undefined : undefined,
            min: field === 'to' ? period.from || undefined : undefined,
          },
        }}
        sx={{ width: 180 }}
      />
    );
  };
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}>
      <Typography component="legend" variant="subtitle2" sx={{ mb: 1 }}>
        Period (UTC days, both included)
      </Typography>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'flex-start' }}>
        <ToggleButtonGroup
          exclusive
          size="small"
          color="primary"
          value={preset}
          onChange={(_event, id: PresetId | null) => id && onChange(presetPeriod(id))}
          aria-label="Period presets"
          sx={{ flexWrap: 'wrap' }}
        >
          {PRESETS.map((p) => (
            <ToggleButton key={p.id} value={p.id} sx={{ textTransform: 'none', px: 1.5 }}>
              {p.label}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        {dateInput('from', 'From')}
        {dateInput('to', 'To')}
      </Box>
    </Box>
  );
}

interface ChartCardProps {
  id: string;
  title: string;
  caption: string;
  empty: string | null;
  chart: ReactNode;
  table: ReactNode;
}

/** A chart as a captioned figure, with its empty state and its table. */
function ChartCard({ id, title, caption, empty, chart, table }: ChartCardProps) {
  return (
    <Card variant="outlined" sx={{ minWidth: 0 }}>
      <CardContent>
        <Box component="figure" aria-labelledby={`${id}-title`} aria-describedby={`${id}-caption`} sx={{ m: 0 }}>
          <Typography variant="subtitle1" component="h3" id={`${id}-title`}>
            {title}
          </Typography>
          <Typography variant="body2" color="text.secondary" component="figcaption" id={`${id}-caption`}>
            {caption}
          </Typography>
          {empty ? (
            <Typography sx={{ py: 6, textAlign: 'center' }} color="text.secondary">
              {empty}
            </Typography>
          ) : (
            <Suspense fallback={<ChartFallback height={260} />}>{chart}</Suspense>
          )}
        </Box>
        {empty ? null : <FiguresTable title={title}>{table}</FiguresTable>}
      </CardContent>
    </Card>
  );
}

const money = (cents: number) => formatMoney(cents);

function AmountHeads() {
  return (
    <>
      <TableCell align="right">Net sales</TableCell>
      <TableCell align="right">Refunds</TableCell>
      <TableCell align="right">Disputes</TableCell>
      <TableCell align="right">Total</TableCell>
    </>
  );
}

function AmountCells({ row }: { row: LedgerAmounts }) {
  return (
    <>
      <TableCell align="right">{money(row.sales)}</TableCell>
      <TableCell align="right">{money(row.refunds)}</TableCell>
      <TableCell align="right">{money(row.disputes)}</TableCell>
      <TableCell align="right">{money(row.total)}</TableCell>
    </>
  );
}

function TotalRow({ totals, span = 1, extra }: { totals: LedgerAmounts; span?: number; extra?: ReactNode }) {
  return (
    <TableFooter sx={{ '& td, & th': { color: 'text.primary', fontWeight: 600, fontSize: '0.875rem' } }}>
      <TableRow>
        <TableCell component="th" scope="row" colSpan={span}>
          Total
        </TableCell>
        <AmountCells row={totals} />
        {extra}
      </TableRow>
    </TableFooter>
  );
}

/** The days summed per bucket (a year of daily bars would be too thin to read). */
function overTime(days: FinanceSummary['days'], bucket: Bucket): (LedgerAmounts & { start: string })[] {
  const points = new Map<string, LedgerAmounts & { start: string }>();
  for (const d of days) {
    const start = bucketStart(d.day, bucket);
    const point = points.get(start) ?? { start, sales: 0, refunds: 0, disputes: 0, total: 0 };
    point.sales += d.sales;
    point.refunds += d.refunds;
    point.disputes += d.disputes;
    point.total += d.total;
    points.set(start, point);
  }
  return [...points.values()];
}

const BUCKET_TITLES: Record<Bucket, { title: string; head: string }> = {
  day: { title: 'Revenue per day', head: 'Day (UTC)' },
  week: { title: 'Revenue per week', head: 'Week (from Monday, UTC)' },
  month: { title: 'Revenue per month', head: 'Month (UTC)' },
};

const hasMoney = (row: LedgerAmounts) => row.sales !== 0 || row.refunds !== 0 || row.disputes !== 0;
const NOTHING = 'No sales, refunds or disputes in this period.';

function Charts({ data }: { data: FinanceSummary }) {
  const createPath = useCreatePath();
  const { totals } = data;
  const span = `${dayText(data.from)} – ${dayText(data.to)}`;
  const anything = data.days.some(hasMoney);
  const bucket = bucketFor(data.days.length);
  const points = overTime(data.days, bucket);
  const { title: timeTitle, head: timeHead } = BUCKET_TITLES[bucket];
  const positive = data.recipients.filter((r) => r.total > 0);
  const share = (total: number) => (totals.total > 0 ? formatPercent(total / totals.total) : '—');
  const topProduct = data.products[0];
  const topRecipient = data.recipients[0];

  return (
    <>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }} component="section" aria-label="Totals">
        <Figure label="Net sales" value={money(totals.sales)} hint="After provider fees" />
        <Figure label="Refunds" value={money(totals.refunds)} />
        <Figure label="Disputes" value={money(totals.disputes)} hint="Lost, less those won back" />
        <Figure label="Total" value={money(totals.total)} hint="What the recipients share" />
      </Box>

      <ChartCard
        id="finance-over-time"
        title={timeTitle}
        caption={`${span} (UTC): ${money(totals.sales)} net sales, ${money(totals.refunds)} refunds, ${money(totals.disputes)} disputes, ${money(totals.total)} in total. Sales above the line, refunds and disputes below.`}
        empty={anything ? null : NOTHING}
        chart={
          <RevenueOverTimeChart
            points={points}
            bucket={bucket}
            title={timeTitle}
            description={`Net sales, refunds and disputes per ${bucket}, ${span}.`}
          />
        }
        table={
          <>
            <TableHead>
              <TableRow>
                <TableCell>{timeHead}</TableCell>
                <AmountHeads />
              </TableRow>
            </TableHead>
            <TableBody>
              {points.map((p) => (
                <TableRow key={p.start}>
                  <TableCell component="th" scope="row">
                    {bucketLabel(p.start, bucket)}
                  </TableCell>
                  <AmountCells row={p} />
                </TableRow>
              ))}
            </TableBody>
            <TotalRow totals={totals} />
          </>
        }
      />

      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', xl: '1fr 1fr' } }}>
        <ChartCard
          id="finance-products"
          title="Revenue per product"
          caption={
            topProduct
              ? `${data.products.length} ${data.products.length === 1 ? 'product' : 'products'}; the most: ${topProduct.name}, ${money(topProduct.total)} in total.`
              : span
          }
          empty={data.products.length ? null : NOTHING}
          chart={
            <ProductRevenueChart
              summary={data}
              title="Revenue per product"
              description={`Net sales, refunds and disputes per product, ${span}.`}
            />
          }
          table={
            <>
              <TableHead>
                <TableRow>
                  <TableCell>Product</TableCell>
                  <AmountHeads />
                </TableRow>
              </TableHead>
              <TableBody>
                {data.products.map((p) => (
                  <TableRow key={p.productId}>
                    <TableCell component="th" scope="row">
                      <MuiLink
                        component={Link}
                        to={createPath({ resource: 'products', id: p.productId, type: 'show' })}
                      >
                        {p.name}
                      </MuiLink>
                    </TableCell>
                    <AmountCells row={p} />
                  </TableRow>
                ))}
              </TableBody>
            </>
          }
        />

        <ChartCard
          id="finance-recipients"
          title="Revenue per recipient"
          caption={
            topRecipient
              ? `Each recipient's share of the ${money(totals.total)} total; the largest: ${recipientLabel(topRecipient)}, ${share(topRecipient.total)}.` +
                (positive.length < data.recipients.length
                  ? ' Recipients below zero for the period are only in the table.'
                  : '')
              : span
          }
          empty={
            positive.length
              ? null
              : data.recipients.length
                ? 'No recipient ends this period above zero: see the table.'
                : NOTHING
          }
          chart={
            <RecipientShareChart
              summary={data}
              title="Revenue per recipient"
              description={`Each recipient's share of the total, ${span}.`}
            />
          }
          table={
            <>
              <TableHead>
                <TableRow>
                  <TableCell>Recipient</TableCell>
                  <TableCell>Type</TableCell>
                  <AmountHeads />
                  <TableCell align="right">Share</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {data.recipients.map((r) => (
                  <TableRow key={`${r.type}-${r.userId ?? 'platform'}`}>
                    <TableCell component="th" scope="row">
                      {r.userId ? (
                        <MuiLink component={Link} to={createPath({ resource: 'users', id: r.userId, type: 'show' })}>
                          {r.name || r.email || r.userId}
                        </MuiLink>
                      ) : (
                        'Platform'
                      )}
                    </TableCell>
                    <TableCell>{recipientTypeLabel(r.type)}</TableCell>
                    <AmountCells row={r} />
                    <TableCell align="right">{share(r.total)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
              <TotalRow
                totals={totals}
                span={2}
                extra={<TableCell align="right">{totals.total > 0 ? '100%' : '—'}</TableCell>}
              />
            </>
          }
        />
      </Box>
    </>
  );
}

function Loading() {
  return (
    <Box aria-busy="true" aria-label="Loading the figures" role="status">
      <Stack direction="row" spacing={2} sx={{ mb: 2 }}>
        {[0, 1, 2, 3].map((n) => (
          <Skeleton key={n} variant="rounded" height={96} sx={{ flex: 1 }} />
        ))}
      </Stack>
      <Skeleton variant="rounded" height={300} sx={{ mb: 2 }} />
      <Stack direction="row" spacing={2}>
        <Skeleton variant="rounded" height={260} sx={{ flex: 1 }} />
        <Skeleton variant="rounded" height={260} sx={{ flex: 1 }} />
      </Stack>
    </Box>
  );
}

function Summary({ load, retry }: ReturnType<typeof useFinanceSummary>) {
  if (load.state === 'idle') return <Alert severity="info">Pick a period to see its figures.</Alert>;
  if (load.state === 'loading') return <Loading />;
  if (load.state === 'error') {
    const aboutDates = Boolean(load.errors.from || load.errors.to);
    return aboutDates ? (
      <Alert severity="warning">No figures for these dates: see the date inputs above.</Alert>
    ) : (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={retry}>
            Try again
          </Button>
        }
      >
        The figures could not be loaded: {load.message}
      </Alert>
    );
  }
  return <Charts data={load.data} />;
}

/** Finance and admins: the split ledger's figures for a period, as charts and tables, and the CSV exports. */
export default function FinancePage() {
  const { permissions, isPending } = usePermissions();
  const [period, setPeriod] = useState<Period>(() => presetPeriod(DEFAULT_PRESET));
  const [exportErrors, setExportErrors] = useState<Record<string, string>>({});
  const ready = isDay(period.from) && isDay(period.to);
  const summary = useFinanceSummary(ready ? period : null);
  const summaryErrors = summary.load.state === 'error' ? summary.load.errors : {};

  const changePeriod = (next: Period) => {
    setExportErrors({});
    setPeriod(next);
  };

  if (isPending) return null;
  if (!canSeeFinance(permissions)) {
    return (
      <Box sx={{ mt: 2 }}>
        <Title title="Finance" />
        <Alert severity="warning">The Finance page is for finance and admins.</Alert>
      </Box>
    );
  }
  return (
    <Box sx={{ mt: 2, mb: 4 }}>
      <Title title="Finance" />
      <Stack spacing={2}>
        <Card>
          <CardContent>
            <Typography variant="h5" component="h1" gutterBottom>
              Finance
            </Typography>
            <Typography color="text.secondary" sx={{ mb: 2 }}>
              Revenue as the split ledger records it: each sale net of the provider’s fee, refunds and disputes as
              negative lines, shared among the platform, owners and contributors.
            </Typography>
            <PeriodPicker period={period} onChange={changePeriod} errors={{ ...summaryErrors, ...exportErrors }} />
          </CardContent>
        </Card>
        <Summary {...summary} />
        <ExportsPanel period={period} ready={ready} onFieldErrors={setExportErrors} />
      </Stack>
    </Box>
  );
}
