import { Create, SimpleForm, type RaRecord } from 'react-admin';
import { withoutEmpty } from '../common/withoutEmpty';
import { backToProductSplits, SplitFields, toSplitWrite } from './SplitForm';

export function SplitCreate() {
  return (
    <Create
      redirect={backToProductSplits}
      transform={(data: RaRecord) => withoutEmpty(toSplitWrite(data))}
      title="resources.product-revenue-splits.newTitle"
    >
      <SimpleForm defaultValues={{ type: 'owner' }}>
        <SplitFields productFixed={false} />
      </SimpleForm>
    </Create>
  );
}
