import type { Dashboard } from '@contract/admin/schemas/dashboard';
import type { Wire } from '@contract/shared/wire';

/** GET /api/admin/dashboard, as dataProvider.getDashboard answers it: money in cents, days in UTC. */
export type DashboardSummary = Wire<Dashboard>;

/** The finance view (finance and admins): money and activity. */
export type FinanceSummary = Extract<DashboardSummary, { view: 'finance' }>;

/** Support's view: the work, counted, without finance figures. */
export type SupportSummary = Extract<DashboardSummary, { view: 'support' }>;
