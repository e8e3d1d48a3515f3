import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Confirm, useDataProvider, useNotify, useTranslate } from 'react-admin';
import { problemOf } from '../common/ActionDialog';
import { formatMoney } from '../common/money';
import type { ConsoleDataProvider } from '../dataProvider';
import type { PricingScenario } from './types';

const SCENARIOS = ['pricing-scenarios'];

/** A scenario's inputs in a few words: "typescript-pro · learner@example.com · IN, regional price · WELCOME10". */
function inputWords(s: PricingScenario, translate: ReturnType<typeof useTranslate>): string {
  const { input } = s;
  return [
    input.productKey,
    input.customerEmail ?? translate('console.pricing.guest'),
    input.country ? `${input.country}${input.ppp ? `, ${translate('console.pricing.regional')}` : ''}` : null,
    input.coupon,
    input.quantity > 1 || input.team ? translate('console.pricing.seatsWords', { smart_count: input.quantity }) : null,
    input.upgradeFromProductKey
      ? translate('console.pricing.upgradeWords', { from: input.upgradeFromProductKey })
      : null,
  ]
    .filter(Boolean)
    .join(' · ');
}

/** Changed, and what a buyer would see change ("Total: $1,791.00 → $2,241.00"), as the API words it. */
function ChangedState({ scenario }: { scenario: PricingScenario }) {
  const translate = useTranslate();
  const title = translate('console.pricing.changesTitle');
  return (
    <Stack spacing={0.5} sx={{ alignItems: 'flex-start', minWidth: '13rem' }}>
      <Chip size="small" color="warning" label={translate('console.pricing.state.changed')} />
      {scenario.changes.length > 0 && (
        <Box component="ul" aria-label={title} sx={{ m: 0, pl: 2, typography: 'body2', color: 'text.secondary' }}>
          {scenario.changes.map((c) => (
            <li key={c.what}>{translate('console.pricing.change', c)}</li>
          ))}
        </Box>
      )}
    </Stack>
  );
}

function StateChip({ scenario }: { scenario: PricingScenario }) {
  const translate = useTranslate();
  if (scenario.lastError) return <Chip size="small" color="error" label={translate('console.pricing.state.error')} />;
  if (scenario.lastMatches === false) return <ChangedState scenario={scenario} />;
  if (scenario.lastMatches)
    return <Chip size="small" color="success" label={translate('console.pricing.state.same')} />;
  return <Chip size="small" label={translate('console.pricing.state.notRun')} variant="outlined" />;
}

/**
 * The saved scenarios: each one's expected and latest answer (and what changed for a buyer), Run all, and per scenario
 * Run, Accept and Delete (asked first).
 */
export function ScenarioTable() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: SCENARIOS,
    queryFn: () =>
      dataProvider
        .getList<PricingScenario>('pricing-scenarios', {
          pagination: { page: 1, perPage: 500 },
          sort: { field: 'createdAt', order: 'ASC' },
          filter: {},
        })
        .then((answer) => answer.data),
  });
  const reload = () => queryClient.invalidateQueries({ queryKey: SCENARIOS });
  const failed = (e: unknown) =>
    notify(problemOf(e, translate('console.pricing.actionFailed')).message, { type: 'error' });
  const runAll = useMutation({
    mutationFn: () => dataProvider.runAllPricingScenarios(),
    onSuccess: ({ data }) => {
      notify(
        data.changed.length
          ? translate('console.pricing.ranChanged', { smart_count: data.ran, changed: data.changed.length })
          : translate('console.pricing.ranSame', { smart_count: data.ran }),
        { type: data.changed.length ? 'warning' : 'success' },
      );
      return reload();
    },
    onError: failed,
  });
  const act = useMutation({
    mutationFn: async ({ id, action }: { id: string; action: 'run' | 'accept' }) => {
      if (action === 'run') await dataProvider.runPricingScenario(id);
      else await dataProvider.acceptPricingScenario(id);
    },
    onSuccess: reload,
    onError: failed,
  });
  // Deleting drops the expected answer for good: asked first, naming the scenario.
  const [deleting, setDeleting] = useState<PricingScenario | null>(null);
  const remove = useMutation({
    mutationFn: (scenario: PricingScenario) => dataProvider.delete('pricing-scenarios', { id: scenario.id }),
    onSuccess: (_, scenario) => {
      setDeleting(null);
      notify(translate('console.pricing.deleted', { name: scenario.name }), { type: 'success' });
      return reload();
    },
    onError: (e) => {
      setDeleting(null);
      failed(e);
    },
  });
  const title = translate('console.pricing.scenarios');
  const scenarios = list.data ?? [];
  return (
    <Card component="section" aria-labelledby="scenarios-title">
      <CardContent>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 1 }}>
          <Typography variant="h6" component="h2" id="scenarios-title">
            {title}
          </Typography>
          <Button
            variant="contained"
            size="small"
            onClick={() => runAll.mutate()}
            disabled={runAll.isPending || scenarios.length === 0}
          >
            {runAll.isPending ? translate('console.pricing.running') : translate('console.pricing.runAll')}
          </Button>
        </Stack>
        {list.isError ? (
          <Alert severity="error">{translate('console.pricing.listFailed')}</Alert>
        ) : scenarios.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {list.isPending ? translate('console.pricing.loading') : translate('console.pricing.noScenarios')}
          </Typography>
        ) : (
          <Box sx={{ overflowX: 'auto' }}>
            <Table size="small" aria-label={title}>
              <TableHead>
                <TableRow>
                  <TableCell>{translate('console.pricing.columns.name')}</TableCell>
                  <TableCell>{translate('console.pricing.columns.input')}</TableCell>
                  <TableCell align="right">{translate('console.pricing.columns.expected')}</TableCell>
                  <TableCell align="right">{translate('console.pricing.columns.latest')}</TableCell>
                  <TableCell>{translate('console.pricing.columns.state')}</TableCell>
                  <TableCell>{translate('console.pricing.columns.actions')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {scenarios.map((s) => (
                  <TableRow key={s.id} data-scenario={s.name}>
                    <TableCell component="th" scope="row">
                      {s.name}
                    </TableCell>
                    <TableCell>{inputWords(s, translate)}</TableCell>
                    <TableCell align="right">{formatMoney(s.expected.quote.finalPrice, s.expected.currency)}</TableCell>
                    <TableCell align="right">
                      {s.lastError ??
                        (s.lastActual ? formatMoney(s.lastActual.quote.finalPrice, s.lastActual.currency) : '—')}
                    </TableCell>
                    <TableCell>
                      <StateChip scenario={s} />
                    </TableCell>
                    <TableCell>
                      <Stack direction="row" useFlexGap sx={{ flexWrap: 'wrap', gap: 0.5 }}>
                        <Button
                          size="small"
                          onClick={() => act.mutate({ id: s.id, action: 'run' })}
                          disabled={act.isPending}
                        >
                          {translate('console.pricing.run')}
                        </Button>
                        {s.lastMatches === false && !s.lastError && (
                          <Button
                            size="small"
                            color="warning"
                            onClick={() => act.mutate({ id: s.id, action: 'accept' })}
                            disabled={act.isPending}
                          >
                            {translate('console.pricing.accept')}
                          </Button>
                        )}
                        <Button
                          size="small"
                          color="error"
                          onClick={() => setDeleting(s)}
                          disabled={act.isPending || remove.isPending}
                          aria-label={translate('console.pricing.deleteNamed', { name: s.name })}
                        >
                          {translate('console.pricing.delete')}
                        </Button>
                      </Stack>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
        )}
        <Confirm
          isOpen={deleting !== null}
          loading={remove.isPending}
          title={translate('console.pricing.deleteTitle', { name: deleting?.name ?? '' })}
          content={translate('console.pricing.deleteContent')}
          confirm={translate('console.pricing.delete')}
          confirmColor="warning"
          onConfirm={() => deleting && remove.mutate(deleting)}
          onClose={() => setDeleting(null)}
        />
      </CardContent>
    </Card>
  );
}
