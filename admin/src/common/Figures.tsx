import { Suspense, type ReactNode } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  Link as MuiLink,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableRow,
  Typography,
} from '@mui/material';
import { Link, useCreatePath, useTranslate } from 'react-admin';
import { problemOf } from './ActionDialog';

// The building blocks of the dashboard's and the Finance page's figures: totals, charts with their tables, states.

/** One headline figure in a card, with what it counts below it. */
function Figure({ label, value, hint }: { label: string; value: ReactNode; hint?: string }) {
  return (
    <Card variant="outlined" sx={{ flex: '1 1 160px' }}>
      <CardContent>
        <Typography variant="body2" color="text.secondary" component="h3">
          {label}
        </Typography>
        <Typography variant="h5" component="p" sx={{ fontVariantNumeric: 'tabular-nums' }}>
          {value}
        </Typography>
        {hint ? (
          <Typography variant="caption" color="text.secondary">
            {hint}
          </Typography>
        ) : null}
      </CardContent>
    </Card>
  );
}

/** A headline figure: its label's key, its value, and the key (and values) of what it counts, if that needs saying. */
type TotalFigure = [label: string, value: ReactNode, hint?: string, hintValues?: Record<string, string>];

/** The row of headline figures, a region named "Totals". */
export function TotalsRow({ figures, label = 'finance.figures.totals' }: { figures: TotalFigure[]; label?: string }) {
  const translate = useTranslate();
  // Each row of totals is its own landmark, so two on one page need different names.
  return (
    <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }} component="section" aria-label={translate(label)}>
      {figures.map(([label, value, hint, hintValues]) => (
        <Figure key={label} label={translate(label)} value={value} hint={hint && translate(hint, hintValues)} />
      ))}
    </Box>
  );
}

/** What stands in a chart's place while the chart library loads: the chart's height, so the page does not jump. */
function ChartFallback({ height }: { height: number }) {
  const translate = useTranslate();
  return (
    <Box
      sx={{ height, display: 'flex', alignItems: 'center', justifyContent: 'center' }}
      role="status"
      aria-label={translate('finance.figures.loadingChart')}
    >
      <CircularProgress size={28} />
    </Box>
  );
}

/** The chart's figures as a table, folded: the accessible (and exact) reading of the chart. */
function FiguresTable({ title, children }: { title: string; children: ReactNode }) {
  const translate = useTranslate();
  return (
    <Box component="details" sx={{ mt: 1 }}>
      <Box component="summary" sx={{ cursor: 'pointer', typography: 'body2', color: 'primary.main', py: 0.5 }}>
        {translate('finance.figures.showTable')}
      </Box>
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small" aria-label={title}>
          {children}
        </Table>
      </Box>
    </Box>
  );
}

interface ChartCardProps {
  /** Prefix of the heading's and the caption's ids. */
  id: string;
  title: string;
  caption: string;
  /** What shows instead of the chart when there is nothing to draw. */
  empty: string | null;
  /** A lazily loaded chart: its height while the library loads. */
  height?: number;
  chart: ReactNode;
  /** The table's head, body and footer; none, no table. */
  table: ReactNode;
}

/** A chart as a captioned figure, with its empty state and the same figures as a folded table. */
export function ChartCard({ id, title, caption, empty, height = 260, chart, table }: ChartCardProps) {
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
            <Suspense fallback={<ChartFallback height={height} />}>{chart}</Suspense>
          )}
        </Box>
        {table ? <FiguresTable title={title}>{table}</FiguresTable> : null}
      </CardContent>
    </Card>
  );
}

/** A table row's heading cell that links to the record's page: a product, a user. */
export function LinkedRowHead({ resource, id, children }: { resource: string; id: string; children: ReactNode }) {
  const createPath = useCreatePath();
  return (
    <TableCell component="th" scope="row">
      <MuiLink component={Link} to={createPath({ resource, id, type: 'show' })}>
        {children}
      </MuiLink>
    </TableCell>
  );
}

/** A table body of products, each row headed by a link to the product's page. */
export function ProductRows<P extends { productId: string; name: string }>({
  products,
  cells,
}: {
  products: P[];
  cells(product: P): ReactNode;
}) {
  return (
    <TableBody>
      {products.map((p) => (
        <TableRow key={p.productId}>
          <LinkedRowHead resource="products" id={p.productId}>
            {p.name}
          </LinkedRowHead>
          {cells(p)}
        </TableRow>
      ))}
    </TableBody>
  );
}

/** The page's shape while its first figures load: four totals, a wide chart and, on request, two side by side. */
export function FiguresLoading({ chartPair = false }: { chartPair?: boolean }) {
  const translate = useTranslate();
  return (
    <Box aria-busy="true" aria-label={translate('finance.figures.loading')} role="status">
      <Stack direction="row" spacing={2} sx={{ mb: 2 }}>
        {[0, 1, 2, 3].map((n) => (
          <Skeleton key={n} variant="rounded" height={96} sx={{ flex: 1 }} />
        ))}
      </Stack>
      <Skeleton variant="rounded" height={300} sx={chartPair ? { mb: 2 } : undefined} />
      {chartPair ? (
        <Stack direction="row" spacing={2}>
          <Skeleton variant="rounded" height={260} sx={{ flex: 1 }} />
          <Skeleton variant="rounded" height={260} sx={{ flex: 1 }} />
        </Stack>
      ) : null}
    </Box>
  );
}

/** The figures' query failed: the API's message, and Try again. */
export function FiguresFailed({ error, onRetry }: { error: unknown; onRetry(): void }) {
  const translate = useTranslate();
  const { message } = problemOf(error, translate('finance.figures.failedUnknown'));
  return (
    <Alert
      severity="error"
      action={
        <Button color="inherit" size="small" onClick={onRetry}>
          {translate('finance.figures.retry')}
        </Button>
      }
    >
      {translate('finance.figures.failed', { message })}
    </Alert>
  );
}
