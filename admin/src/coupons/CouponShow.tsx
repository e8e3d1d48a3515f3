import {
  BooleanField,
  DateField,
  FunctionField,
  Pagination,
  ReferenceField,
  ReferenceManyField,
  Show,
  TabbedShowLayout,
  TextField,
  useRecordContext,
} from 'react-admin';
import { PercentField } from '../common/MoneyField';
import { section } from '../common/Section';
import { PurchaseRows } from '../purchases/PurchaseRows';
import { couponName, usesLabel, type Coupon } from './choices';
import { CouponStateField } from './CouponStateField';

function CouponTitle() {
  const coupon = useRecordContext<Coupon>();
  return <>{coupon ? `Coupon: ${couponName(coupon)}` : 'Coupon'}</>;
}

function Uses(_props: { label?: false }) {
  const coupon = useRecordContext<Coupon>();
  if (!coupon) return null;
  return (
    <div style={{ width: '100%' }}>
      {section(
        'Purchases with this coupon',
        null,
        <ReferenceManyField
          reference="purchases"
          target="couponId"
          sort={{ field: 'createdAt', order: 'DESC' }}
          pagination={<Pagination />}
        >
          <PurchaseRows empty="No purchase has used this coupon yet." />
        </ReferenceManyField>,
      )}
      <div style={{ height: 24 }} />
      {section(
        'Team seats claimed with it',
        null,
        <ReferenceManyField
          reference="purchases"
          target="redeemedBulkCouponId"
          sort={{ field: 'createdAt', order: 'DESC' }}
          pagination={<Pagination />}
        >
          <PurchaseRows
            hide={['productId']}
            empty={coupon.bulkPurchaseId ? 'No seat has been claimed yet.' : 'None: this is not a team coupon.'}
          />
        </ReferenceManyField>,
      )}
    </div>
  );
}

export function CouponShow() {
  return (
    <Show title={<CouponTitle />}>
      <TabbedShowLayout>
        <TabbedShowLayout.Tab label="Summary">
          <TextField source="code" emptyText="(no code)" />
          <PercentField source="percentageDiscount" />
          <CouponStateField label="Valid now" />
          <TextField source="status" />
          <FunctionField<Coupon> source="usedCount" label="Uses" render={usesLabel} />
          <DateField source="expires" showTime emptyText="Never" />
          <ReferenceField source="restrictedToProductId" reference="products" link="show" emptyText="Any product" />
          <BooleanField source="default" />
          <ReferenceField source="bulkPurchaseId" reference="bulk-purchases" link="show" emptyText="—" />
          <ReferenceField source="merchantCouponId" reference="merchant-coupons" link="show" emptyText="—" />
          <DateField source="createdAt" showTime />
          <DateField source="updatedAt" showTime />
          <TextField source="id" />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="Uses" path="uses">
          <Uses label={false} />
        </TabbedShowLayout.Tab>
      </TabbedShowLayout>
    </Show>
  );
}
