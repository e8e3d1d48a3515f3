import { httpClient } from '../../dataProvider';
import type { TreeNode } from '../types';

const BASE = '/api/admin/content-resources';

/** GET …/:id/tree: the resource and everything under it, each level ordered by position. */
export async function fetchTree(id: string): Promise<TreeNode> {
  const { json } = await httpClient(`${BASE}/${encodeURIComponent(id)}/tree`);
  return json as TreeNode;
}

/** POST …/:id/reorder: the parent's children (content ids), each exactly once, in their new order → 204. */
export async function reorderChildren(parentId: string, childIds: readonly string[]): Promise<void> {
  await httpClient(`${BASE}/${encodeURIComponent(parentId)}/reorder`, {
    method: 'POST',
    body: JSON.stringify({ childIds }),
  });
}

export const treeQueryKey = (id: string) => ['content-resources', 'tree', id] as const;

/** Moves the item at `from` to `to`, keeping the others in order. */
export function moved<T>(items: readonly T[], from: number, to: number): T[] {
  const result = [...items];
  const [item] = result.splice(from, 1);
  if (item !== undefined) result.splice(to, 0, item);
  return result;
}
