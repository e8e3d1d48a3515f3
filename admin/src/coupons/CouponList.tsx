import BlockIcon from '@mui/icons-material/Block';
import LocalOfferOutlinedIcon from '@mui/icons-material/LocalOfferOutlined';
import {
  AutocompleteInput,
  BooleanField,
  CreateButton,
  FunctionField,
  NullableBooleanInput,
  ReferenceInput,
  SelectInput,
  TextField,
  useRecordContext,
} from 'react-admin';
import { Typography } from '@mui/material';
import { date, percent, ref } from '../common/columns';
import { searchFilter } from '../common/filters';
import { dateRangeFilters, PercentInput } from '../common/inputs';
import { BulkActionButton } from '../common/BulkActionButton';
import { RecordList } from '../common/RecordList';
import { ACTIVE_INACTIVE_CHOICES } from '../common/chipLooks';
import { couponName, usesLabel, type Coupon } from './choices';
import { CouponStateField } from './CouponStateField';
import { GenerateCouponsButton } from './GenerateCouponsButton';

const filters = [
  searchFilter('resources.coupons.search'),
  <SelectInput key="status" source="status" choices={ACTIVE_INACTIVE_CHOICES} alwaysOn />,
  <ReferenceInput key="restrictedToProductId" source="restrictedToProductId" reference="products" alwaysOn>
    <AutocompleteInput label="resources.coupons.fields.restrictedToProductId" />
  </ReferenceInput>,
  <NullableBooleanInput key="default" source="default" label="resources.coupons.fields.default" />,
  <PercentInput
    key="percentageDiscount_gte"
    source="percentageDiscount_gte"
    label="resources.coupons.discountAtLeast"
  />,
  <PercentInput
    key="percentageDiscount_lte"
    source="percentageDiscount_lte"
    label="resources.coupons.discountAtMost"
  />,
  ...dateRangeFilters('expires', 'Expires'),
  ...dateRangeFilters('createdAt', 'Created'),
];

/** The selected coupons made inactive at once (active ones; the others are said to be skipped). */
const bulkActions = <BulkActionButton action="coupons/deactivate" icon={<BlockIcon />} />;

/**
 * A coupon's code, or for a coupon without one what it is (Site-wide sale, Team seats) in italics, so the two kinds
 * are told apart and never taken for a code.
 */
function CodeField(_props: { source: string; sortable?: boolean }) {
  const coupon = useRecordContext<Coupon>();
  if (!coupon) return null;
  if (coupon.code) return <TextField source="code" />;
  return (
    <Typography component="span" variant="body2" sx={{ fontStyle: 'italic', color: 'text.secondary' }}>
      {couponName(coupon)}
    </Typography>
  );
}

/** A coupon's columns; a product's page shows some of them for its coupons. */
export const couponColumns = [
  <CodeField key="code" source="code" sortable />,
  percent('percentageDiscount'),
  <FunctionField<Coupon> key="usedCount" source="usedCount" render={usesLabel} />,
  date('expires', { emptyText: 'resources.coupons.never' }),
  ref('restrictedToProductId', 'products', { emptyText: 'resources.coupons.anyProduct' }),
  <BooleanField key="default" source="default" sortable={false} />,
  <CouponStateField key="state" label="resources.coupons.fields.status" sortable={false} />,
  date('createdAt', { showTime: false }),
];

export function CouponList() {
  return (
    <RecordList
      filters={filters}
      actions={<GenerateCouponsButton />}
      bulkActionButtons={bulkActions}
      icon={LocalOfferOutlinedIcon}
      emptyAction={
        <>
          <CreateButton label="resources.coupons.create" /> <GenerateCouponsButton />
        </>
      }
    >
      {couponColumns}
    </RecordList>
  );
}
