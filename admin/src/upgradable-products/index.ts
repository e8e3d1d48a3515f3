import UpgradeIcon from '@mui/icons-material/Upgrade';
import { lazyScreen } from '../common/lazyScreen';

const UpgradableProductCreate = lazyScreen(() => import('./UpgradableProductCreate'), 'UpgradableProductCreate');
const UpgradableProductList = lazyScreen(() => import('./UpgradableProductList'), 'UpgradableProductList');
const UpgradableProductShow = lazyScreen(() => import('./UpgradableProductShow'), 'UpgradableProductShow');

export default {
  list: UpgradableProductList,
  show: UpgradableProductShow,
  create: UpgradableProductCreate,
  icon: UpgradeIcon,
  recordRepresentation: () => 'Upgrade path',
};
