import AccountBalanceOutlinedIcon from '@mui/icons-material/AccountBalanceOutlined';
import { Datagrid, DateField, List, SearchInput, SelectInput, TextField } from 'react-admin';
import { EmptyState, NoneFound } from '../common/EmptyState';
import { ACTIVE_INACTIVE, ACTIVE_INACTIVE_CHOICES, StatusChipField } from '../common/StatusChipField';

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Search provider id" />,
  <SelectInput key="status" source="status" choices={ACTIVE_INACTIVE_CHOICES} alwaysOn />,
];

export function MerchantAccountList() {
  return (
    <List
      filters={filters}
      exporter={false}
      sort={{ field: 'createdAt', order: 'DESC' }}
      empty={
        <EmptyState icon={AccountBalanceOutlinedIcon} title="No merchant accounts yet">
          One account per payment provider (Stripe, or the built-in test provider). It is recorded the first time a
          checkout uses it.
        </EmptyState>
      }
    >
      <Datagrid
        rowClick="show"
        bulkActionButtons={false}
        empty={<NoneFound>No account matches these filters.</NoneFound>}
      >
        <TextField source="label" sortable={false} />
        <TextField source="identifier" sortable={false} />
        <StatusChipField source="status" looks={ACTIVE_INACTIVE} />
        <DateField source="createdAt" showTime />
      </Datagrid>
    </List>
  );
}
