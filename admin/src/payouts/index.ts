import PaymentsIcon from '@mui/icons-material/Payments';
import { formatMoney } from '../../../api/src/shared/money';
import { lazyScreen } from '../common/lazyScreen';
import type { PayoutRecord } from './looks';

const PayoutList = lazyScreen(() => import('./PayoutScreens'), 'PayoutList');
const PayoutShow = lazyScreen(() => import('./PayoutScreens'), 'PayoutShow');

export default {
  list: PayoutList,
  show: PayoutShow,
  icon: PaymentsIcon,
  recordRepresentation: (p: PayoutRecord) => formatMoney(p.amount, p.currency),
};
