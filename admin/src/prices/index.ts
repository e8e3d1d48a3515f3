import SellIcon from '@mui/icons-material/Sell';
import { formatMoney } from '../common/money';
import type { Price } from './choices';
import { lazyScreen } from '../common/lazyScreen';

const PriceCreate = lazyScreen(() => import('./PriceCreate'), 'PriceCreate');
const PriceEdit = lazyScreen(() => import('./PriceEdit'), 'PriceEdit');
const PriceList = lazyScreen(() => import('./PriceList'), 'PriceList');
const PriceShow = lazyScreen(() => import('./PriceShow'), 'PriceShow');

export default {
  list: PriceList,
  show: PriceShow,
  edit: PriceEdit,
  create: PriceCreate,
  icon: SellIcon,
  recordRepresentation: (price: Price) =>
    `${formatMoney(price.unitAmount, price.currency)}${price.nickname ? ` · ${price.nickname}` : ''}${price.status === 'archived' ? ' (archived)' : ''}`,
};
