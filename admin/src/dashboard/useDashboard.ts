import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import { retryUnanswered, type ConsoleDataProvider } from '../dataProvider';
import type { DashboardSummary } from './types';

/** The last `days` days' sales; the previous period's figures stay until the new ones come. */
export function useDashboard(days: number) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  return useQuery<DashboardSummary>({
    queryKey: ['dashboard', 'getDashboard', days],
    queryFn: ({ signal }) => dataProvider.getDashboard(days, { signal }).then(({ data }) => data),
    placeholderData: keepPreviousData,
    retry: retryUnanswered,
  });
}
