import DiscountIcon from '@mui/icons-material/Discount';
import { Datagrid, DateField, Labeled, List, Show, SimpleShowLayout, TextField } from 'react-admin';
import { EmptyState, NoneFound } from '../common/EmptyState';
import { PercentInput } from '../common/inputs';
import { MerchantStatusEdit, merchantFilters, MERCHANT_NOTE } from '../common/MerchantRecord';
import { PercentField } from '../common/MoneyField';
import { ACTIVE_INACTIVE, StatusChipField } from '../common/StatusChipField';

const filters = merchantFilters(
  <PercentInput key="percentageDiscount_gte" source="percentageDiscount_gte" label="Discount at least (%)" />,
  <PercentInput key="percentageDiscount_lte" source="percentageDiscount_lte" label="Discount at most (%)" />,
);

function MerchantCouponList() {
  return (
    <List
      filters={filters}
      exporter={false}
      sort={{ field: 'createdAt', order: 'DESC' }}
      empty={
        <EmptyState icon={DiscountIcon} title="No provider coupons yet">
          A coupon is mirrored at the payment provider when a checkout uses it. {MERCHANT_NOTE}
        </EmptyState>
      }
    >
      <Datagrid
        rowClick="show"
        bulkActionButtons={false}
        empty={<NoneFound>No provider coupon matches these filters.</NoneFound>}
      >
        <TextField source="identifier" sortable={false} />
        <PercentField source="percentageDiscount" sortable={false} />
        <TextField source="type" emptyText="—" sortable={false} />
        <StatusChipField source="status" looks={ACTIVE_INACTIVE} />
        <DateField source="createdAt" showTime />
      </Datagrid>
    </List>
  );
}

function MerchantCouponShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <TextField source="identifier" />
        <PercentField source="percentageDiscount" />
        <TextField source="type" emptyText="—" />
        <StatusChipField source="status" looks={ACTIVE_INACTIVE} />
        <DateField source="createdAt" showTime />
        <TextField source="id" />
      </SimpleShowLayout>
    </Show>
  );
}

function MerchantCouponEdit() {
  return (
    <MerchantStatusEdit>
      <Labeled>
        <PercentField source="percentageDiscount" />
      </Labeled>
    </MerchantStatusEdit>
  );
}

export default {
  list: MerchantCouponList,
  show: MerchantCouponShow,
  edit: MerchantCouponEdit,
  icon: DiscountIcon,
  recordRepresentation: 'identifier',
};
