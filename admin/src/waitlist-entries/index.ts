import HourglassEmptyIcon from '@mui/icons-material/HourglassEmpty';
import { WaitlistList } from './WaitlistList';
import { WaitlistShow } from './WaitlistShow';

export default {
  list: WaitlistList,
  show: WaitlistShow,
  icon: HourglassEmptyIcon,
  recordRepresentation: (entry: { email: string }) => entry.email,
};
