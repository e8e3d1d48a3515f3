import TuneIcon from '@mui/icons-material/Tune';
import { UserPrefsList } from './UserPrefsList';
import { UserPrefsShow } from './UserPrefsShow';

/** Read-only: learners' own settings. */
export default {
  list: UserPrefsList,
  show: UserPrefsShow,
  icon: TuneIcon,
  recordRepresentation: (p: { type: string }) => `${p.type === 'local' ? 'Per-content' : 'Global'} preferences`,
};
