import { Alert } from '@mui/material';
import {
  AutocompleteInput,
  FormDataConsumer,
  ReferenceInput,
  SelectInput,
  number,
  required,
  type RaRecord,
  type Validator,
} from 'react-admin';
import { PercentInput } from '../common/inputs';
import { isPlatformSplit, SPLIT_TYPE_CHOICES } from './choices';

const atMostOne: Validator = (value) =>
  value === null || value === undefined || value === ''
    ? undefined
    : Number(value) < 0 || Number(value) > 1
      ? 'Between 0 % and 100 %.'
      : undefined;

/** Platform splits have no user; owner and contributor splits need one. */
export function toSplitWrite(data: RaRecord): RaRecord {
  return isPlatformSplit(data.type) ? { ...data, userId: null } : data;
}

export const backToProductSplits = (_resource?: string, id?: unknown, data?: Partial<RaRecord>) =>
  data?.productId ? `/products/${String(data.productId)}/show/splits` : `/product-revenue-splits/${String(id)}/show`;

function RecipientInput() {
  return (
    <FormDataConsumer<{ type?: string }>>
      {({ formData }) =>
        isPlatformSplit(formData.type) ? (
          <Alert severity="info" sx={{ mb: 2 }}>
            The platform share has no recipient: it is taken from the gross first.
          </Alert>
        ) : (
          <ReferenceInput source="userId" reference="users">
            <AutocompleteInput
              label="Recipient"
              validate={required('Owner and contributor splits need a recipient.')}
            />
          </ReferenceInput>
        )
      }
    </FormDataConsumer>
  );
}

/** The writable fields of a split. The API refuses a product total over 100 % with an error on the share. */
export function SplitFields({ productFixed }: { productFixed: boolean }) {
  return (
    <>
      <ReferenceInput source="productId" reference="products">
        <AutocompleteInput label="Product" validate={required()} readOnly={productFixed} />
      </ReferenceInput>
      <SelectInput source="type" choices={SPLIT_TYPE_CHOICES} validate={required()} />
      <RecipientInput />
      <PercentInput
        source="percent"
        label="Share (%)"
        validate={[required(), number(), atMostOne]}
        helperText="Up to two decimals, e.g. 12.5. A product's splits total at most 100 %."
      />
    </>
  );
}
