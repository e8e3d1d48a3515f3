import { Alert } from '@mui/material';
import {
  AutocompleteInput,
  Create,
  ReferenceInput,
  SimpleForm,
  required,
  useTranslate,
  type RaRecord,
  type Validator,
} from 'react-admin';

const differsFromSource: Validator = (value, values: Record<string, unknown>) =>
  value && value === values.upgradableFromId ? 'resources.upgradable-products.mustDiffer' : undefined;

const backToProduct = (_resource?: string, id?: unknown, data?: Partial<RaRecord>) =>
  data?.upgradableFromId
    ? `/products/${String(data.upgradableFromId)}/show/upgrades`
    : `/upgradable-products/${String(id)}/show`;

export function UpgradableProductCreate() {
  const translate = useTranslate();
  return (
    <Create redirect={backToProduct} title="resources.upgradable-products.newTitle">
      <SimpleForm>
        <Alert severity="info" sx={{ mb: 2 }}>
          {translate('resources.upgradable-products.newNote')}
        </Alert>
        <ReferenceInput source="upgradableFromId" reference="products">
          <AutocompleteInput label="resources.upgradable-products.fields.upgradableFromId" validate={required()} />
        </ReferenceInput>
        <ReferenceInput source="upgradableToId" reference="products">
          <AutocompleteInput
            label="resources.upgradable-products.fields.upgradableToId"
            validate={[required(), differsFromSource]}
          />
        </ReferenceInput>
      </SimpleForm>
    </Create>
  );
}
