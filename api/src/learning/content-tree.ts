import type { Actor } from '../audit/record';
import { recordAudit } from '../audit/record';
import type { Db } from '../db/connection';
import { AppError } from '../http/errors';
import type { Role } from '../identity/roles';
import { ContentResource, ContentResourceResource } from './models';
import type { TreeNode } from './schemas';

const MAX_DEPTH = 6;

/** The course tree (course → modules → sections → lessons) for the console, and reordering within a parent. */
/** `changed` runs after a committed reorder: the storefront's read caches forget the old order. */
export function contentTree({ db, changed = () => {} }: { db: Db; changed?: () => void }) {
  return {
    async tree(rootId: string): Promise<TreeNode> {
      const root = await ContentResource.query(db).findById(rootId).whereNull('deletedAt');
      if (!root) throw new AppError('not-found', 'No such content.');
      // One recursive query for the whole tree, in order. (Raw results keep their column names as written.)
      const { rows } = await db.raw(
        `WITH RECURSIVE tree AS (
           SELECT l.id AS link_id, l.resource_of_id AS parent_id, l.resource_id, l.position, l.metadata, 1 AS depth
             FROM content_resource_resources l WHERE l.resource_of_id = ? AND l.deleted_at IS NULL
           UNION ALL
           SELECT l.id, l.resource_of_id, l.resource_id, l.position, l.metadata, t.depth + 1
             FROM content_resource_resources l JOIN tree t ON l.resource_of_id = t.resource_id
            WHERE l.deleted_at IS NULL AND t.depth < ?
         )
         SELECT t.link_id AS "linkId", t.parent_id AS "parentId", t.position, t.metadata->>'tier' AS tier,
                r.id, r.type, r.fields->>'title' AS title, r.fields->>'slug' AS slug, r.fields->>'state' AS state
           FROM tree t JOIN content_resources r ON r.id = t.resource_id AND r.deleted_at IS NULL
          ORDER BY t.depth, t.position, r.id`,
        [rootId, MAX_DEPTH],
      );
      const nodes = new Map<string, TreeNode>();
      const top: TreeNode = {
        id: root.id,
        type: root.type,
        title: root.fields.title ?? '',
        slug: root.fields.slug ?? null,
        state: root.fields.state ?? null,
        children: [],
      };
      nodes.set(root.id, top);
      for (const row of rows as Record<string, string | number | null>[]) {
        const node: TreeNode = {
          id: row.id as string,
          type: row.type as string,
          title: (row.title as string) ?? '',
          slug: row.slug as string | null,
          state: row.state as string | null,
          link: { id: row.linkId as string, position: Number(row.position), tier: row.tier as string | null },
          children: [],
        };
        nodes.get(row.parentId as string)?.children.push(node);
        nodes.set(node.id, node);
      }
      return top;
    },

    /** Writes positions 0..n-1 on the parent's links in the order given; the list must be exactly its children. */
    async reorder(
      parentId: string,
      childIds: string[],
      actor: Actor & { roles: readonly Role[] },
      requestId: string | null,
    ): Promise<void> {
      await db.transaction(async (trx) => {
        const parent = await ContentResource.query(trx).findById(parentId).whereNull('deletedAt').forUpdate();
        if (!parent) throw new AppError('not-found', 'No such content.');
        if (!actor.roles.some((r) => r === 'admin' || r === 'support') && parent.createdById !== actor.id) {
          throw new AppError('forbidden', 'Contributors can change only the content they created.');
        }
        const links = await ContentResourceResource.query(trx)
          .where({ resourceOfId: parentId })
          .whereNull('deletedAt')
          .whereNotExists(
            trx('contentResources')
              .whereRaw('content_resources.id = content_resource_resources.resource_id')
              .whereNotNull('deletedAt'),
          )
          .orderBy('position');
        const current = links.map((l) => l.resourceId);
        if (
          childIds.length !== current.length ||
          new Set(childIds).size !== childIds.length ||
          !childIds.every((id) => current.includes(id))
        ) {
          const message = 'must list each child of this content exactly once';
          throw new AppError('validation-failed', `childIds ${message}`, { childIds: message });
        }
        for (const [position, resourceId] of childIds.entries()) {
          await ContentResourceResource.query(trx).patch({ position }).where({ resourceOfId: parentId, resourceId });
        }
        await recordAudit(trx, {
          actor,
          requestId,
          action: 'reorder',
          resource: 'content-resources',
          recordId: parentId,
          before: { childIds: current },
          after: { childIds },
        });
      });
      changed();
    },
  };
}

export type ContentTree = ReturnType<typeof contentTree>;
