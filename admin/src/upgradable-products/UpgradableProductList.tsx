import UpgradeOutlinedIcon from '@mui/icons-material/UpgradeOutlined';
import { CreateButton } from 'react-admin';
import { date, ref } from '../common/columns';
import { referenceFilter } from '../common/filters';
import { RecordList } from '../common/RecordList';

const filters = [
  referenceFilter('upgradableFromId', 'products', { alwaysOn: true }),
  referenceFilter('upgradableToId', 'products', { alwaysOn: true }),
];

/** An upgrade path's columns; its page shows them too. */
export const upgradeColumns = [
  ref('upgradableFromId', 'products'),
  ref('upgradableToId', 'products'),
  date('createdAt'),
];

export function UpgradableProductList() {
  return (
    <RecordList
      filters={filters}
      icon={UpgradeOutlinedIcon}
      emptyAction={<CreateButton label="resources.upgradable-products.create" />}
    >
      {upgradeColumns}
    </RecordList>
  );
}
