import { DeleteButton, EditButton, TopToolbar, usePermissions } from 'react-admin';
import { text } from '../common/columns';
import { RecordShow } from '../common/RecordShow';
import { canWrite } from '../permissions';
import { grantColumns } from './ProductContentList';

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
  return <RecordShow actions={<ShowActions />}>{[...grantColumns, text('id')]}</RecordShow>;
}
