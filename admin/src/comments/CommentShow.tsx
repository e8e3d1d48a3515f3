import { DateField, Show, SimpleShowLayout, TextField, TopToolbar, useRecordContext, useTranslate } from 'react-admin';
import { ContentRefField, JsonField, UserRefField } from '../content-resources/shared';
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
    <Show actions={<CommentActions />} title={<CommentTitle />}>
      <SimpleShowLayout>
        <UserRefField source="userId" />
        <ContentRefField source="context.resourceId" />
        <TextField source="context.category" emptyText="—" />
        <TextField source="text" sx={{ whiteSpace: 'pre-wrap' }} />
        <VisibilityField label="resources.comments.fields.hidden" />
        <DateField source="hiddenAt" showTime emptyText="—" />
        <UserRefField source="hiddenById" />
        <JsonField source="context" />
        <DateField source="createdAt" showTime />
        <DateField source="editedAt" showTime emptyText="console.comments.never" />
        <DateField source="updatedAt" showTime />
        <TextField source="id" />
      </SimpleShowLayout>
    </Show>
  );
}
