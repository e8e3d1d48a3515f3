import {
  BooleanField,
  FunctionField,
  Show,
  TabbedShowLayout,
  TextField,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { STAMPS, pick, ref } from '../common/columns';
import { RelatedRows } from '../common/Rows';
import { section } from '../common/Section';
import { PurchaseRows } from '../purchases/PurchaseRows';
import { couponName, usesLabel, type Coupon } from './choices';
import { CouponStateField } from './CouponStateField';
import { couponColumns } from './CouponList';

function CouponTitle() {
  const coupon = useRecordContext<Coupon>();
  const translate = useTranslate();
  return (
    <>
      {coupon
        ? translate('resources.coupons.title', { name: couponName(coupon) })
        : translate('resources.coupons.titleLoading')}
    </>
  );
}

function Uses(_props: { label?: false }) {
  const coupon = useRecordContext<Coupon>();
  const translate = useTranslate();
  if (!coupon) return null;
  return (
    <div style={{ width: '100%' }}>
      {section(
        translate('resources.coupons.purchasesWith'),
        null,
        <RelatedRows
          reference="purchases"
          target="couponId"
          paginated
          rows={<PurchaseRows empty="resources.coupons.noPurchases" />}
        />,
      )}
      <div style={{ height: 24 }} />
      {section(
        translate('resources.coupons.seatsWith'),
        null,
        <RelatedRows
          reference="purchases"
          target="redeemedBulkCouponId"
          paginated
          rows={
            <PurchaseRows
              hide={['productId']}
              empty={coupon.bulkPurchaseId ? 'resources.coupons.noSeats' : 'resources.coupons.notTeam'}
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
        <TabbedShowLayout.Tab label="resources.coupons.tabs.summary">
          {pick(couponColumns, ['code', 'percentageDiscount'])}
          <CouponStateField label="resources.coupons.validNow" />
          <TextField source="status" />
          <FunctionField<Coupon> source="usedCount" label="resources.coupons.uses" render={usesLabel} />
          {pick(couponColumns, ['expires', 'restrictedToProductId'])}
          <BooleanField source="default" />
          {ref('bulkPurchaseId', 'bulk-purchases', { emptyText: '—' })}
          {ref('merchantCouponId', 'merchant-coupons', { emptyText: '—' })}
          {STAMPS}
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="resources.coupons.tabs.uses" path="uses">
          <Uses label={false} />
        </TabbedShowLayout.Tab>
      </TabbedShowLayout>
    </Show>
  );
}
