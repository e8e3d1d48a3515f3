import LocalOfferOutlinedIcon from '@mui/icons-material/LocalOfferOutlined';
import {
  AutocompleteInput,
  BooleanField,
  CreateButton,
  FilterButton,
  FunctionField,
  NullableBooleanInput,
  ReferenceInput,
  SearchInput,
  SelectInput,
  TopToolbar,
} from 'react-admin';
import { date, percent, ref, text } from '../common/columns';
import { dateRangeFilters, PercentInput } from '../common/inputs';
import { RecordList } from '../common/RecordList';
import { ACTIVE_INACTIVE_CHOICES } from '../common/StatusChipField';
import { usesLabel, type Coupon } from './choices';
import { CouponStateField } from './CouponStateField';
import { GenerateCouponsButton } from './GenerateCouponsButton';

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="resources.coupons.search" />,
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

function Actions() {
  return (
    <TopToolbar>
      <FilterButton />
      <CreateButton />
      <GenerateCouponsButton />
    </TopToolbar>
  );
}

/** A coupon's columns; a product's page shows some of them for its coupons. */
export const couponColumns = [
  text('code', { emptyText: 'resources.coupons.noCode', sortable: true }),
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
      actions={<Actions />}
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
