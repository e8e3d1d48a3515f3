import { DateField, Show, SimpleShowLayout, TextField } from 'react-admin';
import { ContentRefField, UserRefField } from '../content-resources/shared';

export function LessonProgressShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <UserRefField source="userId" />
        <ContentRefField source="lessonId" />
        <ContentRefField source="sectionId" />
        <ContentRefField source="moduleId" />
        <TextField source="lessonSlug" emptyText="—" />
        <TextField source="lessonVersion" emptyText="—" />
        <DateField source="completedAt" showTime emptyText="Not completed" />
        <DateField source="createdAt" showTime />
        <DateField source="updatedAt" showTime />
        <TextField source="id" />
      </SimpleShowLayout>
    </Show>
  );
}
