import { DeleteButton, Edit, SaveButton, SimpleForm, Toolbar, useRecordContext, usePermissions } from 'react-admin';
import { canWrite } from '../permissions';
import { ArchiveNote, ProductFields } from './ProductForm';
import type { Product } from './choices';

function ProductToolbar() {
  const { permissions } = usePermissions();
  const product = useRecordContext<Product>();
  return (
    <Toolbar sx={{ justifyContent: 'space-between' }}>
      <SaveButton />
      {canWrite(permissions, 'products') ? (
        <DeleteButton
          mutationMode="pessimistic"
          confirmTitle={`Delete ${product?.name ?? 'this product'}?`}
          confirmContent="This cannot be undone. Products with purchases cannot be deleted; archive them instead."
        />
      ) : null}
    </Toolbar>
  );
}

export function ProductEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect="show">
      <SimpleForm toolbar={<ProductToolbar />}>
        <ArchiveNote />
        <ProductFields withStatus />
      </SimpleForm>
    </Edit>
  );
}
