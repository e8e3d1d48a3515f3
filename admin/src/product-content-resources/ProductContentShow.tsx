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
        label="resources.products.grants.remove"
        confirmTitle="resources.products.grants.removeTitle"
        confirmContent="resources.products.grants.removeContentKept"
      />
    </TopToolbar>
  );
}

export function ProductContentShow() {
  return <RecordShow actions={<ShowActions />}>{[...grantColumns, text('id')]}</RecordShow>;
}
