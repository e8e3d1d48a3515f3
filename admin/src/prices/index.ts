import SellIcon from '@mui/icons-material/Sell';
import { formatMoney } from '../common/money';
import type { Price } from './choices';
import { PriceCreate } from './PriceCreate';
import { PriceEdit } from './PriceEdit';
import { PriceList } from './PriceList';
import { PriceShow } from './PriceShow';

export default {
  list: PriceList,
  show: PriceShow,
  edit: PriceEdit,
  create: PriceCreate,
  icon: SellIcon,
  recordRepresentation: (price: Price) =>
    `${formatMoney(price.unitAmount, price.currency)}${price.nickname ? ` · ${price.nickname}` : ''}${price.status === 'archived' ? ' (archived)' : ''}`,
};
