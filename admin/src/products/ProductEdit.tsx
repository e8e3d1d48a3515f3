import { Edit, SimpleForm, useRecordContext, usePermissions } from 'react-admin';
import { SaveAndDeleteToolbar } from '../common/SaveAndDeleteToolbar';
import { ProductImageInputs } from '../media/ImageUploadInput';
import { canWrite } from '../permissions';
import { ArchiveNote, ProductFields } from './ProductForm';
import { SalesPageInputs } from './SalesPageInputs';
import type { Product } from './choices';

function ProductToolbar() {
  const { permissions } = usePermissions();
  const product = useRecordContext<Product>();
  return (
    <SaveAndDeleteToolbar
      deletable={canWrite(permissions, 'products')}
      confirmTitle={`Delete ${product?.name ?? 'this product'}?`}
      confirmContent="This cannot be undone. Products with purchases cannot be deleted; archive them instead."
    />
  );
}

export function ProductEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect="show">
      <SimpleForm toolbar={<ProductToolbar />} warnWhenUnsavedChanges>
        <ArchiveNote />
        <ProductFields withStatus />
        <ProductImageInputs />
        <SalesPageInputs />
      </SimpleForm>
    </Edit>
  );
}
