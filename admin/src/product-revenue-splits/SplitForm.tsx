import { Alert } from '@mui/material';
import {
  AutocompleteInput,
  FormDataConsumer,
  ReferenceInput,
  SelectInput,
  number,
  required,
  type RaRecord,
  useTranslate,
  type Validator,
} from 'react-admin';
import { PercentInput } from '../common/inputs';
import { isPlatformSplit, SPLIT_TYPE_CHOICES } from './choices';

const atMostOne: Validator = (value) =>
  value === null || value === undefined || value === ''
    ? undefined
    : Number(value) < 0 || Number(value) > 1
      ? 'resources.product-revenue-splits.shareRange'
      : undefined;

/** Platform splits have no user; owner and contributor splits need one. */
export function toSplitWrite(data: RaRecord): RaRecord {
  return isPlatformSplit(data.type) ? { ...data, userId: null } : data;
}

export const backToProductSplits = (_resource?: string, id?: unknown, data?: Partial<RaRecord>) =>
  data?.productId ? `/products/${String(data.productId)}/show/splits` : `/product-revenue-splits/${String(id)}/show`;

function RecipientInput() {
  const translate = useTranslate();
  return (
    <FormDataConsumer<{ type?: string }>>
      {({ formData }) =>
        isPlatformSplit(formData.type) ? (
          <Alert severity="info" sx={{ mb: 2 }}>
            {translate('resources.product-revenue-splits.platformNote')}
          </Alert>
        ) : (
          <ReferenceInput source="userId" reference="users">
            <AutocompleteInput
              label="resources.product-revenue-splits.fields.userId"
              validate={required('resources.product-revenue-splits.recipientRequired')}
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
        <AutocompleteInput
          label="resources.product-revenue-splits.fields.productId"
          validate={required()}
          readOnly={productFixed}
        />
      </ReferenceInput>
      <SelectInput source="type" choices={SPLIT_TYPE_CHOICES} validate={required()} />
      <RecipientInput />
      <PercentInput
        source="percent"
        label="resources.product-revenue-splits.shareInput"
        validate={[required(), number(), atMostOne]}
        helperText="resources.product-revenue-splits.shareHelp"
      />
    </>
  );
}
