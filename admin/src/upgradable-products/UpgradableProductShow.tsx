import {
  DateField,
  DeleteButton,
  ListButton,
  ReferenceField,
  Show,
  SimpleShowLayout,
  TextField,
  TopToolbar,
  usePermissions,
} from 'react-admin';
import { canWrite } from '../permissions';

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
    <Show actions={<Actions />} title="Upgrade path">
      <SimpleShowLayout>
        <ReferenceField source="upgradableFromId" reference="products" link="show" />
        <ReferenceField source="upgradableToId" reference="products" link="show" />
        <DateField source="createdAt" showTime />
        <TextField source="id" />
      </SimpleShowLayout>
    </Show>
  );
}
