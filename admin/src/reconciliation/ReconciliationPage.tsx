import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  LinearProgress,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import type { BookRow, ProcessorRow, Tally } from '@contract/finance/reconciliation/schemas';
import type { Wire } from '@contract/shared/wire';
import { formatMoney } from '../../../api/src/shared/money';
import { ConsolePage } from '../common/ConsolePage';
import { PageLoading } from '../common/PageLoading';
import { retryUnanswered, type ConsoleDataProvider } from '../dataProvider';

const words = (name: string) => `reconciliation.${name}`;
const DAY_MS = 24 * 60 * 60 * 1000;
const day = (date: Date) => date.toISOString().slice(0, 10);

/** The period's counts and cents per currency, one block per state. */
function Summary({
  tallies,
}: {
  tallies: Record<'matched' | 'difference' | 'unmatchedAtProcessor' | 'unmatchedInBooks', Tally>;
}) {
  const translate = useTranslate();
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(10rem, 1fr))', gap: 2 }}>
      {(Object.keys(tallies) as (keyof typeof tallies)[]).map((state) => (
        <Card key={state} variant="outlined" data-testid={`tally-${state}`}>
          <CardContent>
            <Typography variant="body2" color="text.secondary">
              {translate(words(`summary.${state}`))}
            </Typography>
            <Typography variant="h6" component="p">
              {tallies[state].count}
            </Typography>
            {tallies[state].byCurrency.map((c) => (
              <Typography key={c.currency} variant="body2">
                {formatMoney(c.amount, c.currency)}
              </Typography>
            ))}
          </CardContent>
        </Card>
      ))}
    </Box>
  );
}

/** A processor transaction not matched to the cent: what each side says, why, and a recover button where it can be. */
function ExceptionRow({ row, onRecover, busy }: { row: Wire<ProcessorRow>; onRecover: () => void; busy: boolean }) {
  const translate = useTranslate();
  return (
    <Box
      component="li"
      data-testid="reconciliation-row"
      sx={{
        py: 1,
        borderBottom: 1,
        borderColor: 'divider',
        display: 'flex',
        flexWrap: 'wrap',
        gap: 1,
        alignItems: 'center',
      }}
    >
      <Box sx={{ flex: '1 1 16rem', minWidth: 0 }}>
        <Typography variant="subtitle2" component="p">
          {translate(words(`kinds.${row.kind}`), { _: row.kind })} ·{' '}
          <Box component="span" sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
            {row.sourceIdentifier ?? row.identifier}
          </Box>
        </Typography>
        <Typography variant="body2">
          {translate(words('row.processor'))}: {formatMoney(row.amount, row.currency)}
          {row.fee ? ` (${translate(words('row.fee'), { fee: formatMoney(row.fee, row.currency) })})` : ''}
          {row.book
            ? ` · ${translate(words('row.books'))}: ${formatMoney(row.book.amount, row.book.currency)}${
                row.book.fee
                  ? ` (${translate(words('row.fee'), { fee: formatMoney(row.book.fee, row.book.currency) })})`
                  : ''
              }`
            : ''}
        </Typography>
        <Typography variant="body2" color={row.book ? 'warning.main' : 'error.main'}>
          {translate(words(`reasons.${row.reason}`))}
        </Typography>
      </Box>
      {row.recoverable ? (
        <Button variant="outlined" size="small" onClick={onRecover} disabled={busy}>
          {translate(words('recover.button'))}
        </Button>
      ) : null}
    </Box>
  );
}

/** Each processor payout to the bank with its matches, what only the books hold, an import and recoveries (finance). */
export default function ReconciliationPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const client = useQueryClient();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [from, setFrom] = useState(() => day(new Date(Date.now() - 30 * DAY_MS)));
  const [to, setTo] = useState(() => day(new Date(Date.now() + DAY_MS)));
  const period = { from, to };
  const report = useQuery({
    queryKey: ['reconciliation', 'report', from, to],
    queryFn: ({ signal }) => dataProvider.getReconciliation(period, { signal }).then(({ data }) => data),
    retry: retryUnanswered,
  });
  const payouts = useQuery({
    queryKey: ['reconciliation', 'payouts', from, to],
    queryFn: ({ signal }) => dataProvider.getReconciliationPayouts(period, { signal }).then(({ data }) => data),
    retry: retryUnanswered,
  });
  const refresh = () => client.invalidateQueries({ queryKey: ['reconciliation'] });
  const importing = useMutation({
    mutationFn: () => dataProvider.importReconciliation(period),
    onSuccess: ({ data }) => {
      notify(translate(words('import.done'), data), { type: 'success' });
      return refresh();
    },
    onError: () => notify(translate(words('import.failure')), { type: 'error' }),
  });
  const recovering = useMutation({
    mutationFn: (id: string) => dataProvider.recoverReconciliation(id),
    onSuccess: () => {
      notify(translate(words('recover.done')), { type: 'success' });
      return refresh();
    },
    onError: (error: Error) =>
      notify(translate(words('recover.failure'), { message: error.message }), { type: 'error' }),
  });
  const data = report.data;
  const empty =
    data && payouts.data && payouts.data.length === 0 && data.unmatchedInBooks.count === 0 && data.matched.count === 0;
  return (
    <ConsolePage
      title={translate(words('title'))}
      intro={translate(words('intro'))}
      controls={
        <Stack spacing={1}>
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
            <TextField
              type="date"
              size="small"
              label={translate(words('from'))}
              value={from}
              onChange={(e) => setFrom(e.target.value)}
              slotProps={{ inputLabel: { shrink: true } }}
            />
            <TextField
              type="date"
              size="small"
              label={translate(words('to'))}
              value={to}
              onChange={(e) => setTo(e.target.value)}
              slotProps={{ inputLabel: { shrink: true } }}
            />
            <Button variant="contained" onClick={() => importing.mutate()} disabled={importing.isPending}>
              {translate(words(importing.isPending ? 'import.busy' : 'import.button'))}
            </Button>
          </Stack>
          {importing.isPending ? <LinearProgress aria-label={translate(words('import.busy'))} /> : null}
        </Stack>
      }
    >
      {report.isPending || payouts.isPending ? <PageLoading /> : null}
      {report.isError || payouts.isError ? <Alert severity="error">{translate(words('failure'))}</Alert> : null}
      {empty ? <Alert severity="info">{translate(words('empty'))}</Alert> : null}
      {data && !empty ? (
        <Summary
          tallies={{
            matched: data.matched,
            difference: data.difference,
            unmatchedAtProcessor: data.unmatchedAtProcessor,
            unmatchedInBooks: data.unmatchedInBooks,
          }}
        />
      ) : null}
      {payouts.data?.map((entry) => (
        <Card key={entry.id} data-testid="reconciliation-payout">
          <CardContent>
            <Typography variant="h6" component="h2" sx={{ overflowWrap: 'anywhere' }}>
              {entry.payout
                ? translate(words('payout.title'), { identifier: entry.payout.identifier })
                : translate(words('payout.notPaidOut'))}
            </Typography>
            {entry.payout ? (
              <Typography variant="body2" color="text.secondary">
                {formatMoney(entry.payout.amount, entry.payout.currency)}
                {entry.payout.arrivalOn
                  ? ` · ${translate(words('payout.arrival'), { date: entry.payout.arrivalOn.slice(0, 10) })}`
                  : ''}
              </Typography>
            ) : null}
            {entry.payout && entry.offBy !== 0 ? (
              <Typography variant="body2" color="error">
                {translate(words('payout.offBy'), {
                  expected: formatMoney(entry.expectedAmount, entry.payout.currency),
                  offBy: formatMoney(entry.offBy, entry.payout.currency),
                })}
              </Typography>
            ) : null}
            <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', my: 1 }}>
              <Chip size="small" color="success" label={`${translate(words('summary.matched'))}: ${entry.matched}`} />
              <Chip
                size="small"
                color={entry.differences ? 'warning' : 'default'}
                label={`${translate(words('summary.difference'))}: ${entry.differences}`}
              />
              <Chip
                size="small"
                color={entry.unmatchedAtProcessor ? 'error' : 'default'}
                label={`${translate(words('summary.unmatchedAtProcessor'))}: ${entry.unmatchedAtProcessor}`}
              />
            </Stack>
            {entry.rows.length === 0 ? (
              <Typography variant="body2">{translate(words('payout.allMatched'))}</Typography>
            ) : (
              <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }}>
                {entry.rows.map((row) => (
                  <ExceptionRow
                    key={row.id}
                    row={row}
                    busy={recovering.isPending}
                    onRecover={() => recovering.mutate(row.id)}
                  />
                ))}
              </Box>
            )}
          </CardContent>
        </Card>
      ))}
      {data && data.unmatchedInBooks.rows.length > 0 ? (
        <Card>
          <CardContent>
            <Typography variant="h6" component="h2">
              {translate(words('inBooks'))}
            </Typography>
            <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }}>
              {data.unmatchedInBooks.rows.map((row: Wire<BookRow>) => (
                <Box
                  component="li"
                  key={`${row.kind}-${row.id}`}
                  sx={{ py: 1, borderBottom: 1, borderColor: 'divider' }}
                >
                  <Typography variant="subtitle2" component="p" sx={{ overflowWrap: 'anywhere' }}>
                    {translate(words(`kinds.${row.kind}`), { _: row.kind })} · {row.identifier ?? row.id}
                  </Typography>
                  <Typography variant="body2">
                    {formatMoney(row.amount, row.currency)} · {translate(words(`reasons.${row.reason}`))}
                  </Typography>
                </Box>
              ))}
            </Box>
          </CardContent>
        </Card>
      ) : null}
    </ConsolePage>
  );
}
