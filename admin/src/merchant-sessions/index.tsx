import ShoppingCartCheckoutIcon from '@mui/icons-material/ShoppingCartCheckout';
import { Datagrid, DateField, List, ReferenceField, Show, SimpleShowLayout, TextField } from 'react-admin';
import { EmptyState, NoneFound } from '../common/EmptyState';
import { MerchantStatusEdit, merchantFilters, MERCHANT_NOTE } from '../common/MerchantRecord';
import { ACTIVE_INACTIVE, StatusChipField } from '../common/StatusChipField';

const filters = merchantFilters();

function MerchantSessionList() {
  return (
    <List
      filters={filters}
      exporter={false}
      sort={{ field: 'createdAt', order: 'DESC' }}
      empty={
        <EmptyState icon={ShoppingCartCheckoutIcon} title="No checkout sessions yet">
          Each checkout started on the storefront records a session at the payment provider. {MERCHANT_NOTE}
        </EmptyState>
      }
    >
      <Datagrid
        rowClick="show"
        bulkActionButtons={false}
        empty={<NoneFound>No session matches these filters.</NoneFound>}
      >
        <DateField source="createdAt" showTime />
        <TextField source="identifier" sortable={false} />
        <ReferenceField source="merchantAccountId" reference="merchant-accounts" link="show" sortable={false} />
        <StatusChipField source="status" looks={ACTIVE_INACTIVE} />
      </Datagrid>
    </List>
  );
}

function MerchantSessionShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <TextField source="identifier" />
        <ReferenceField source="merchantAccountId" reference="merchant-accounts" link="show" />
        <StatusChipField source="status" looks={ACTIVE_INACTIVE} />
        <DateField source="createdAt" showTime />
        <TextField source="id" />
      </SimpleShowLayout>
    </Show>
  );
}

function MerchantSessionEdit() {
  return <MerchantStatusEdit />;
}

export default {
  list: MerchantSessionList,
  show: MerchantSessionShow,
  edit: MerchantSessionEdit,
  icon: ShoppingCartCheckoutIcon,
  recordRepresentation: 'identifier',
};
