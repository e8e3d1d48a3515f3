import ForumOutlinedIcon from '@mui/icons-material/ForumOutlined';
import { Datagrid, DateField, DateInput, FunctionField, List, NullableBooleanInput, SearchInput } from 'react-admin';
import {
  ContentRefField,
  ContentReferenceInput,
  EmptyState,
  NoMatch,
  UserRefField,
  UserReferenceInput,
  LearningListActions,
} from '../content-resources/shared';
import { ModerateCommentButton, VisibilityField } from './Moderation';
import { excerpt, type Comment } from './types';

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Search comment text" />,
  <NullableBooleanInput
    key="hidden"
    source="hidden"
    label="Hidden"
    trueLabel="Yes"
    falseLabel="No"
    nullLabel="Any"
    alwaysOn
    sx={{ minWidth: 140 }}
  />,
  <UserReferenceInput key="userId" source="userId" label="Author" alwaysOn />,
  <ContentReferenceInput key="resourceId" source="resourceId" label="Lesson" filter={{ type: 'lesson' }} alwaysOn />,
  <DateInput key="createdAt_gte" source="createdAt_gte" label="Written since" />,
  <DateInput key="hiddenAt_gte" source="hiddenAt_gte" label="Hidden since" />,
];

/** Hidden comments are dimmed, so a page of comments reads as what learners see. */
const rowSx = (comment: Comment) =>
  comment.hiddenAt ? { '& td': { color: 'text.secondary' }, bgcolor: 'action.hover' } : {};

/** Learners' comments on lessons; support and admins hide any of them (or show it again) from its row or its page. */
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
      <Datagrid
        rowClick="show"
        bulkActionButtons={false}
        rowSx={rowSx}
        empty={<NoMatch>No comment matches these filters.</NoMatch>}
      >
        <UserRefField source="userId" sortable={false} />
        <ContentRefField source="context.resourceId" sortable={false} />
        <FunctionField<Comment> source="text" sortable={false} render={(c) => excerpt(c.text)} />
        <VisibilityField label="resources.comments.fields.hidden" sortBy="hiddenAt" />
        <DateField source="createdAt" showTime />
        <ModerateCommentButton label="" />
      </Datagrid>
    </List>
  );
}
