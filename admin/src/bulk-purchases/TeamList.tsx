import GroupsIcon from '@mui/icons-material/Groups';
import { AutocompleteInput, FunctionField, NumberInput, ReferenceInput, SelectInput } from 'react-admin';
import { date, money, ref, status } from '../common/columns';
import { dateRangeFilters } from '../common/inputs';
import { RecordList } from '../common/RecordList';
import { PURCHASE_STATUS_CHOICES, PURCHASE_STATUS_LOOKS } from '../purchases/choices';
import { seatsFree, type TeamPurchase } from './types';

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

export function TeamList() {
  return (
    <RecordList
      filters={filters}
      icon={GroupsIcon}
      texts={{
        title: 'console.teams.empty.title',
        body: 'console.teams.empty.body',
        noMatch: 'console.teams.empty.noMatch',
      }}
    >
      {date('createdAt')}
      {ref('userId', 'users')}
      {ref('productId', 'products')}
      <FunctionField<TeamPurchase> source="seatsUsed" render={(t) => `${t.seatsUsed} / ${t.seatsTotal}`} />
      <FunctionField<TeamPurchase> source="seatsFree" render={seatsFree} sortable={false} />
      {status(PURCHASE_STATUS_LOOKS, 'status', { sortable: false })}
      {money('totalAmount')}
    </RecordList>
  );
}
