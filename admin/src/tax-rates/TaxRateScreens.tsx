import PercentIcon from '@mui/icons-material/Percent';
import { InputAdornment } from '@mui/material';
import {
  AutocompleteInput,
  Create,
  Edit,
  FunctionField,
  SimpleForm,
  TextField,
  TextInput,
  maxLength,
  required,
  type Validator,
} from 'react-admin';
import { date, text } from '../common/columns';
import { searchFilter } from '../common/filters';
import { RecordList } from '../common/RecordList';
import { SaveAndDeleteToolbar } from '../common/SaveAndDeleteToolbar';
import { COUNTRY_CHOICES } from '../school/TaxSettingsInputs';
import { bpToPercent, percentToBp } from './rate';
import type { TaxRate } from './types';

/** The rate as typed stays text until it is a percentage with at most three decimals; then basis points. */
const parseRate = (value: string) => (value === '' ? null : (percentToBp(value) ?? value));
const formatRate = (value: unknown) => (typeof value === 'number' ? bpToPercent(value) : ((value as string) ?? ''));
const aRate: Validator = (value) =>
  typeof value === 'string'
    ? 'resources.tax-rates.rateFormat'
    : value > 5000
      ? 'resources.tax-rates.rateRange'
      : undefined;

const filters = [
  <AutocompleteInput key="country" source="country" choices={COUNTRY_CHOICES} alwaysOn />,
  searchFilter('resources.tax-rates.search'),
];

export function TaxRateList() {
  return (
    // Read as one table (a country's regions together): a page holds every rate of the reference data.
    <RecordList filters={filters} icon={PercentIcon} sort={{ field: 'country', order: 'ASC' }} perPage={100}>
      <TextField source="country" />
      <TextField source="region" emptyText="—" />
      <FunctionField<TaxRate> source="rateBp" render={(rate) => `${bpToPercent(rate.rateBp)} %`} />
      {text('name')}
      {date('updatedAt')}
    </RecordList>
  );
}

/** The rate, typed as a percentage; the place only when the rate is new (a new place is a new rate). */
function TaxRateInputs({ isNew }: { isNew: boolean }) {
  return (
    <>
      {isNew ? (
        <>
          <AutocompleteInput source="country" choices={COUNTRY_CHOICES} validate={required()} />
          <TextInput
            source="region"
            validate={maxLength(3)}
            helperText="resources.tax-rates.regionHelp"
            parse={(value: string) => value.trim().toUpperCase() || null}
          />
        </>
      ) : null}
      <TextInput
        source="rateBp"
        label="resources.tax-rates.ratePercent"
        validate={[required(), aRate]}
        parse={parseRate}
        format={formatRate}
        helperText="resources.tax-rates.rateHelp"
        slotProps={{ input: { endAdornment: <InputAdornment position="end">%</InputAdornment> } }}
      />
      <TextInput source="name" validate={[required(), maxLength(30)]} helperText="resources.tax-rates.nameHelp" />
    </>
  );
}

export function TaxRateCreate() {
  return (
    <Create redirect="list">
      <SimpleForm defaultValues={{ name: 'VAT' }}>
        <TaxRateInputs isNew />
      </SimpleForm>
    </Create>
  );
}

export function TaxRateEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect="list">
      <SimpleForm
        toolbar={
          <SaveAndDeleteToolbar
            confirmTitle="resources.tax-rates.deleteTitle"
            confirmContent="resources.tax-rates.deleteContent"
          />
        }
      >
        <TextField source="country" />
        <TextField source="region" emptyText="—" />
        <TaxRateInputs isNew={false} />
      </SimpleForm>
    </Edit>
  );
}
