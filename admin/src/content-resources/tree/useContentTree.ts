import { useCallback } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { ConsoleDataProvider } from '../../dataProvider';
import type { TreeNode } from '../types';

/**
 * The outline under `rootId` (dataProvider.getContentTree), and `reload`: the outline again, with the links' lists
 * (a change to the outline is a change to its links).
 */
export function useContentTree(rootId: string) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const queryClient = useQueryClient();
  const query = useQuery<TreeNode>({
    queryKey: ['content-resources', 'getContentTree', rootId],
    queryFn: ({ signal }) => dataProvider.getContentTree(rootId, { signal }).then(({ data }) => data),
    // One retry for server or network trouble; a 4xx (not found, forbidden) will not change by asking again.
    retry: (failures, failure) => failures < 1 && !(Number((failure as { status?: unknown }).status) < 500),
  });
  const { refetch } = query;
  const reload = useCallback(async () => {
    await Promise.all([refetch(), queryClient.invalidateQueries({ queryKey: ['content-resource-resources'] })]);
  }, [refetch, queryClient]);
  return { query, reload };
}

/** Moves the item at `from` to `to`, keeping the others in order. */
export function moved<T>(items: readonly T[], from: number, to: number): T[] {
  const result = [...items];
  const [item] = result.splice(from, 1);
  if (item !== undefined) result.splice(to, 0, item);
  return result;
}
