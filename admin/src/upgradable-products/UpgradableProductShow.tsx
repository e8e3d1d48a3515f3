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
          label="Remove"
          confirmTitle="Remove this upgrade path?"
          confirmContent="Owners of the first product will no longer get credit towards the second. Past purchases are not affected."
        />
      ) : null}
    </TopToolbar>
  );
}

export function UpgradableProductShow() {
  return (
    <RecordShow actions={<Actions />} title="Upgrade path">
      {[...upgradeColumns, text('id')]}
    </RecordShow>
  );
}
