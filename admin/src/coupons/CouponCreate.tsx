import { Create, SimpleForm, type RaRecord } from 'react-admin';
import { withoutEmpty } from '../common/withoutEmpty';
import { CouponFields, withDurationPeriods } from './CouponForm';

export function CouponCreate() {
  return (
    <Create redirect="show" transform={(data: RaRecord) => withDurationPeriods(withoutEmpty(data))}>
      <SimpleForm defaultValues={{ maxUses: -1, status: 'active', default: false, duration: 'once' }}>
        <CouponFields />
      </SimpleForm>
    </Create>
  );
}
