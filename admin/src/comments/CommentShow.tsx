import { DateField, Show, SimpleShowLayout, TextField } from 'react-admin';
import { ContentRefField, JsonField, UserRefField } from '../content-resources/shared';

export function CommentShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <UserRefField source="userId" />
        <ContentRefField source="context.resourceId" />
        <TextField source="context.category" emptyText="—" />
        <TextField source="text" sx={{ whiteSpace: 'pre-wrap' }} />
        <JsonField source="context" />
        <DateField source="createdAt" showTime />
        <DateField source="updatedAt" showTime />
        <TextField source="id" />
      </SimpleShowLayout>
    </Show>
  );
}
