import ShoppingCartOutlinedIcon from '@mui/icons-material/ShoppingCartOutlined';
import { AutocompleteInput, List, ReferenceInput, SelectInput, TextInput } from 'react-admin';
import { EmptyState } from '../common/EmptyState';
import { dateRangeFilters, moneyRangeFilters } from '../common/inputs';
import { PURCHASE_STATUS_CHOICES } from './choices';
import { PurchaseRows } from './PurchaseRows';

const upperCase = (value: string) => (value ? value.toUpperCase() : '');

const filters = [
  <SelectInput key="status" source="status" choices={PURCHASE_STATUS_CHOICES} alwaysOn />,
  <ReferenceInput key="productId" source="productId" reference="products" alwaysOn>
    <AutocompleteInput label="Product" />
  </ReferenceInput>,
  <ReferenceInput key="userId" source="userId" reference="users" alwaysOn>
    <AutocompleteInput label="Buyer" />
  </ReferenceInput>,
  <ReferenceInput key="couponId" source="couponId" reference="coupons">
    <AutocompleteInput label="Coupon" />
  </ReferenceInput>,
  <TextInput key="country" source="country" label="Country (2 letters)" parse={upperCase} />,
  ...moneyRangeFilters('totalAmount', 'Paid'),
  ...dateRangeFilters('createdAt', 'Purchased'),
];

export function PurchaseList() {
  return (
    <List
      filters={filters}
      sort={{ field: 'createdAt', order: 'DESC' }}
      exporter={false}
      empty={
        <EmptyState icon={ShoppingCartOutlinedIcon} title="No purchases yet">
          Purchases appear here when a checkout is paid, a free coupon is redeemed or a team seat is claimed. Refunds
          and transfers start from a purchase.
        </EmptyState>
      }
    >
      <PurchaseRows empty="No purchase matches these filters." />
    </List>
  );
}
