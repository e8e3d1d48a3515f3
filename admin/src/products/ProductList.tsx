import Inventory2OutlinedIcon from '@mui/icons-material/Inventory2Outlined';
import { CreateButton, FunctionField, SelectField, SelectInput } from 'react-admin';
import { date, numeric, status, text } from '../common/columns';
import { choiceFilter, searchFilter } from '../common/filters';
import { dateRangeFilters } from '../common/inputs';
import { RecordList } from '../common/RecordList';
import { CurrentPriceField } from './CurrentPriceField';
import {
  PRODUCT_STATUS_CHOICES,
  PRODUCT_STATUS_LOOKS,
  PRODUCT_TYPE_CHOICES,
  seatsLabel,
  type Product,
} from './choices';

const filters = [
  searchFilter('resources.products.search'),
  choiceFilter('status', PRODUCT_STATUS_CHOICES),
  <SelectInput key="productType" source="productType" choices={PRODUCT_TYPE_CHOICES} />,
  ...dateRangeFilters('createdAt', 'Created'),
];

/** A product's columns; its page shows most of them too. */
export const productColumns = [
  text('name', { sortable: true }),
  <SelectField key="productType" source="productType" choices={PRODUCT_TYPE_CHOICES} />,
  status(PRODUCT_STATUS_LOOKS),
  <CurrentPriceField key="currentPrice" label="resources.products.fields.currentPrice" sortable={false} />,
  <FunctionField<Product>
    key="quantityAvailable"
    source="quantityAvailable"
    render={(p) => seatsLabel(p.quantityAvailable)}
  />,
  // The home page's order (1 first), sortable so staff see the featured ones together; empty: not featured.
  numeric('featuredRank', { sortable: true }),
  date('createdAt'),
];

export function ProductList() {
  return (
    <RecordList
      filters={filters}
      icon={Inventory2OutlinedIcon}
      emptyAction={<CreateButton label="resources.products.create" />}
    >
      {productColumns}
    </RecordList>
  );
}
