import { lazy } from 'react';

// The chart library loads only when there are figures to draw (one chunk for the refunds' and disputes' charts).
export const RefundAmountChart = lazy(() => import('./charts').then((m) => ({ default: m.RefundAmountChart })));
export const DisputeWeeksChart = lazy(() => import('./charts').then((m) => ({ default: m.DisputeWeeksChart })));
