import { TextField, TopToolbar, useRecordContext, useTranslate } from 'react-admin';
import { STAMPS, date, pick, text } from '../common/columns';
import { RecordShow } from '../common/RecordShow';
import { contentRef, userRef } from '../content-resources/shared';
import { ModerateCommentButton, VisibilityField } from './Moderation';
import type { Comment } from './types';

function CommentActions() {
  return (
    <TopToolbar>
      <ModerateCommentButton />
    </TopToolbar>
  );
}

function CommentTitle() {
  const comment = useRecordContext<Comment>();
  const translate = useTranslate();
  return <>{translate(comment?.hiddenAt ? 'console.comments.titleHidden' : 'console.comments.title')}</>;
}

export function CommentShow() {
  return (
    <RecordShow actions={<CommentActions />} title={<CommentTitle />}>
      {userRef('userId')}
      {contentRef('context.resourceId')}
      {text('context.category', { emptyText: '—' })}
      <TextField source="text" sx={{ whiteSpace: 'pre-wrap' }} />
      <VisibilityField label="resources.comments.fields.hidden" />
      {date('hiddenAt', { emptyText: '—' })}
      {userRef('hiddenById')}
      {date('createdAt')}
      {date('editedAt', { emptyText: 'console.comments.never' })}
      {pick(STAMPS, ['updatedAt', 'id'])}
    </RecordShow>
  );
}
