import AccountTreeOutlinedIcon from '@mui/icons-material/AccountTreeOutlined';
import { CreateButton, Datagrid, DateField, List, NumberField } from 'react-admin';
import {
  ContentRefField,
  ContentReferenceInput,
  EmptyState,
  NoMatch,
  LearningListActions,
} from '../content-resources/shared';
import { TierField } from './TierField';

const filters = [
  <ContentReferenceInput key="resourceOfId" source="resourceOfId" label="Parent" alwaysOn />,
  <ContentReferenceInput key="resourceId" source="resourceId" label="Child" alwaysOn />,
];

export function ContentLinkList() {
  return (
    <List
      actions={<LearningListActions />}
      filters={filters}
      sort={{ field: 'position', order: 'ASC' }}
      empty={
        <EmptyState
          icon={AccountTreeOutlinedIcon}
          title="No content links yet"
          action={<CreateButton label="Link content" />}
        >
          Links place modules in courses, sections in modules and lessons in sections.
        </EmptyState>
      }
    >
      <Datagrid rowClick="show" bulkActionButtons={false} empty={<NoMatch>No link matches these filters.</NoMatch>}>
        <ContentRefField source="resourceOfId" />
        <ContentRefField source="resourceId" />
        <NumberField source="position" />
        <TierField source="metadata.tier" sortable={false} />
        <DateField source="createdAt" showTime />
      </Datagrid>
    </List>
  );
}
