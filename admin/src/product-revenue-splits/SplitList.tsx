import PieChartOutlineIcon from '@mui/icons-material/PieChartOutlineOutlined';
import {
  AutocompleteInput,
  Datagrid,
  DateField,
  List,
  ReferenceField,
  ReferenceInput,
  SelectField,
  SelectInput,
} from 'react-admin';
import { EmptyState, NoneFound } from '../common/EmptyState';
import { PercentField } from '../common/MoneyField';
import { SPLIT_TYPE_CHOICES } from './choices';

const filters = [
  <ReferenceInput key="productId" source="productId" reference="products" alwaysOn>
    <AutocompleteInput label="Product" />
  </ReferenceInput>,
  <SelectInput key="type" source="type" choices={SPLIT_TYPE_CHOICES} alwaysOn />,
  <ReferenceInput key="userId" source="userId" reference="users" alwaysOn>
    <AutocompleteInput label="Recipient" />
  </ReferenceInput>,
];

export function SplitList() {
  return (
    <List
      filters={filters}
      sort={{ field: 'createdAt', order: 'ASC' }}
      exporter={false}
      empty={
        <EmptyState icon={PieChartOutlineIcon} title="No revenue splits yet">
          A split says who gets which share of a product's net revenue: the platform, owners and contributors. Finance
          adds them from a product's page (Revenue splits tab).
        </EmptyState>
      }
    >
      <Datagrid
        rowClick="show"
        bulkActionButtons={false}
        empty={<NoneFound>No split matches these filters.</NoneFound>}
      >
        <ReferenceField source="productId" reference="products" link="show" sortable={false} />
        <SelectField source="type" choices={SPLIT_TYPE_CHOICES} />
        <ReferenceField source="userId" reference="users" link="show" emptyText="The platform" sortable={false} />
        <PercentField source="percent" />
        <DateField source="createdAt" />
      </Datagrid>
    </List>
  );
}
