import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import { lazyScreen } from '../common/lazyScreen';
import { TRANSFER_STATE_LOOKS, type PurchaseUserTransfer } from './choices';

const TransferList = lazyScreen(() => import('./TransferScreens'), 'TransferList');
const TransferShow = lazyScreen(() => import('./TransferScreens'), 'TransferShow');

export default {
  list: TransferList,
  show: TransferShow,
  icon: SwapHorizIcon,
  recordRepresentation: (t: PurchaseUserTransfer) =>
    `Transfer ${TRANSFER_STATE_LOOKS[t.transferState]?.label ?? t.transferState}`,
};
