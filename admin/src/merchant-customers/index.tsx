import ContactPageIcon from '@mui/icons-material/ContactPage';
import {
  AutocompleteInput,
  Datagrid,
  DateField,
  Labeled,
  List,
  Pagination,
  ReferenceField,
  ReferenceInput,
  ReferenceManyField,
  Show,
  SimpleShowLayout,
  TextField,
} from 'react-admin';
import { EmptyState, NoneFound } from '../common/EmptyState';
import { MerchantStatusEdit, merchantFilters, MERCHANT_NOTE } from '../common/MerchantRecord';
import { MoneyField } from '../common/MoneyField';
import { ACTIVE_INACTIVE, StatusChipField } from '../common/StatusChipField';

const filters = merchantFilters(
  <ReferenceInput key="userId" source="userId" reference="users" alwaysOn>
    <AutocompleteInput label="User" />
  </ReferenceInput>,
);

function MerchantCustomerList() {
  return (
    <List
      filters={filters}
      exporter={false}
      sort={{ field: 'createdAt', order: 'DESC' }}
      empty={
        <EmptyState icon={ContactPageIcon} title="No provider customers yet">
          A buyer becomes a customer at the payment provider with their first paid checkout. {MERCHANT_NOTE}
        </EmptyState>
      }
    >
      <Datagrid
        rowClick="show"
        bulkActionButtons={false}
        empty={<NoneFound>No customer matches these filters.</NoneFound>}
      >
        <ReferenceField source="userId" reference="users" link="show" sortable={false} />
        <ReferenceField source="merchantAccountId" reference="merchant-accounts" link="show" sortable={false} />
        <TextField source="identifier" sortable={false} />
        <StatusChipField source="status" looks={ACTIVE_INACTIVE} />
        <DateField source="createdAt" showTime />
      </Datagrid>
    </List>
  );
}

function MerchantCustomerShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <ReferenceField source="userId" reference="users" link="show" />
        <ReferenceField source="merchantAccountId" reference="merchant-accounts" link="show" />
        <TextField source="identifier" />
        <StatusChipField source="status" looks={ACTIVE_INACTIVE} />
        <DateField source="createdAt" showTime />
        <ReferenceManyField
          label="Charges"
          reference="merchant-charges"
          target="merchantCustomerId"
          sort={{ field: 'createdAt', order: 'DESC' }}
          pagination={<Pagination />}
        >
          <Datagrid rowClick="show" bulkActionButtons={false} empty={<NoneFound>No charges.</NoneFound>}>
            <DateField source="createdAt" showTime />
            <MoneyField source="amount" />
            <MoneyField source="refundAmount" />
            <TextField source="identifier" sortable={false} />
          </Datagrid>
        </ReferenceManyField>
        <TextField source="id" />
      </SimpleShowLayout>
    </Show>
  );
}

function MerchantCustomerEdit() {
  return (
    <MerchantStatusEdit>
      <Labeled>
        <ReferenceField source="userId" reference="users" link="show" />
      </Labeled>
    </MerchantStatusEdit>
  );
}

export default {
  list: MerchantCustomerList,
  show: MerchantCustomerShow,
  edit: MerchantCustomerEdit,
  icon: ContactPageIcon,
  recordRepresentation: 'identifier',
};
