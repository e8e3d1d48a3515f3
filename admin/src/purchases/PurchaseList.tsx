import ShoppingCartOutlinedIcon from '@mui/icons-material/ShoppingCartOutlined';
import { TextInput } from 'react-admin';
import { choiceFilter, referenceFilter } from '../common/filters';
import { dateRangeFilters, moneyRangeFilters } from '../common/inputs';
import { RecordList } from '../common/RecordList';
import { PURCHASE_STATUS_CHOICES } from './choices';
import { PurchaseRows } from './PurchaseRows';

const upperCase = (value: string) => (value ? value.toUpperCase() : '');

const filters = [
  choiceFilter('status', PURCHASE_STATUS_CHOICES),
  referenceFilter('productId', 'products', { alwaysOn: true }),
  referenceFilter('userId', 'users', { alwaysOn: true }),
  referenceFilter('couponId', 'coupons'),
  <TextInput key="country" source="country" label="resources.purchases.fields.countryFilter" parse={upperCase} />,
  ...moneyRangeFilters('totalAmount', 'Paid'),
  ...dateRangeFilters('createdAt', 'Purchased'),
];

export function PurchaseList() {
  return (
    <RecordList
      filters={filters}
      icon={ShoppingCartOutlinedIcon}
      rows={<PurchaseRows empty="resources.purchases.noneFound" />}
    />
  );
}
