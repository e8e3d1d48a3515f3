import { DateField, Show, SimpleShowLayout, TextField } from 'react-admin';
import { ACTIVE_INACTIVE, StatusChipField } from '../common/StatusChipField';

export function MerchantAccountShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <TextField source="label" />
        <TextField source="identifier" />
        <StatusChipField source="status" looks={ACTIVE_INACTIVE} />
        <DateField source="createdAt" showTime />
        <TextField source="id" />
      </SimpleShowLayout>
    </Show>
  );
}
