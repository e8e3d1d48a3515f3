import AccountBalanceWalletIcon from '@mui/icons-material/AccountBalanceWallet';
import { lazyScreen } from '../common/lazyScreen';

const RecipientList = lazyScreen(() => import('./RecipientScreens'), 'RecipientList');
const RecipientShow = lazyScreen(() => import('./RecipientScreens'), 'RecipientShow');
const RecipientCreate = lazyScreen(() => import('./RecipientScreens'), 'RecipientCreate');
const RecipientEdit = lazyScreen(() => import('./RecipientScreens'), 'RecipientEdit');

export default {
  list: RecipientList,
  show: RecipientShow,
  create: RecipientCreate,
  edit: RecipientEdit,
  icon: AccountBalanceWalletIcon,
  recordRepresentation: 'stripeAccountId',
};
