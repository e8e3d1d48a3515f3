import LocalOfferOutlinedIcon from '@mui/icons-material/LocalOfferOutlined';
import {
  AutocompleteInput,
  BooleanField,
  CreateButton,
  Datagrid,
  DateField,
  FilterButton,
  FunctionField,
  List,
  NullableBooleanInput,
  ReferenceField,
  ReferenceInput,
  SearchInput,
  SelectInput,
  TextField,
  TopToolbar,
} from 'react-admin';
import { EmptyState, NoneFound } from '../common/EmptyState';
import { dateRangeFilters, PercentInput } from '../common/inputs';
import { PercentField } from '../common/MoneyField';
import { ACTIVE_INACTIVE_CHOICES } from '../common/StatusChipField';
import { usesLabel, type Coupon } from './choices';
import { CouponStateField } from './CouponStateField';
import { GenerateCouponsButton } from './GenerateCouponsButton';

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Search code" />,
  <SelectInput key="status" source="status" choices={ACTIVE_INACTIVE_CHOICES} alwaysOn />,
  <ReferenceInput key="restrictedToProductId" source="restrictedToProductId" reference="products" alwaysOn>
    <AutocompleteInput label="Only for product" />
  </ReferenceInput>,
  <NullableBooleanInput key="default" source="default" label="Site-wide sale" />,
  <PercentInput key="percentageDiscount_gte" source="percentageDiscount_gte" label="Discount at least (%)" />,
  <PercentInput key="percentageDiscount_lte" source="percentageDiscount_lte" label="Discount at most (%)" />,
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

function NoCoupons() {
  return (
    <EmptyState
      icon={LocalOfferOutlinedIcon}
      title="No coupons yet"
      action={
        <>
          <CreateButton label="Create a coupon" /> <GenerateCouponsButton />
        </>
      }
    >
      Coupons take a percentage off: a code buyers type, a site-wide sale that applies by itself, or a team's seats.
    </EmptyState>
  );
}

export function CouponList() {
  return (
    <List
      filters={filters}
      actions={<Actions />}
      sort={{ field: 'createdAt', order: 'DESC' }}
      empty={<NoCoupons />}
      exporter={false}
    >
      <Datagrid
        rowClick="show"
        bulkActionButtons={false}
        empty={<NoneFound>No coupon matches these filters.</NoneFound>}
      >
        <TextField source="code" emptyText="(no code)" />
        <PercentField source="percentageDiscount" />
        <FunctionField<Coupon> source="usedCount" render={usesLabel} />
        <DateField source="expires" showTime emptyText="Never" />
        <ReferenceField
          source="restrictedToProductId"
          reference="products"
          link="show"
          emptyText="Any product"
          sortable={false}
        />
        <BooleanField source="default" sortable={false} />
        <CouponStateField label="resources.coupons.fields.status" sortable={false} />
        <DateField source="createdAt" />
      </Datagrid>
    </List>
  );
}
