import ForumOutlinedIcon from '@mui/icons-material/ForumOutlined';
import { DateInput, FunctionField, NullableBooleanInput } from 'react-admin';
import { date } from '../common/columns';
import { SearchInput } from '../common/SearchInput';
import { ContentReferenceInput, LearningList, contentRef, userFilter, userRef } from '../content-resources/shared';
import { ModerateCommentButton, VisibilityField } from './Moderation';
import { excerpt, type Comment } from './types';

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="console.comments.search" />,
  <NullableBooleanInput
    key="hidden"
    source="hidden"
    label="console.comments.hidden"
    trueLabel="console.common.yes"
    falseLabel="console.common.no"
    nullLabel="console.common.any"
    alwaysOn
    sx={{ minWidth: 140 }}
  />,
  userFilter('userId'),
  <ContentReferenceInput
    key="resourceId"
    source="resourceId"
    label="resources.comments.fields.context.resourceId"
    filter={{ type: 'lesson' }}
    alwaysOn
  />,
  <DateInput key="createdAt_gte" source="createdAt_gte" label="console.comments.writtenSince" />,
  <DateInput key="hiddenAt_gte" source="hiddenAt_gte" label="console.comments.hiddenSince" />,
];

/** Hidden comments are dimmed, so a page of comments reads as what learners see. */
const rowSx = (comment: Comment) =>
  comment.hiddenAt ? { '& td': { color: 'text.secondary' }, bgcolor: 'action.hover' } : {};

/** Learners' comments on lessons; support and admins hide any of them (or show it again) from its row or its page. */
export function CommentList() {
  return (
    <LearningList
      filters={filters}
      icon={ForumOutlinedIcon}
      texts={{
        title: 'console.comments.empty.title',
        body: 'console.comments.empty.body',
        noMatch: 'console.comments.empty.noMatch',
      }}
      rowSx={rowSx}
    >
      {userRef('userId')}
      {contentRef('context.resourceId')}
      <FunctionField<Comment> source="text" sortable={false} render={(c) => excerpt(c.text)} />
      <VisibilityField label="resources.comments.fields.hidden" sortBy="hiddenAt" />
      {date('createdAt')}
      <ModerateCommentButton label="" />
    </LearningList>
  );
}
