import HourglassEmptyIcon from '@mui/icons-material/HourglassEmpty';
import { lazyScreen } from '../common/lazyScreen';

const WaitlistList = lazyScreen(() => import('./WaitlistList'), 'WaitlistList');
const WaitlistShow = lazyScreen(() => import('./WaitlistShow'), 'WaitlistShow');

export default {
  list: WaitlistList,
  show: WaitlistShow,
  icon: HourglassEmptyIcon,
  recordRepresentation: (entry: { email: string }) => entry.email,
};
