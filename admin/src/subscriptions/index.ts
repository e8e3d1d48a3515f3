import AutorenewIcon from '@mui/icons-material/Autorenew';
import { lazyScreen } from '../common/lazyScreen';
import type { PeriodRecord, SubscriptionRecord } from './looks';

const SubscriptionList = lazyScreen(() => import('./SubscriptionScreens'), 'SubscriptionList');
const SubscriptionShow = lazyScreen(() => import('./SubscriptionScreens'), 'SubscriptionShow');
const SubscriptionPeriodList = lazyScreen(() => import('./SubscriptionScreens'), 'SubscriptionPeriodList');

export const subscriptions = {
  list: SubscriptionList,
  show: SubscriptionShow,
  icon: AutorenewIcon,
  recordRepresentation: (s: SubscriptionRecord) => `${s.status} · ${String(s.createdAt).slice(0, 10)}`,
};

export const subscriptionPeriods = {
  list: SubscriptionPeriodList,
  icon: AutorenewIcon,
  recordRepresentation: (p: PeriodRecord) => `${p.outcome} · ${String(p.periodStart).slice(0, 10)}`,
};
