import { DateField, NumberField, Show, SimpleShowLayout, TextField } from 'react-admin';
import { ContentRefField } from '../content-resources/shared';
import { TierField } from './TierField';

export function ContentLinkShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <ContentRefField source="resourceOfId" />
        <ContentRefField source="resourceId" />
        <NumberField source="position" />
        <TierField source="metadata.tier" />
        <DateField source="createdAt" showTime />
        <DateField source="updatedAt" showTime />
        <TextField source="id" />
      </SimpleShowLayout>
    </Show>
  );
}
