import {
  Datagrid,
  DateField,
  ReferenceField,
  ReferenceManyField,
  Show,
  SimpleShowLayout,
  TextField,
  usePermissions,
  useRecordContext,
} from 'react-admin';
import { NoneFound } from '../common/EmptyState';
import { formatMoney } from '../common/money';
import { MoneyField } from '../common/MoneyField';
import { ACTIVE_INACTIVE, StatusChipField } from '../common/StatusChipField';
import { canRead } from '../permissions';
import { PRICE_STATUS_LOOKS, type Price } from './choices';

function PriceTitle() {
  const price = useRecordContext<Price>();
  return (
    <>
      {price
        ? `Price ${formatMoney(price.unitAmount, price.currency)}${price.nickname ? ` (${price.nickname})` : ''}`
        : 'Price'}
    </>
  );
}

export function PriceShow() {
  const { permissions } = usePermissions();
  return (
    <Show title={<PriceTitle />}>
      <SimpleShowLayout>
        <ReferenceField source="productId" reference="products" link="show" />
        <MoneyField source="unitAmount" />
        <TextField source="currency" />
        <TextField source="nickname" emptyText="—" />
        <StatusChipField source="status" looks={PRICE_STATUS_LOOKS} />
        <DateField source="createdAt" showTime />
        <TextField source="id" />
        {canRead(permissions, 'merchant-prices') ? (
          <ReferenceManyField
            label="At the payment provider"
            reference="merchant-prices"
            target="priceId"
            sort={{ field: 'createdAt', order: 'DESC' }}
          >
            <Datagrid
              rowClick="show"
              bulkActionButtons={false}
              empty={<NoneFound>Not yet created at the payment provider.</NoneFound>}
            >
              <ReferenceField source="merchantAccountId" reference="merchant-accounts" link="show" sortable={false} />
              <TextField source="identifier" sortable={false} />
              <StatusChipField source="status" looks={ACTIVE_INACTIVE} />
              <DateField source="createdAt" showTime />
            </Datagrid>
          </ReferenceManyField>
        ) : null}
      </SimpleShowLayout>
    </Show>
  );
}
