import UpgradeIcon from '@mui/icons-material/Upgrade';
import { UpgradableProductCreate } from './UpgradableProductCreate';
import { UpgradableProductList } from './UpgradableProductList';
import { UpgradableProductShow } from './UpgradableProductShow';

export default {
  list: UpgradableProductList,
  show: UpgradableProductShow,
  create: UpgradableProductCreate,
  icon: UpgradeIcon,
  recordRepresentation: () => 'Upgrade path',
};
