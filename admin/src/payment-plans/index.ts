import CalendarMonthIcon from '@mui/icons-material/CalendarMonth';
import { formatMoney } from '../common/money';
import { lazyScreen } from '../common/lazyScreen';
import type { PaymentPlan } from './choices';

const PaymentPlanCreate = lazyScreen(() => import('./PaymentPlanCreate'), 'PaymentPlanCreate');
const PaymentPlanEdit = lazyScreen(() => import('./PaymentPlanEdit'), 'PaymentPlanEdit');
const PaymentPlanList = lazyScreen(() => import('./PaymentPlanList'), 'PaymentPlanList');
const PaymentPlanShow = lazyScreen(() => import('./PaymentPlanShow'), 'PaymentPlanShow');

/** Courses in monthly instalments (docs/domain.md §23): one offered per product, beside its price. */
export default {
  list: PaymentPlanList,
  show: PaymentPlanShow,
  edit: PaymentPlanEdit,
  create: PaymentPlanCreate,
  icon: CalendarMonthIcon,
  recordRepresentation: (plan: PaymentPlan) =>
    `${plan.instalments} × ${formatMoney(plan.instalmentAmount, plan.currency)}${plan.status === 'archived' ? ' (archived)' : ''}`,
};
