import { BooleanField, FunctionField, Show, TabbedShowLayout, TextField, useRecordContext } from 'react-admin';
import { STAMPS, pick, ref } from '../common/columns';
import { RelatedRows } from '../common/Rows';
import { section } from '../common/Section';
import { PurchaseRows } from '../purchases/PurchaseRows';
import { couponName, usesLabel, type Coupon } from './choices';
import { CouponStateField } from './CouponStateField';
import { couponColumns } from './CouponList';

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
        <RelatedRows
          reference="purchases"
          target="couponId"
          paginated
          rows={<PurchaseRows empty="No purchase has used this coupon yet." />}
        />,
      )}
      <div style={{ height: 24 }} />
      {section(
        'Team seats claimed with it',
        null,
        <RelatedRows
          reference="purchases"
          target="redeemedBulkCouponId"
          paginated
          rows={
            <PurchaseRows
              hide={['productId']}
              empty={coupon.bulkPurchaseId ? 'No seat has been claimed yet.' : 'None: this is not a team coupon.'}
            />
          }
        />,
      )}
    </div>
  );
}

export function CouponShow() {
  return (
    <Show title={<CouponTitle />}>
      <TabbedShowLayout>
        <TabbedShowLayout.Tab label="Summary">
          {pick(couponColumns, ['code', 'percentageDiscount'])}
          <CouponStateField label="Valid now" />
          <TextField source="status" />
          <FunctionField<Coupon> source="usedCount" label="Uses" render={usesLabel} />
          {pick(couponColumns, ['expires', 'restrictedToProductId'])}
          <BooleanField source="default" />
          {ref('bulkPurchaseId', 'bulk-purchases', { emptyText: '—' })}
          {ref('merchantCouponId', 'merchant-coupons', { emptyText: '—' })}
          {STAMPS}
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="Uses" path="uses">
          <Uses label={false} />
        </TabbedShowLayout.Tab>
      </TabbedShowLayout>
    </Show>
  );
}
