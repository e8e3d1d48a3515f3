import { Alert } from '@mui/material';
import {
  AutocompleteInput,
  Create,
  ReferenceInput,
  SimpleForm,
  required,
  type RaRecord,
  type Validator,
} from 'react-admin';

const differsFromSource: Validator = (value, values: Record<string, unknown>) =>
  value && value === values.upgradableFromId ? 'Must differ from the product upgraded from.' : undefined;

const backToProduct = (_resource?: string, id?: unknown, data?: Partial<RaRecord>) =>
  data?.upgradableFromId
    ? `/products/${String(data.upgradableFromId)}/show/upgrades`
    : `/upgradable-products/${String(id)}/show`;

export function UpgradableProductCreate() {
  return (
    <Create redirect={backToProduct} title="New upgrade path">
      <SimpleForm>
        <Alert severity="info" sx={{ mb: 2 }}>
          Owners of the first product who buy the second get what they actually paid for the first as credit.
        </Alert>
        <ReferenceInput source="upgradableFromId" reference="products">
          <AutocompleteInput label="Upgrade from" validate={required()} />
        </ReferenceInput>
        <ReferenceInput source="upgradableToId" reference="products">
          <AutocompleteInput label="Upgrade to" validate={[required(), differsFromSource]} />
        </ReferenceInput>
      </SimpleForm>
    </Create>
  );
}
