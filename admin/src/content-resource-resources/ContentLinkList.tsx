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
  <ContentReferenceInput
    key="resourceOfId"
    source="resourceOfId"
    label="resources.content-resource-resources.fields.resourceOfId"
    alwaysOn
  />,
  <ContentReferenceInput
    key="resourceId"
    source="resourceId"
    label="resources.content-resource-resources.fields.resourceId"
    alwaysOn
  />,
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
          title="console.content.link.empty.title"
          action={<CreateButton label="console.content.link.empty.create" />}
        >
          console.content.link.empty.body
        </EmptyState>
      }
    >
      <Datagrid rowClick="show" bulkActionButtons={false} empty={<NoMatch>console.content.link.empty.noMatch</NoMatch>}>
        <ContentRefField source="resourceOfId" />
        <ContentRefField source="resourceId" />
        <NumberField source="position" />
        <TierField source="metadata.tier" sortable={false} />
        <DateField source="createdAt" showTime />
      </Datagrid>
    </List>
  );
}
