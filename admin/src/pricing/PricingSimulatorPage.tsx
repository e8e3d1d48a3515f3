import { useState } from 'react';
import { Alert, Box, Button, Card, CardContent, TextField as MuiTextField, Typography } from '@mui/material';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  AutocompleteInput,
  BooleanInput,
  Form,
  FormDataConsumer,
  NumberInput,
  ReferenceInput,
  SaveButton,
  TextInput,
  useDataProvider,
  useNotify,
  useTranslate,
} from 'react-admin';
import { problemOf } from '../common/ActionDialog';
import { ConsolePage } from '../common/ConsolePage';
import type { ConsoleDataProvider } from '../dataProvider';
import { QuoteBreakdown } from './QuoteBreakdown';
import { RecurringPricingCard } from './RecurringPricingCard';
import { ScenarioTable } from './ScenarioTable';
import { simulatorQuery, type SimulationAnswer, type SimulatorInputs } from './types';

/** Only the chosen customer's individual purchases can be upgraded from. */
function UpgradeFromInput() {
  return (
    <FormDataConsumer<SimulatorInputs>>
      {({ formData }) =>
        formData.userId ? (
          <ReferenceInput source="upgradeFrom" reference="purchases" filter={{ userId: formData.userId }}>
            <AutocompleteInput label="console.pricing.fields.upgradeFrom" helperText="console.pricing.upgradeHelp" />
          </ReferenceInput>
        ) : null
      }
    </FormDataConsumer>
  );
}

/** Saves the simulation shown as a scenario, its answer the expected one. */
function SaveScenario({ query, onSaved }: { query: Record<string, string>; onSaved(): void }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () => dataProvider.savePricingScenario(name, query),
    onSuccess: () => {
      notify('console.pricing.saved', { type: 'success', messageArgs: { name } });
      setName('');
      setError(null);
      onSaved();
    },
    onError: (e) => setError(problemOf(e, translate('console.pricing.saveFailed')).message),
  });
  return (
    <Box
      component="form"
      onSubmit={(event) => {
        event.preventDefault();
        if (!name.trim()) return setError(translate('console.pricing.nameRequired'));
        save.mutate();
      }}
      sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', mt: 2, flexWrap: 'wrap' }}
    >
      <MuiTextField
        label={translate('console.pricing.scenarioName')}
        value={name}
        onChange={(event) => setName(event.target.value)}
        error={Boolean(error)}
        helperText={error ?? translate('console.pricing.scenarioHelp')}
        size="small"
        sx={{ minWidth: 320 }}
        slotProps={{ htmlInput: { maxLength: 200 } }}
      />
      <Button type="submit" variant="outlined" disabled={save.isPending}>
        {translate('console.pricing.save')}
      </Button>
    </Box>
  );
}

/**
 * The pricing simulator (support, finance and admins): choose a product, country, regional price, coupon, seats
 * and a customer, and see the exact quote the storefront would give them, line by line, with why other discounts
 * did not apply and what the purchase grants. Below, the saved scenarios, re-run in one click.
 */
export default function PricingSimulatorPage() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const queryClient = useQueryClient();
  const [query, setQuery] = useState<Record<string, string> | null>(null);
  const simulation = useQuery<SimulationAnswer>({
    queryKey: ['pricing-simulate', query],
    queryFn: ({ signal }) => dataProvider.simulatePricing(query!, { signal }).then((answer) => answer.data),
    enabled: query !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
  const title = translate('console.pricing.title');
  return (
    <ConsolePage
      title={title}
      intro={translate('console.pricing.intro')}
      controls={
        <Form
          onSubmit={(values: Record<string, unknown>) => setQuery(simulatorQuery(values as unknown as SimulatorInputs))}
          defaultValues={{ quantity: 1, ppp: false, team: false }}
        >
          <Box
            sx={{
              display: 'grid',
              gridTemplateColumns: { xs: '1fr', md: 'repeat(3, minmax(0, 1fr))' },
              columnGap: 2,
            }}
          >
            <ReferenceInput source="productId" reference="products">
              <AutocompleteInput
                label="console.pricing.fields.productId"
                validate={(v: unknown) => (v ? undefined : 'console.pricing.productRequired')}
              />
            </ReferenceInput>
            <TextInput
              source="country"
              label="console.pricing.fields.country"
              helperText="console.pricing.countryHelp"
              validate={(v: unknown) =>
                !v || /^[A-Za-z]{2}$/.test(String(v)) ? undefined : 'console.pricing.countryShape'
              }
            />
            <TextInput source="coupon" label="console.pricing.fields.coupon" helperText={false} />
            <NumberInput
              source="quantity"
              label="console.pricing.fields.quantity"
              min={1}
              max={100}
              step={1}
              helperText={false}
            />
            <BooleanInput source="team" label="console.pricing.fields.team" helperText={false} />
            <BooleanInput source="ppp" label="console.pricing.fields.ppp" helperText={false} />
            <ReferenceInput source="userId" reference="users">
              <AutocompleteInput label="console.pricing.fields.userId" helperText="console.pricing.userHelp" />
            </ReferenceInput>
            <UpgradeFromInput />
          </Box>
          <SaveButton label="console.pricing.simulate" icon={<></>} alwaysEnable />
        </Form>
      }
    >
      {query && (
        <Card>
          <CardContent aria-busy={simulation.isFetching}>
            {simulation.isError ? (
              <>
                <Alert severity="error">
                  {problemOf(simulation.error, translate('console.pricing.failed')).message}
                </Alert>
                {query.productId ? <RecurringPricingCard query={query} /> : null}
              </>
            ) : simulation.data ? (
              <>
                <QuoteBreakdown simulation={simulation.data} />
                <RecurringPricingCard query={query} />
                <SaveScenario
                  query={query}
                  onSaved={() => queryClient.invalidateQueries({ queryKey: ['pricing-scenarios'] })}
                />
              </>
            ) : (
              <Typography role="status">{translate('console.pricing.pricing')}</Typography>
            )}
          </CardContent>
        </Card>
      )}
      <ScenarioTable />
    </ConsolePage>
  );
}
