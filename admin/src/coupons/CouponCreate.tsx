import { Create, SimpleForm, type RaRecord } from 'react-admin';
import { withoutEmpty } from '../common/withoutEmpty';
import { CouponFields } from './CouponForm';

export function CouponCreate() {
  return (
    <Create redirect="show" transform={(data: RaRecord) => withoutEmpty(data)}>
      <SimpleForm defaultValues={{ maxUses: -1, status: 'active', default: false }}>
        <CouponFields />
      </SimpleForm>
    </Create>
  );
}
