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
  <UserReferenceInput key="userId" source="userId" label="Learner" alwaysOn />,
  <ContentReferenceInput key="resourceId" source="resourceId" label="Content" alwaysOn />,
  <TextInput key="type" source="type" label="Type" />,
  <DateInput key="createdAt_gte" source="createdAt_gte" label="Saved since" />,
];

export function BookmarkList() {
  return (
    <List
      actions={<LearningListActions />}
      filters={filters}
      sort={{ field: 'createdAt', order: 'DESC' }}
      empty={
        <EmptyState icon={BookmarkBorderIcon} title="No bookmarks yet">
          Learners' saved lessons and pages appear here, newest first.
        </EmptyState>
      }
    >
      <Datagrid rowClick="show" bulkActionButtons={false} empty={<NoMatch>No bookmark matches these filters.</NoMatch>}>
        <UserRefField source="userId" sortable={false} />
        <ContentRefField source="resourceId" sortable={false} />
        <TextField source="type" sortable={false} />
        <DateField source="createdAt" showTime />
      </Datagrid>
    </List>
  );
}
