import EventAvailableIcon from '@mui/icons-material/EventAvailable';
import { lazyScreen } from '../common/lazyScreen';
import type { MonthCloseRow } from './looks';

const MonthCloseList = lazyScreen(() => import('./MonthCloseScreens'), 'MonthCloseList');
const MonthCloseShow = lazyScreen(() => import('./MonthCloseScreens'), 'MonthCloseShow');

export default {
  list: MonthCloseList,
  show: MonthCloseShow,
  icon: EventAvailableIcon,
  recordRepresentation: (m: MonthCloseRow) => m.month,
};
