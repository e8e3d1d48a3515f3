import { DeleteButton, Edit, SaveButton, SimpleForm, Toolbar, useRecordContext } from 'react-admin';
import type { RevenueSplit } from './choices';
import { backToProductSplits, SplitFields, toSplitWrite } from './SplitForm';

function SplitToolbar() {
  const split = useRecordContext<RevenueSplit>();
  return (
    <Toolbar sx={{ justifyContent: 'space-between' }}>
      <SaveButton />
      <DeleteButton
        mutationMode="pessimistic"
        redirect={split ? `/products/${split.productId}/show/splits` : 'list'}
        confirmTitle="Delete this revenue split?"
        confirmContent="Future charges are split without it. Lines already computed for past charges stay as they are."
      />
    </Toolbar>
  );
}

export function SplitEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect={backToProductSplits} transform={toSplitWrite}>
      <SimpleForm toolbar={<SplitToolbar />}>
        <SplitFields productFixed />
      </SimpleForm>
    </Edit>
  );
}
