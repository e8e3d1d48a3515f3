import ForumOutlinedIcon from '@mui/icons-material/ForumOutlined';
import { Datagrid, DateField, DateInput, FunctionField, List, SearchInput } from 'react-admin';
import { ContentRefField, ContentReferenceInput, EmptyState, NoMatch, UserRefField, UserReferenceInput, LearningListActions } from '../content-resources/shared';
import type { Comment } from './types';

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Search comment text" />,
  <UserReferenceInput key="userId" source="userId" label="Author" alwaysOn />,
  <ContentReferenceInput key="resourceId" source="resourceId" label="Lesson" alwaysOn />,
  <DateInput key="createdAt_gte" source="createdAt_gte" label="Written since" />,
];

const excerpt = (text: string) => (text.length > 140 ? `${text.slice(0, 140)}…` : text);

export function CommentList() {
  return (
    <List
      actions={<LearningListActions />}
      filters={filters}
      sort={{ field: 'createdAt', order: 'DESC' }}
      empty={
        <EmptyState icon={ForumOutlinedIcon} title="No comments yet">
          Learners' comments on lessons appear here.
        </EmptyState>
      }
    >
      <Datagrid rowClick="show" bulkActionButtons={false} empty={<NoMatch>No comment matches these filters.</NoMatch>}>
        <UserRefField source="userId" sortable={false} />
        <ContentRefField source="context.resourceId" sortable={false} />
        <FunctionField<Comment> source="text" sortable={false} render={(c) => excerpt(c.text)} />
        <DateField source="createdAt" showTime />
      </Datagrid>
    </List>
  );
}
