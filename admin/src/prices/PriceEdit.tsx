import { Alert } from '@mui/material';
import { DateField, Edit, Labeled, ReferenceField, SimpleForm, TextInput, maxLength } from 'react-admin';
import { MoneyField } from '../common/MoneyField';
import { SaveOnlyToolbar } from '../common/SaveOnlyToolbar';

/** Only the nickname changes in place; a different amount is a new price (created from the product). */
export function PriceEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect="show">
      <SimpleForm toolbar={<SaveOnlyToolbar />}>
        <Alert severity="info" sx={{ mb: 2 }}>
          An amount never changes in place. To charge a different amount, add a new price to the product.
        </Alert>
        <Labeled>
          <ReferenceField source="productId" reference="products" link="show" />
        </Labeled>
        <Labeled>
          <MoneyField source="unitAmount" />
        </Labeled>
        <Labeled>
          <DateField source="createdAt" showTime />
        </Labeled>
        <TextInput source="nickname" validate={maxLength(120)} />
      </SimpleForm>
    </Edit>
  );
}
