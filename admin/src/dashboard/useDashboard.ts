import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import { retryUnanswered, type ConsoleDataProvider } from '../dataProvider';
import type { DashboardSummary } from './types';

/**
 * The last `days` days' sales, their money in `currency` (or, not yet chosen, in the one the API picks: the one sold
 * most); the previous figures stay until the new ones come.
 */
export function useDashboard(days: number, currency?: string) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  return useQuery<DashboardSummary>({
    queryKey: ['dashboard', 'getDashboard', days, currency],
    queryFn: ({ signal }) => dataProvider.getDashboard({ days, currency }, { signal }).then(({ data }) => data),
    placeholderData: keepPreviousData,
    retry: retryUnanswered,
  });
}
