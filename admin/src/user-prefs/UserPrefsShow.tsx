import { DateField, Show, SimpleShowLayout, TextField } from 'react-admin';
import { ContentRefField, JsonField, UserRefField } from '../content-resources/shared';

export function UserPrefsShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <UserRefField source="userId" />
        <TextField source="type" />
        <ContentRefField source="resourceId" />
        <JsonField source="fields" />
        <DateField source="createdAt" showTime />
        <DateField source="updatedAt" showTime />
        <TextField source="id" />
      </SimpleShowLayout>
    </Show>
  );
}
