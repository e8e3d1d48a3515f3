import MarkEmailReadOutlinedIcon from '@mui/icons-material/MarkEmailReadOutlined';
import { Datagrid, DateField, List, NumberField, SelectInput, TextField } from 'react-admin';
import { EmptyState, NoneFound } from '../common/EmptyState';
import { SearchInput } from '../common/SearchInput';
import { KIND_CHOICES, STATUS_CHOICES } from './choices';
import { RetryButton } from './RetryButton';
import { StatusField } from './StatusField';

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="console.outbox.search" />,
  <SelectInput key="status" source="status" choices={STATUS_CHOICES} alwaysOn />,
  <SelectInput key="kind" source="kind" choices={KIND_CHOICES} alwaysOn />,
];

function NoEmails() {
  return (
    <EmptyState icon={MarkEmailReadOutlinedIcon} title="console.outbox.empty.title">
      console.outbox.empty.body
    </EmptyState>
  );
}

export function OutboxEmailList() {
  return (
    <List
      filters={filters}
      sort={{ field: 'createdAt', order: 'DESC' }}
      empty={<NoEmails />}
      title="console.outbox.title"
    >
      <Datagrid rowClick="show" bulkActionButtons={false} empty={<NoneFound>console.outbox.empty.noMatch</NoneFound>}>
        <DateField source="createdAt" label="console.outbox.created" showTime />
        <TextField source="toAddress" />
        <TextField source="subject" sortable={false} />
        <TextField source="kind" sortable={false} />
        <StatusField label="resources.outbox-emails.fields.status" sortBy="status" />
        <NumberField source="attempts" />
        <DateField source="sentAt" showTime emptyText="—" sortable={false} />
        <RetryButton />
      </Datagrid>
    </List>
  );
}
