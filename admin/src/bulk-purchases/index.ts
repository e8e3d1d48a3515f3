import GroupsIcon from '@mui/icons-material/Groups';
import { lazyScreen } from '../common/lazyScreen';
import type { TeamPurchase } from './types';

const TeamList = lazyScreen(() => import('./TeamList'), 'TeamList');
const TeamShow = lazyScreen(() => import('./TeamShow'), 'TeamShow');

export default {
  list: TeamList,
  show: TeamShow,
  icon: GroupsIcon,
  recordRepresentation: (t: TeamPurchase) => `Team of ${t.seatsTotal} · ${String(t.createdAt).slice(0, 10)}`,
};
