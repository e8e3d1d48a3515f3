import SellOutlinedIcon from '@mui/icons-material/SellOutlined';
import {
  AutocompleteInput,
  Datagrid,
  DateField,
  List,
  ReferenceField,
  ReferenceInput,
  SearchInput,
  SelectInput,
  TextField,
} from 'react-admin';
import { EmptyState, NoneFound } from '../common/EmptyState';
import { dateRangeFilters, moneyRangeFilters } from '../common/inputs';
import { CURRENCY_CHOICES } from '../common/money';
import { MoneyField } from '../common/MoneyField';
import { StatusChipField } from '../common/StatusChipField';
import { PRICE_STATUS_CHOICES, PRICE_STATUS_LOOKS } from './choices';

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Search nickname" />,
  <ReferenceInput key="productId" source="productId" reference="products" alwaysOn>
    <AutocompleteInput label="Product" />
  </ReferenceInput>,
  <SelectInput key="status" source="status" choices={PRICE_STATUS_CHOICES} alwaysOn />,
  <SelectInput key="currency" source="currency" choices={CURRENCY_CHOICES} />,
  ...moneyRangeFilters('unitAmount', 'Amount'),
  ...dateRangeFilters('createdAt', 'Created'),
];

export function PriceList() {
  return (
    <List
      filters={filters}
      exporter={false}
      sort={{ field: 'createdAt', order: 'DESC' }}
      empty={
        <EmptyState icon={SellOutlinedIcon} title="No prices yet">
          Each product has one current price; add one from the product's page (Prices tab) or when creating the product.
        </EmptyState>
      }
    >
      <Datagrid
        rowClick="show"
        bulkActionButtons={false}
        empty={<NoneFound>No price matches these filters.</NoneFound>}
      >
        <ReferenceField source="productId" reference="products" link="show" sortable={false} />
        <MoneyField source="unitAmount" />
        <TextField source="currency" sortable={false} />
        <TextField source="nickname" emptyText="—" sortable={false} />
        <StatusChipField source="status" looks={PRICE_STATUS_LOOKS} />
        <DateField source="createdAt" showTime />
      </Datagrid>
    </List>
  );
}
