import ShoppingBagIcon from '@mui/icons-material/ShoppingBag';
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
  <ReferenceInput key="productId" source="productId" reference="products" alwaysOn>
    <AutocompleteInput label="Product" />
  </ReferenceInput>,
);

function MerchantProductList() {
  return (
    <List
      filters={filters}
      exporter={false}
      sort={{ field: 'createdAt', order: 'DESC' }}
      empty={
        <EmptyState icon={ShoppingBagIcon} title="No provider products yet">
          A product is created at the payment provider by its first checkout. {MERCHANT_NOTE}
        </EmptyState>
      }
    >
      <Datagrid
        rowClick="show"
        bulkActionButtons={false}
        empty={<NoneFound>No provider product matches these filters.</NoneFound>}
      >
        <ReferenceField source="productId" reference="products" link="show" sortable={false} />
        <ReferenceField source="merchantAccountId" reference="merchant-accounts" link="show" sortable={false} />
        <TextField source="identifier" sortable={false} />
        <StatusChipField source="status" looks={ACTIVE_INACTIVE} />
        <DateField source="createdAt" showTime />
      </Datagrid>
    </List>
  );
}

function MerchantProductShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <ReferenceField source="productId" reference="products" link="show" />
        <ReferenceField source="merchantAccountId" reference="merchant-accounts" link="show" />
        <TextField source="identifier" />
        <StatusChipField source="status" looks={ACTIVE_INACTIVE} />
        <DateField source="createdAt" showTime />
        <ReferenceManyField
          label="Provider prices"
          reference="merchant-prices"
          target="merchantProductId"
          sort={{ field: 'createdAt', order: 'DESC' }}
        >
          <Datagrid rowClick="show" bulkActionButtons={false} empty={<NoneFound>No provider prices.</NoneFound>}>
            <TextField source="identifier" sortable={false} />
            <ReferenceField source="priceId" reference="prices" link="show" emptyText="—" sortable={false} />
            <StatusChipField source="status" looks={ACTIVE_INACTIVE} />
            <DateField source="createdAt" showTime />
          </Datagrid>
        </ReferenceManyField>
        <ReferenceManyField
          label="Charges"
          reference="merchant-charges"
          target="merchantProductId"
          sort={{ field: 'createdAt', order: 'DESC' }}
          pagination={<Pagination />}
        >
          <Datagrid rowClick="show" bulkActionButtons={false} empty={<NoneFound>No charges.</NoneFound>}>
            <DateField source="createdAt" showTime />
            <ReferenceField source="userId" reference="users" link="show" sortable={false} />
            <MoneyField source="amount" />
            <MoneyField source="refundAmount" />
          </Datagrid>
        </ReferenceManyField>
        <TextField source="id" />
      </SimpleShowLayout>
    </Show>
  );
}

function MerchantProductEdit() {
  return (
    <MerchantStatusEdit>
      <Labeled>
        <ReferenceField source="productId" reference="products" link="show" />
      </Labeled>
    </MerchantStatusEdit>
  );
}

export default {
  list: MerchantProductList,
  show: MerchantProductShow,
  edit: MerchantProductEdit,
  icon: ShoppingBagIcon,
  recordRepresentation: 'identifier',
};
