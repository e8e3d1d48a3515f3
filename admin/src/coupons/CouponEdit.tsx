import { Edit, SimpleForm } from 'react-admin';
import { SaveAndDeleteToolbar } from '../common/SaveAndDeleteToolbar';
import { CouponFields, withDurationPeriods } from './CouponForm';

const toolbar = (
  <SaveAndDeleteToolbar
    confirmTitle="Delete this coupon?"
    confirmContent="This cannot be undone. A coupon that purchases used cannot be deleted; set it to inactive instead."
  />
);

export function CouponEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect="show" transform={withDurationPeriods}>
      <SimpleForm toolbar={toolbar} warnWhenUnsavedChanges>
        <CouponFields />
      </SimpleForm>
    </Edit>
  );
}
