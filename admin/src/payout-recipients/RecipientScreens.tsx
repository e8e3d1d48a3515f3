import AccountBalanceWalletIcon from '@mui/icons-material/AccountBalanceWallet';
import {
  Create,
  Edit,
  ReferenceInput,
  AutocompleteInput,
  SimpleForm,
  TextField,
  TextInput,
  required,
} from 'react-admin';
import { date, ref } from '../common/columns';
import { referenceFilter } from '../common/filters';
import { RecordList } from '../common/RecordList';
import { RecordShow } from '../common/RecordShow';

const filters = [referenceFilter('userId', 'users', { alwaysOn: true })];

const ACCOUNT_HELP = 'resources.payout-recipients.help.stripeAccountId';

/** Recipients paid through Stripe Connect; everyone else's payouts are paid by hand and marked paid. */
export function RecipientList() {
  return (
    <RecordList filters={filters} icon={AccountBalanceWalletIcon}>
      {ref('userId', 'users')}
      <TextField source="stripeAccountId" />
      {date('createdAt', { sortable: true })}
    </RecordList>
  );
}

export function RecipientShow() {
  return (
    <RecordShow>
      {ref('userId', 'users')}
      <TextField source="stripeAccountId" />
      {date('createdAt')}
      {date('updatedAt')}
      <TextField source="id" />
    </RecordShow>
  );
}

export function RecipientCreate() {
  return (
    <Create redirect="list">
      <SimpleForm>
        <ReferenceInput source="userId" reference="users">
          <AutocompleteInput validate={required()} />
        </ReferenceInput>
        <TextInput source="stripeAccountId" validate={required()} helperText={ACCOUNT_HELP} />
      </SimpleForm>
    </Create>
  );
}

export function RecipientEdit() {
  return (
    <Edit>
      <SimpleForm>
        <TextInput source="stripeAccountId" validate={required()} helperText={ACCOUNT_HELP} />
      </SimpleForm>
    </Edit>
  );
}
