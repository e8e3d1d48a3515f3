import { Suspense, lazy, useCallback, useEffect, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Link as MuiLink,
  MenuItem,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { Link, Title, useCreatePath, useGetIdentity, usePermissions } from 'react-admin';
import { fetchDashboard, type DashboardSummary } from './common/api';
import { ChartFallback, Figure, FiguresTable } from './common/Figures';
import { formatMoney } from './common/money';
import { isStaff, rolesOf } from './permissions';
import { roleLabel } from './users/choices';

// The chart library is loaded only when the dashboard has figures to draw.
const RevenueChart = lazy(() => import('./common/RevenueChart'));

const PERIODS = [7, 30, 90] as const;

type Load = { state: 'loading' } | { state: 'error'; message: string } | { state: 'done'; data: DashboardSummary };

function useDashboard(days: number) {
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let current = true;
    setLoad({ state: 'loading' });
    fetchDashboard(days).then(
      (data) => current && setLoad({ state: 'done', data }),
      (error: unknown) =>
        current &&
        setLoad({
          state: 'error',
          message: error instanceof Error && error.message ? error.message : 'The figures could not be loaded.',
        }),
    );
    return () => {
      current = false;
    };
  }, [days, attempt]);
  return { load, retry: useCallback(() => setAttempt((n) => n + 1), []) };
}

const dayText = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });

/** Revenue per day, the figures behind the chart. */
function RevenueTable({ data }: { data: DashboardSummary }) {
  return (
    <FiguresTable title={`Revenue per day, last ${data.days} days`}>
      <TableHead>
        <TableRow>
          <TableCell>Day (UTC)</TableCell>
          <TableCell align="right">Gross</TableCell>
          <TableCell align="right">Refunded</TableCell>
          <TableCell align="right">Purchases</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {data.revenueByDay.map((d) => (
          <TableRow key={d.day}>
            <TableCell component="th" scope="row">
              {dayText(d.day)}
            </TableCell>
            <TableCell align="right">{formatMoney(d.gross)}</TableCell>
            <TableCell align="right">{formatMoney(d.refunded)}</TableCell>
            <TableCell align="right">{d.purchases}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </FiguresTable>
  );
}

function TopProducts({ data }: { data: DashboardSummary }) {
  const createPath = useCreatePath();
  if (!data.topProducts.length) {
    return (
      <Typography variant="body2" color="text.secondary">
        No product sold in this period.
      </Typography>
    );
  }
  return (
    <Table size="small" aria-label="Top products">
      <TableHead>
        <TableRow>
          <TableCell>Product</TableCell>
          <TableCell align="right">Purchases</TableCell>
          <TableCell align="right">Revenue</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {data.topProducts.map((p) => (
          <TableRow key={p.productId}>
            <TableCell component="th" scope="row">
              <MuiLink component={Link} to={createPath({ resource: 'products', id: p.productId, type: 'show' })}>
                {p.name}
              </MuiLink>
            </TableCell>
            <TableCell align="right">{p.purchases}</TableCell>
            <TableCell align="right">{formatMoney(p.revenue)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function SalesFigures() {
  const [days, setDays] = useState<number>(30);
  const { load, retry } = useDashboard(days);
  const chartTitle = `Revenue per day, last ${days} days`;

  return (
    <Stack spacing={2}>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap' }}>
        <Typography variant="h6" component="h2">
          Sales
        </Typography>
        <TextField
          select
          size="small"
          fullWidth={false}
          label="Period"
          value={days}
          onChange={(event) => setDays(Number(event.target.value))}
          sx={{ width: 180 }}
        >
          {PERIODS.map((n) => (
            <MenuItem key={n} value={n}>
              Last {n} days
            </MenuItem>
          ))}
        </TextField>
      </Box>

      {load.state === 'error' ? (
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
      ) : null}

      {load.state === 'loading' ? (
        <Box aria-busy="true" aria-label="Loading the figures" role="status">
          <Stack direction="row" spacing={2} sx={{ mb: 2 }}>
            {[0, 1, 2, 3].map((n) => (
              <Skeleton key={n} variant="rounded" height={96} sx={{ flex: 1 }} />
            ))}
          </Stack>
          <Skeleton variant="rounded" height={300} />
        </Box>
      ) : null}

      {load.state === 'done' ? <Figures data={load.data} chartTitle={chartTitle} /> : null}
    </Stack>
  );
}

function Figures({ data, chartTitle }: { data: DashboardSummary; chartTitle: string }) {
  const { totals } = data;
  const hasRevenue = data.revenueByDay.some((d) => d.gross > 0 || d.refunded > 0);
  const description = `Since ${data.since}: ${formatMoney(totals.gross)} gross, ${formatMoney(totals.refunded)} refunded, ${formatMoney(totals.net)} net, from ${totals.purchases} purchases.`;
  return (
    <>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }} component="section" aria-label="Totals">
        <Figure label="Revenue" value={formatMoney(totals.gross)} hint="Gross charged" />
        <Figure
          label="Net revenue"
          value={formatMoney(totals.net)}
          hint={`After ${formatMoney(totals.refunded)} refunded`}
        />
        <Figure label="Purchases" value={totals.purchases} />
        <Figure label="Refunds" value={totals.refunds} hint="Purchases refunded in full" />
        <Figure label="Active learners" value={totals.activeLearners} hint="With lesson progress" />
      </Box>

      <Card variant="outlined">
        <CardContent>
          <Box
            component="figure"
            aria-labelledby="revenue-chart-title"
            aria-describedby="revenue-chart-summary"
            sx={{ m: 0 }}
          >
            <Typography variant="subtitle1" component="h3" id="revenue-chart-title">
              {chartTitle}
            </Typography>
            <Typography variant="body2" color="text.secondary" component="figcaption" id="revenue-chart-summary">
              Gross charged and refunded per day (UTC). {description}
            </Typography>
            {hasRevenue ? (
              <Suspense fallback={<ChartFallback height={300} />}>
                <RevenueChart days={data.revenueByDay} title={chartTitle} description={description} />
              </Suspense>
            ) : (
              <Typography sx={{ py: 6, textAlign: 'center' }} color="text.secondary">
                No revenue in this period yet. Paid checkouts appear here the day they are charged.
              </Typography>
            )}
          </Box>
          <RevenueTable data={data} />
        </CardContent>
      </Card>

      <Card variant="outlined" component="section" aria-labelledby="top-products-title">
        <CardContent>
          <Typography variant="subtitle1" component="h3" id="top-products-title" gutterBottom>
            Top products
          </Typography>
          <TopProducts data={data} />
        </CardContent>
      </Card>
    </>
  );
}

/** The landing page: sales figures for staff; for anyone else, what the account can and cannot do here. */
export function Dashboard() {
  const { identity } = useGetIdentity();
  const { permissions, isPending } = usePermissions();
  const roles = rolesOf(permissions);
  const staff = isStaff(permissions);
  return (
    <Box sx={{ mt: 2 }}>
      <Title title="Console" />
      <Card>
        <CardContent>
          <Stack spacing={2}>
            <Typography variant="h5" component="h1">
              Welcome{identity?.fullName ? `, ${identity.fullName}` : ''}
            </Typography>
            <Typography color="text.secondary">
              Roles: {roles.length ? roles.map(roleLabel).join(', ') : 'none'}.
            </Typography>
            {isPending ? null : staff ? (
              <SalesFigures />
            ) : roles.includes('contributor') ? (
              <Typography>Your courses and lessons are in the menu, under Learning.</Typography>
            ) : (
              <Alert severity="warning">
                This account has no staff role (admin, support or finance), so the console has nothing to show. Ask an
                administrator for access, or sign out from the account menu.
              </Alert>
            )}
          </Stack>
        </CardContent>
      </Card>
    </Box>
  );
}
