import { DeleteButton, Edit, SaveButton, SimpleForm, Toolbar } from 'react-admin';
import { CouponFields } from './CouponForm';

function CouponToolbar() {
  return (
    <Toolbar sx={{ justifyContent: 'space-between' }}>
      <SaveButton />
      <DeleteButton
        mutationMode="pessimistic"
        confirmTitle="Delete this coupon?"
        confirmContent="This cannot be undone. A coupon that purchases used cannot be deleted; set it to inactive instead."
      />
    </Toolbar>
  );
}

export function CouponEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect="show">
      <SimpleForm toolbar={<CouponToolbar />}>
        <CouponFields />
      </SimpleForm>
    </Edit>
  );
}
