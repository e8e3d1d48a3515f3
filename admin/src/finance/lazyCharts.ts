import { lazy } from 'react';

// The chart library loads only when there are figures to draw (one chunk for the page's charts).
export const RevenueOverTimeChart = lazy(() =>
  import('./FinanceCharts').then((m) => ({ default: m.RevenueOverTimeChart })),
);
export const ProductRevenueChart = lazy(() =>
  import('./FinanceCharts').then((m) => ({ default: m.ProductRevenueChart })),
);
export const RecipientShareChart = lazy(() =>
  import('./FinanceCharts').then((m) => ({ default: m.RecipientShareChart })),
);
export const TaxOverTimeChart = lazy(() => import('./FinanceCharts').then((m) => ({ default: m.TaxOverTimeChart })));
