import { DateField, ReferenceField, SelectField, Show, SimpleShowLayout, TextField } from 'react-admin';
import { PercentField } from '../common/MoneyField';
import { SPLIT_TYPE_CHOICES } from './choices';

export function SplitShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <ReferenceField source="productId" reference="products" link="show" />
        <SelectField source="type" choices={SPLIT_TYPE_CHOICES} />
        <ReferenceField source="userId" reference="users" link="show" emptyText="The platform" />
        <PercentField source="percent" />
        <DateField source="createdAt" showTime />
        <TextField source="id" />
      </SimpleShowLayout>
    </Show>
  );
}
