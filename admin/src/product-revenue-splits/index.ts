import PieChartIcon from '@mui/icons-material/PieChart';
import { lazyScreen } from '../common/lazyScreen';
import { formatPercent } from '../common/money';
import { SPLIT_TYPE_CHOICES, type RevenueSplit } from './choices';

const SplitList = lazyScreen(() => import('./SplitList'), 'SplitList');
const SplitShow = lazyScreen(() => import('./SplitShow'), 'SplitShow');
const SplitEdit = lazyScreen(() => import('./SplitEdit'), 'SplitEdit');
const SplitCreate = lazyScreen(() => import('./SplitCreate'), 'SplitCreate');

export default {
  list: SplitList,
  show: SplitShow,
  edit: SplitEdit,
  create: SplitCreate,
  icon: PieChartIcon,
  recordRepresentation: (s: RevenueSplit) =>
    `${SPLIT_TYPE_CHOICES.find((c) => c.id === s.type)?.name ?? s.type} ${formatPercent(s.percent)}`,
};
