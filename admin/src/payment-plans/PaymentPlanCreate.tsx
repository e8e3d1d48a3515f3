import { Alert } from '@mui/material';
import {
  AutocompleteInput,
  Create,
  NumberInput,
  ReferenceInput,
  SelectInput,
  SimpleForm,
  maxValue,
  minValue,
  number,
  required,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { MoneyInput } from '../common/inputs';
import { CURRENCY_CHOICES } from '../common/money';

/** Back to the product's prices, where the new plan now shows as the one offered. */
const backToProduct = (_resource?: string, id?: unknown, data?: Partial<RaRecord>) =>
  data?.productId ? `/products/${String(data.productId)}/show/prices` : `/payment-plans/${String(id)}/show`;

export function PaymentPlanCreate() {
  const translate = useTranslate();
  return (
    <Create redirect={backToProduct} title="resources.payment-plans.newTitle">
      <SimpleForm defaultValues={{ currency: 'usd', instalments: 3 }}>
        <Alert severity="info" sx={{ mb: 2 }}>
          {translate('resources.payment-plans.newNote')}
        </Alert>
        <ReferenceInput source="productId" reference="products">
          <AutocompleteInput label="resources.payment-plans.fields.productId" validate={required()} />
        </ReferenceInput>
        <NumberInput
          source="instalments"
          step={1}
          validate={[required(), number(), minValue(2), maxValue(24)]}
          helperText="resources.payment-plans.instalmentsHelp"
        />
        <MoneyInput
          source="instalmentAmount"
          currencySource="currency"
          label="resources.payment-plans.amountInput"
          validate={[required(), number(), minValue(0.01), maxValue(1_000_000)]}
          helperText="resources.payment-plans.amountHelp"
        />
        <SelectInput source="currency" choices={CURRENCY_CHOICES} validate={required()} />
      </SimpleForm>
    </Create>
  );
}
