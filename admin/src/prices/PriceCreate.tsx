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
  type RaRecord,
} from 'react-admin';
import { withoutEmpty } from '../common/withoutEmpty';
import { MoneyInput } from '../common/inputs';
import { CURRENCY_CHOICES } from '../common/money';

/** Back to the product's prices, where the new price now shows as the current one. */
const backToProduct = (_resource?: string, id?: unknown, data?: Partial<RaRecord>) =>
  data?.productId ? `/products/${String(data.productId)}/show/prices` : `/prices/${String(id)}/show`;

export function PriceCreate() {
  return (
    <Create redirect={backToProduct} transform={(data: RaRecord) => withoutEmpty(data)} title="New price">
      <SimpleForm defaultValues={{ currency: 'usd' }}>
        <Alert severity="info" sx={{ mb: 2 }}>
          The new price becomes the product's current price at once. The current one is archived and kept for history;
          purchases keep what they paid.
        </Alert>
        <ReferenceInput source="productId" reference="products">
          <AutocompleteInput label="Product" validate={required()} />
        </ReferenceInput>
        <MoneyInput
          source="unitAmount"
          label="Amount (in dollars)"
          validate={[required(), number(), minValue(0), maxValue(1_000_000)]}
          helperText="In the currency's main unit, e.g. 49.00; stored in cents."
        />
        <SelectInput source="currency" choices={CURRENCY_CHOICES} validate={required()} />
        <TextInput source="nickname" validate={maxLength(120)} helperText="Optional, e.g. Launch price." />
      </SimpleForm>
    </Create>
  );
}
