import AssuredWorkloadIcon from '@mui/icons-material/AssuredWorkload';
import { Alert } from '@mui/material';
import {
  AutocompleteInput,
  Create,
  DeleteButton,
  SimpleForm,
  TextField,
  TextInput,
  maxLength,
  required,
  useTranslate,
} from 'react-admin';
import { date } from '../common/columns';
import { RecordList } from '../common/RecordList';
import { COUNTRY_CHOICES } from '../school/TaxSettingsInputs';

export interface TaxRegistration {
  id: string;
  country: string;
  region: string | null;
}

export function TaxRegistrationList() {
  return (
    <RecordList icon={AssuredWorkloadIcon} sort={{ field: 'country', order: 'ASC' }}>
      <TextField source="country" />
      <TextField source="region" emptyText="resources.tax-registrations.wholeCountry" />
      {date('createdAt')}
      <DeleteButton
        mutationMode="pessimistic"
        confirmTitle="resources.tax-registrations.deleteTitle"
        confirmContent="resources.tax-registrations.deleteContent"
      />
    </RecordList>
  );
}

export function TaxRegistrationCreate() {
  const translate = useTranslate();
  return (
    <Create redirect="list">
      <SimpleForm>
        <Alert severity="info" sx={{ mb: 2 }}>
          {translate('resources.tax-registrations.createNote')}
        </Alert>
        <AutocompleteInput source="country" choices={COUNTRY_CHOICES} validate={required()} />
        <TextInput
          source="region"
          validate={maxLength(3)}
          helperText="resources.tax-registrations.regionHelp"
          parse={(value: string) => value.trim().toUpperCase() || null}
        />
      </SimpleForm>
    </Create>
  );
}
