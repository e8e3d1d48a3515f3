import { DateField, Show, SimpleShowLayout, TextField } from 'react-admin';
import { ContentRefField, JsonField, UserRefField } from '../content-resources/shared';

export function BookmarkShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <UserRefField source="userId" />
        <ContentRefField source="resourceId" />
        <TextField source="type" />
        <JsonField source="fields" />
        <DateField source="createdAt" showTime />
        <DateField source="updatedAt" showTime />
        <TextField source="id" />
      </SimpleShowLayout>
    </Show>
  );
}
