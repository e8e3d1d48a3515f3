import BookmarkBorderIcon from '@mui/icons-material/BookmarkBorder';
import { Datagrid, DateField, DateInput, List, TextField, TextInput } from 'react-admin';
import {
  ContentRefField,
  ContentReferenceInput,
  EmptyState,
  NoMatch,
  UserRefField,
  UserReferenceInput,
  LearningListActions,
} from '../content-resources/shared';

const filters = [
  <UserReferenceInput key="userId" source="userId" label="resources.bookmarks.fields.userId" alwaysOn />,
  <ContentReferenceInput key="resourceId" source="resourceId" label="resources.bookmarks.fields.resourceId" alwaysOn />,
  <TextInput key="type" source="type" label="resources.bookmarks.fields.type" />,
  <DateInput key="createdAt_gte" source="createdAt_gte" label="console.content.bookmarks.savedSince" />,
];

export function BookmarkList() {
  return (
    <List
      actions={<LearningListActions />}
      filters={filters}
      sort={{ field: 'createdAt', order: 'DESC' }}
      empty={
        <EmptyState icon={BookmarkBorderIcon} title="console.content.bookmarks.empty.title">
          console.content.bookmarks.empty.body
        </EmptyState>
      }
    >
      <Datagrid
        rowClick="show"
        bulkActionButtons={false}
        empty={<NoMatch>console.content.bookmarks.empty.noMatch</NoMatch>}
      >
        <UserRefField source="userId" sortable={false} />
        <ContentRefField source="resourceId" sortable={false} />
        <TextField source="type" sortable={false} />
        <DateField source="createdAt" showTime />
      </Datagrid>
    </List>
  );
}
