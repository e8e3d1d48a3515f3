import TuneIcon from '@mui/icons-material/Tune';
import { lazyScreen } from '../common/lazyScreen';

const UserPrefsList = lazyScreen(() => import('./UserPrefsList'), 'UserPrefsList');
const UserPrefsShow = lazyScreen(() => import('./UserPrefsShow'), 'UserPrefsShow');

/** Read-only: learners' own settings. */
export default {
  list: UserPrefsList,
  show: UserPrefsShow,
  icon: TuneIcon,
  recordRepresentation: (p: { type: string }) => `${p.type === 'local' ? 'Per-content' : 'Global'} preferences`,
};
