import HistoryIcon from '@mui/icons-material/History';
import { AutocompleteInput, ReferenceInput, SelectInput, useTranslate } from 'react-admin';
import { date, status, text } from '../common/columns';
import { RecordList } from '../common/RecordList';
import { SearchInput } from '../common/SearchInput';
import { dateRangeFilters } from '../common/inputs';
import { RESOURCE_NAMES } from '../registry/access';
import { ACTION_CHOICES, ACTION_LOOKS } from './choices';
import { ActorField, RecordLinkField, ResourceNameField } from './fields';

function ResourceFilter(props: { source: string; alwaysOn?: boolean }) {
  const translate = useTranslate();
  // What an entry's `resource` can name: every console resource (the registry names each of the API's).
  const choices = RESOURCE_NAMES.map((id) => ({
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

/** An entry's columns; its page shows them too, with what changed. */
export const entryColumns = [
  date('createdAt'),
  <ActorField key="actorEmail" source="actorEmail" label="resources.audit-logs.fields.actorId" sortable={false} />,
  status(ACTION_LOOKS, 'action', { sortable: false }),
  <ResourceNameField key="resource" source="resource" sortable={false} />,
  <RecordLinkField key="recordId" source="recordId" sortable={false} />,
  text('requestId', { emptyText: '—' }),
];

export function AuditLogList() {
  return (
    <RecordList
      filters={filters}
      icon={HistoryIcon}
      texts={{
        title: 'console.audit.empty.title',
        body: 'console.audit.empty.body',
        noMatch: 'console.audit.empty.noMatch',
      }}
    >
      {entryColumns}
    </RecordList>
  );
}
