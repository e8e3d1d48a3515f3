import { Alert } from '@mui/material';
import { DateField, Edit, Labeled, NumberField, ReferenceField, SelectInput, SimpleForm } from 'react-admin';
import { MoneyField } from '../common/MoneyField';
import { SaveOnlyToolbar } from '../common/SaveOnlyToolbar';
import { choicesOf } from '../common/chipLooks';
import { PAYMENT_PLAN_STATUS_LOOKS } from './choices';

/** A plan's terms never change in place (the subscriptions paying it name it): it is only archived, no longer offered. */
export function PaymentPlanEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect="show">
      <SimpleForm toolbar={<SaveOnlyToolbar />}>
        <Alert severity="info" sx={{ mb: 2 }}>
          Archiving stops offering the plan on the sales page; learners paying it go on paying. Different terms are a
          new plan, added from the product.
        </Alert>
        <Labeled>
          <ReferenceField source="productId" reference="products" link="show" />
        </Labeled>
        <Labeled>
          <NumberField source="instalments" />
        </Labeled>
        <Labeled>
          <MoneyField source="instalmentAmount" />
        </Labeled>
        <Labeled>
          <DateField source="createdAt" showTime />
        </Labeled>
        <SelectInput source="status" choices={choicesOf(PAYMENT_PLAN_STATUS_LOOKS)} />
      </SimpleForm>
    </Edit>
  );
}
