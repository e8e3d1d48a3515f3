import { DeleteButton, ListButton, TopToolbar, usePermissions } from 'react-admin';
import { text } from '../common/columns';
import { RecordShow } from '../common/RecordShow';
import { canWrite } from '../permissions';
import { upgradeColumns } from './UpgradableProductList';

function Actions() {
  const { permissions } = usePermissions();
  return (
    <TopToolbar>
      <ListButton />
      {canWrite(permissions, 'upgradable-products') ? (
        <DeleteButton
          mutationMode="pessimistic"
          label="resources.upgradable-products.remove"
          confirmTitle="resources.upgradable-products.removeTitle"
          confirmContent="resources.upgradable-products.removeContent"
        />
      ) : null}
    </TopToolbar>
  );
}

export function UpgradableProductShow() {
  return (
    <RecordShow actions={<Actions />} title="resources.upgradable-products.title">
      {[...upgradeColumns, text('id')]}
    </RecordShow>
  );
}
