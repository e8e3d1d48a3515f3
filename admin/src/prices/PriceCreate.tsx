import { Alert } from '@mui/material';
import {
  AutocompleteInput,
  Create,
  ReferenceInput,
  SelectInput,
  SimpleForm,
  TextInput,
  maxLength,
  maxValue,
  minValue,
  number,
  required,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { withoutEmpty } from '../common/withoutEmpty';
import { MoneyInput } from '../common/inputs';
import { CURRENCY_CHOICES } from '../common/money';

/** A membership's price is billed each month or year; a course's price has no interval. */
const INTERVAL_CHOICES = [
  { id: 'month', name: 'resources.prices.intervals.month' },
  { id: 'year', name: 'resources.prices.intervals.year' },
];

/** Back to the product's prices, where the new price now shows as the current one. */
const backToProduct = (_resource?: string, id?: unknown, data?: Partial<RaRecord>) =>
  data?.productId ? `/products/${String(data.productId)}/show/prices` : `/prices/${String(id)}/show`;

export function PriceCreate() {
  const translate = useTranslate();
  return (
    <Create
      redirect={backToProduct}
      transform={(data: RaRecord) => withoutEmpty(data)}
      title="resources.prices.newTitle"
    >
      <SimpleForm defaultValues={{ currency: 'usd' }}>
        <Alert severity="info" sx={{ mb: 2 }}>
          {translate('resources.prices.newNote')}
        </Alert>
        <ReferenceInput source="productId" reference="products">
          <AutocompleteInput label="resources.prices.fields.productId" validate={required()} />
        </ReferenceInput>
        <MoneyInput
          source="unitAmount"
          currencySource="currency"
          label="resources.prices.amountInput"
          validate={[required(), number(), minValue(0), maxValue(1_000_000)]}
          helperText="resources.prices.amountHelp"
        />
        <SelectInput source="currency" choices={CURRENCY_CHOICES} validate={required()} />
        <SelectInput
          source="billingInterval"
          choices={INTERVAL_CHOICES}
          emptyText="resources.prices.intervalDefault"
          helperText="resources.prices.intervalHelp"
        />
        <TextInput source="nickname" validate={maxLength(120)} helperText="resources.prices.nicknameHelp" />
      </SimpleForm>
    </Create>
  );
}
