import {
  DateField,
  DeleteButton,
  EditButton,
  NumberField,
  Show,
  SimpleShowLayout,
  TextField,
  TopToolbar,
  usePermissions,
} from 'react-admin';
import { canWrite } from '../permissions';
import { ContentRefField } from '../content-resources/shared';
import { ProductRefField } from './ProductRefField';

function ShowActions() {
  const { permissions } = usePermissions();
  if (!canWrite(permissions, 'product-content-resources')) return <TopToolbar />;
  return (
    <TopToolbar>
      <EditButton />
      <DeleteButton
        mutationMode="pessimistic"
        label="Remove grant"
        confirmTitle="Stop granting this content?"
        confirmContent="Buyers of the product lose access to this content unless another product grants it. The content itself is kept."
      />
    </TopToolbar>
  );
}

export function ProductContentShow() {
  return (
    <Show actions={<ShowActions />}>
      <SimpleShowLayout>
        <ProductRefField source="productId" />
        <ContentRefField source="resourceId" />
        <NumberField source="position" />
        <DateField source="createdAt" showTime />
        <TextField source="id" />
      </SimpleShowLayout>
    </Show>
  );
}
