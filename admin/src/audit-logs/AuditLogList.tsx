import HistoryIcon from '@mui/icons-material/History';
import {
  AutocompleteInput,
  Datagrid,
  DateField,
  List,
  ReferenceInput,
  SearchInput,
  SelectInput,
  TextField,
  useTranslate,
} from 'react-admin';
import { EmptyState, NoneFound } from '../common/EmptyState';
import { dateRangeFilters } from '../common/inputs';
import { StatusChipField } from '../common/StatusChipField';
import { ACTION_CHOICES, ACTION_LOOKS, AUDITED_RESOURCES } from './choices';
import { ActorField, RecordLinkField, ResourceNameField } from './fields';

function ResourceFilter(props: { source: string; alwaysOn?: boolean }) {
  const translate = useTranslate();
  const choices = AUDITED_RESOURCES.map((id) => ({
    id,
    name: translate(`resources.${id}.name`, { smart_count: 2, _: id }),
  })).sort((a, b) => a.name.localeCompare(b.name));
  return <SelectInput {...props} label="Resource" choices={choices} translateChoice={false} />;
}

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Search actor email or record id" />,
  <ReferenceInput key="actorId" source="actorId" reference="users" alwaysOn>
    <AutocompleteInput label="Actor" />
  </ReferenceInput>,
  <ResourceFilter key="resource" source="resource" alwaysOn />,
  <SelectInput key="action" source="action" choices={ACTION_CHOICES} alwaysOn />,
  ...dateRangeFilters('createdAt', 'When'),
];

export function AuditLogList() {
  return (
    <List
      filters={filters}
      sort={{ field: 'createdAt', order: 'DESC' }}
      exporter={false}
      empty={
        <EmptyState icon={HistoryIcon} title="Nothing recorded yet">
          Every change made in the console and every money-moving event is recorded here: who, what, before and after,
          and when. The log cannot be edited.
        </EmptyState>
      }
    >
      <Datagrid
        rowClick="show"
        bulkActionButtons={false}
        empty={<NoneFound>No entry matches these filters.</NoneFound>}
      >
        <DateField source="createdAt" showTime />
        <ActorField source="actorEmail" label="resources.audit-logs.fields.actorId" sortable={false} />
        <StatusChipField source="action" looks={ACTION_LOOKS} sortable={false} />
        <ResourceNameField source="resource" sortable={false} />
        <RecordLinkField source="recordId" sortable={false} />
        <TextField source="requestId" emptyText="—" sortable={false} />
      </Datagrid>
    </List>
  );
}
