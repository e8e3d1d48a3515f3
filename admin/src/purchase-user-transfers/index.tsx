import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import { AutocompleteInput, Datagrid, DateField, List, ReferenceField, ReferenceInput, SelectInput, Show, SimpleShowLayout, TextField } from 'react-admin';
import { EmptyState, NoneFound } from '../common/EmptyState';
import { dateRangeFilters } from '../common/inputs';
import { StatusChipField } from '../common/StatusChipField';
import { TRANSFER_STATE_CHOICES, TRANSFER_STATE_LOOKS, type PurchaseUserTransfer } from './choices';

const filters = [
  <SelectInput key="transferState" source="transferState" choices={TRANSFER_STATE_CHOICES} alwaysOn />,
  <ReferenceInput key="sourceUserId" source="sourceUserId" reference="users" alwaysOn>
    <AutocompleteInput label="From" />
  </ReferenceInput>,
  <ReferenceInput key="targetUserId" source="targetUserId" reference="users">
    <AutocompleteInput label="To" />
  </ReferenceInput>,
  ...dateRangeFilters('expiresAt', 'Expires'),
  ...dateRangeFilters('createdAt', 'Created'),
];

function TransferList() {
  return (
    <List
      filters={filters}
      sort={{ field: 'createdAt', order: 'DESC' }}
      exporter={false}
      empty={
        <EmptyState icon={SwapHorizIcon} title="No transfers yet">
          A buyer can give a purchase to someone else within 7 days of buying it. Each transfer goes Available → Initiated → Verified →
          Confirmed → Completed, or ends Canceled or Expired.
        </EmptyState>
      }
    >
      <Datagrid rowClick="show" bulkActionButtons={false} empty={<NoneFound>No transfer matches these filters.</NoneFound>}>
        <DateField source="createdAt" showTime />
        <ReferenceField source="purchaseId" reference="purchases" link="show" sortable={false} />
        <ReferenceField source="sourceUserId" reference="users" link="show" sortable={false} />
        <ReferenceField source="targetUserId" reference="users" link="show" emptyText="—" sortable={false} />
        <StatusChipField source="transferState" looks={TRANSFER_STATE_LOOKS} />
        <DateField source="expiresAt" showTime />
      </Datagrid>
    </List>
  );
}

function TransferShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <StatusChipField source="transferState" looks={TRANSFER_STATE_LOOKS} />
        <ReferenceField source="purchaseId" reference="purchases" link="show" />
        <ReferenceField source="sourceUserId" reference="users" link="show" />
        <ReferenceField source="targetUserId" reference="users" link="show" emptyText="Not named yet" />
        <DateField source="createdAt" showTime />
        <DateField source="expiresAt" showTime />
        <DateField source="confirmedAt" showTime emptyText="—" />
        <DateField source="completedAt" showTime emptyText="—" />
        <DateField source="canceledAt" showTime emptyText="—" />
        <TextField source="id" />
      </SimpleShowLayout>
    </Show>
  );
}

export default {
  list: TransferList,
  show: TransferShow,
  icon: SwapHorizIcon,
  recordRepresentation: (t: PurchaseUserTransfer) => `Transfer ${TRANSFER_STATE_LOOKS[t.transferState]?.label ?? t.transferState}`,
};
