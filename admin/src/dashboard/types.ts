import type { Dashboard } from '@contract/admin/schemas/dashboard';
import type { Wire } from '@contract/shared/wire';

/** GET /api/admin/dashboard, as dataProvider.getDashboard answers it: money in cents, days in UTC. */
export type DashboardSummary = Wire<Dashboard>;
