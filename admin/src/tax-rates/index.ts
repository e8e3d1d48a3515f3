import PercentIcon from '@mui/icons-material/Percent';
import { lazyScreen } from '../common/lazyScreen';
import { bpToPercent } from './rate';
import { placeOf, type TaxRate } from './types';

const TaxRateList = lazyScreen(() => import('./TaxRateScreens'), 'TaxRateList');
const TaxRateCreate = lazyScreen(() => import('./TaxRateScreens'), 'TaxRateCreate');
const TaxRateEdit = lazyScreen(() => import('./TaxRateScreens'), 'TaxRateEdit');

export default {
  list: TaxRateList,
  create: TaxRateCreate,
  edit: TaxRateEdit,
  icon: PercentIcon,
  recordRepresentation: (r: TaxRate) => `${placeOf(r)} ${bpToPercent(r.rateBp)} % ${r.name}`,
};
