import Inventory2OutlinedIcon from '@mui/icons-material/Inventory2Outlined';
import {
  CreateButton,
  Datagrid,
  DateField,
  FunctionField,
  List,
  SearchInput,
  SelectField,
  SelectInput,
  TextField,
} from 'react-admin';
import { EmptyState, NoneFound } from '../common/EmptyState';
import { dateRangeFilters } from '../common/inputs';
import { StatusChipField } from '../common/StatusChipField';
import { CurrentPriceField } from './CurrentPriceField';
import {
  PRODUCT_STATUS_CHOICES,
  PRODUCT_STATUS_LOOKS,
  PRODUCT_TYPE_CHOICES,
  seatsLabel,
  type Product,
} from './choices';

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Search name, key or slug" />,
  <SelectInput key="status" source="status" choices={PRODUCT_STATUS_CHOICES} alwaysOn />,
  <SelectInput key="productType" source="productType" choices={PRODUCT_TYPE_CHOICES} />,
  ...dateRangeFilters('createdAt', 'Created'),
];

function NoProducts() {
  return (
    <EmptyState
      icon={Inventory2OutlinedIcon}
      title="No products yet"
      action={<CreateButton label="Create a product" />}
    >
      A product is what learners buy: a self-paced course, a live workshop, a cohort or a membership, with one current
      price.
    </EmptyState>
  );
}

export function ProductList() {
  return (
    <List filters={filters} exporter={false} sort={{ field: 'createdAt', order: 'DESC' }} empty={<NoProducts />}>
      <Datagrid
        rowClick="show"
        bulkActionButtons={false}
        empty={<NoneFound>No product matches these filters.</NoneFound>}
      >
        <TextField source="name" />
        <SelectField source="productType" choices={PRODUCT_TYPE_CHOICES} />
        <StatusChipField source="status" looks={PRODUCT_STATUS_LOOKS} />
        <CurrentPriceField label="resources.products.fields.currentPrice" sortable={false} />
        <FunctionField<Product> source="quantityAvailable" render={(p) => seatsLabel(p.quantityAvailable)} />
        <DateField source="createdAt" showTime />
      </Datagrid>
    </List>
  );
}
