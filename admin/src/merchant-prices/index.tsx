import PriceChangeIcon from '@mui/icons-material/PriceChange';
import {
  AutocompleteInput,
  Datagrid,
  DateField,
  Labeled,
  List,
  ReferenceField,
  ReferenceInput,
  Show,
  SimpleShowLayout,
  TextField,
} from 'react-admin';
import { EmptyState, NoneFound } from '../common/EmptyState';
import { MerchantStatusEdit, merchantFilters, MERCHANT_NOTE } from '../common/MerchantRecord';
import { ACTIVE_INACTIVE, StatusChipField } from '../common/StatusChipField';

const filters = merchantFilters(
  <ReferenceInput key="merchantProductId" source="merchantProductId" reference="merchant-products">
    <AutocompleteInput label="Product record" />
  </ReferenceInput>,
);

function MerchantPriceList() {
  return (
    <List
      filters={filters}
      exporter={false}
      sort={{ field: 'createdAt', order: 'DESC' }}
      empty={
        <EmptyState icon={PriceChangeIcon} title="No provider prices yet">
          A price is created at the payment provider by the first checkout at that price. {MERCHANT_NOTE}
        </EmptyState>
      }
    >
      <Datagrid
        rowClick="show"
        bulkActionButtons={false}
        empty={<NoneFound>No provider price matches these filters.</NoneFound>}
      >
        <ReferenceField source="merchantProductId" reference="merchant-products" link="show" sortable={false} />
        <ReferenceField source="priceId" reference="prices" link="show" emptyText="—" sortable={false} />
        <ReferenceField source="merchantAccountId" reference="merchant-accounts" link="show" sortable={false} />
        <TextField source="identifier" sortable={false} />
        <StatusChipField source="status" looks={ACTIVE_INACTIVE} />
        <DateField source="createdAt" showTime />
      </Datagrid>
    </List>
  );
}

function MerchantPriceShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <ReferenceField source="merchantProductId" reference="merchant-products" link="show" />
        <ReferenceField source="priceId" reference="prices" link="show" emptyText="—" />
        <ReferenceField source="merchantAccountId" reference="merchant-accounts" link="show" />
        <TextField source="identifier" />
        <StatusChipField source="status" looks={ACTIVE_INACTIVE} />
        <DateField source="createdAt" showTime />
        <TextField source="id" />
      </SimpleShowLayout>
    </Show>
  );
}

function MerchantPriceEdit() {
  return (
    <MerchantStatusEdit>
      <Labeled>
        <ReferenceField source="priceId" reference="prices" link="show" emptyText="—" />
      </Labeled>
    </MerchantStatusEdit>
  );
}

export default {
  list: MerchantPriceList,
  show: MerchantPriceShow,
  edit: MerchantPriceEdit,
  icon: PriceChangeIcon,
  recordRepresentation: 'identifier',
};
