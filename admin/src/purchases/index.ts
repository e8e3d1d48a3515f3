import ShoppingCartIcon from '@mui/icons-material/ShoppingCart';
import { formatMoney } from '../common/money';
import type { Purchase } from './choices';
import { lazyScreen } from '../common/lazyScreen';

const PurchaseList = lazyScreen(() => import('./PurchaseList'), 'PurchaseList');
const PurchaseShow = lazyScreen(() => import('./PurchaseShow'), 'PurchaseShow');

export default {
  list: PurchaseList,
  show: PurchaseShow,
  icon: ShoppingCartIcon,
  recordRepresentation: (p: Purchase) =>
    `${formatMoney(p.totalAmount, p.currency)} · ${String(p.createdAt).slice(0, 10)} · ${p.status}`,
};
