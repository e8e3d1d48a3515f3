import GroupsIcon from '@mui/icons-material/Groups';
import {
  AutocompleteInput,
  Datagrid,
  DateField,
  FunctionField,
  List,
  NumberInput,
  ReferenceField,
  ReferenceInput,
  SelectInput,
} from 'react-admin';
import { EmptyState, NoneFound } from '../common/EmptyState';
import { dateRangeFilters } from '../common/inputs';
import { MoneyField } from '../common/MoneyField';
import { StatusChipField } from '../common/StatusChipField';
import { PURCHASE_STATUS_CHOICES, PURCHASE_STATUS_LOOKS } from '../purchases/choices';
import { TeamShow } from './TeamShow';
import { seatsFree, type BulkPurchase } from './types';

const filters = [
  <SelectInput key="status" source="status" choices={PURCHASE_STATUS_CHOICES} alwaysOn />,
  <ReferenceInput key="productId" source="productId" reference="products" alwaysOn>
    <AutocompleteInput label="console.teams.filters.product" />
  </ReferenceInput>,
  <ReferenceInput key="userId" source="userId" reference="users" alwaysOn>
    <AutocompleteInput label="console.teams.filters.buyer" />
  </ReferenceInput>,
  <NumberInput key="seatsUsed_gte" source="seatsUsed_gte" label="console.teams.filters.seatsAtLeast" step={1} />,
  <NumberInput key="seatsUsed_lte" source="seatsUsed_lte" label="console.teams.filters.seatsAtMost" step={1} />,
  ...dateRangeFilters('createdAt', 'Purchased'),
];

function TeamList() {
  return (
    <List
      filters={filters}
      sort={{ field: 'createdAt', order: 'DESC' }}
      exporter={false}
      empty={
        <EmptyState icon={GroupsIcon} title="console.teams.empty.title">
          console.teams.empty.body
        </EmptyState>
      }
    >
      <Datagrid rowClick="show" bulkActionButtons={false} empty={<NoneFound>console.teams.empty.noMatch</NoneFound>}>
        <DateField source="createdAt" showTime />
        <ReferenceField source="userId" reference="users" link="show" sortable={false} />
        <ReferenceField source="productId" reference="products" link="show" sortable={false} />
        <FunctionField<BulkPurchase> source="seatsUsed" render={(t) => `${t.seatsUsed} / ${t.seatsTotal}`} />
        <FunctionField<BulkPurchase> source="seatsFree" render={seatsFree} sortable={false} />
        <StatusChipField source="status" looks={PURCHASE_STATUS_LOOKS} sortable={false} />
        <MoneyField source="totalAmount" />
      </Datagrid>
    </List>
  );
}

export default {
  list: TeamList,
  show: TeamShow,
  icon: GroupsIcon,
  recordRepresentation: (t: BulkPurchase) => `Team of ${t.seatsTotal} · ${String(t.createdAt).slice(0, 10)}`,
};
