import HistoryIcon from '@mui/icons-material/History';
import {
  AutocompleteInput,
  Datagrid,
  DateField,
  List,
  ReferenceInput,
  SelectInput,
  TextField,
  useTranslate,
} from 'react-admin';
import { EmptyState, NoneFound } from '../common/EmptyState';
import { SearchInput } from '../common/SearchInput';
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
  return (
    <SelectInput {...props} label="resources.audit-logs.fields.resource" choices={choices} translateChoice={false} />
  );
}

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="console.audit.search" />,
  <ReferenceInput key="actorId" source="actorId" reference="users" alwaysOn>
    <AutocompleteInput label="resources.audit-logs.fields.actorId" />
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
        <EmptyState icon={HistoryIcon} title="console.audit.empty.title">
          console.audit.empty.body
        </EmptyState>
      }
    >
      <Datagrid rowClick="show" bulkActionButtons={false} empty={<NoneFound>console.audit.empty.noMatch</NoneFound>}>
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
