import AssuredWorkloadIcon from '@mui/icons-material/AssuredWorkload';
import { lazyScreen } from '../common/lazyScreen';
import type { TaxRegistration } from './TaxRegistrationScreens';

const TaxRegistrationList = lazyScreen(() => import('./TaxRegistrationScreens'), 'TaxRegistrationList');
const TaxRegistrationCreate = lazyScreen(() => import('./TaxRegistrationScreens'), 'TaxRegistrationCreate');

export default {
  list: TaxRegistrationList,
  create: TaxRegistrationCreate,
  icon: AssuredWorkloadIcon,
  recordRepresentation: (r: TaxRegistration) => (r.region ? `${r.country}-${r.region}` : r.country),
};
