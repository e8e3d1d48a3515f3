import type { Knex } from 'knex';
import type { Actor } from '../audit/record';
import { recordAudit } from '../audit/record';
import type { Db } from '../db/connection';
import { AppError } from '../shared/errors';
import type { Role } from '../shared/roles';
import type { ResourceType } from '../shared/content';
import type { ContentRow } from './models';
import { mayReadContent } from './authorship';
import type { TreeNode } from './schemas';
import { insertWithUniqueSlug, slugify } from './slugs';

const MAX_DEPTH = 6;

type Editor = Actor & { roles: readonly Role[] };
type Reader = { id: string; roles: readonly Role[] };

const mayEditAny = (actor: Editor) => actor.roles.some((r) => r === 'admin' || r === 'support');

/** Content not deleted, locked (FOR UPDATE) for a change of its children: one such change at a time. */
async function lockedContent(trx: Knex.Transaction, id: string): Promise<ContentRow | undefined> {
  return trx('contentResources').where({ id }).whereNull('deletedAt').forUpdate().first();
}

/** The course tree (course → modules → sections → lessons) for the console, and reordering within a parent. */
/** `changed` runs after a committed reorder: the storefront's read caches forget the old order. */
export function contentTree({ db, changed = () => {} }: { db: Db; changed?: () => void }) {
  return {
    /**
     * The outline under `rootId`. With a `reader`, as they may see it: a contributor gets no outline of another
     * author's draft (404, as if it did not exist) and none of the drafts other authors linked into it.
     */
    async tree(rootId: string, reader?: Reader): Promise<TreeNode> {
      const root: ContentRow | undefined = await db('contentResources')
        .where({ id: rootId })
        .whereNull('deletedAt')
        .first();
      const visible = (content: { createdById: string | null; state: string | null }) =>
        !reader || mayReadContent(content, reader);
      if (!root || !visible({ createdById: root.createdById, state: root.fields.state ?? null }))
        throw new AppError('not-found', 'No such content.');
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
                r.id, r.type, r.fields->>'title' AS title, r.fields->>'slug' AS slug, r.fields->>'state' AS state,
                r.created_by_id AS "createdById"
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
        // Left out with everything under it (its children find no parent to hang from).
        if (!visible({ createdById: row.createdById as string | null, state: row.state as string | null })) continue;
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
    async reorder(parentId: string, childIds: string[], actor: Editor, requestId: string | null): Promise<void> {
      await db.transaction(async (trx) => {
        const parent = await lockedContent(trx, parentId);
        if (!parent) throw new AppError('not-found', 'No such content.');
        if (!mayEditAny(actor) && parent.createdById !== actor.id) {
          throw new AppError('forbidden', 'Contributors can change only the content they created.');
        }
        const links: { resourceId: string }[] = await trx('contentResourceResources')
          .where({ resourceOfId: parentId })
          .whereNull('deletedAt')
          .whereNotExists(
            trx('contentResources')
              .whereRaw('content_resources.id = content_resource_resources.resource_id')
              .whereNotNull('deletedAt'),
          )
          .orderBy('position')
          .select('resourceId');
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
          await trx('contentResourceResources').where({ resourceOfId: parentId, resourceId }).update({ position });
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

    /**
     * Builds the outline in place: new content (a draft) titled `title`, its slug made from the title (unique: -2,
     * -3… on a collision), linked under the parent at `position` (an index among its children; the end when absent),
     * the siblings after it moved down. Contributors only inside content they created (the new content is theirs).
     */
    async addChild(
      parentId: string,
      { type, title, position }: { type: ResourceType; title: string; position?: number },
      actor: Editor,
      requestId: string | null,
    ): Promise<TreeNode> {
      const node = await db.transaction(async (trx) => {
        // The parent's lock: one change of its children at a time (as reorder), so positions stay 0..n-1.
        const parent = await lockedContent(trx, parentId);
        if (!parent) throw new AppError('not-found', 'No such content.');
        if (!mayEditAny(actor) && parent.createdById !== actor.id) {
          throw new AppError('forbidden', 'Contributors can add content only inside content they created.');
        }
        const fields = { title, state: 'draft', visibility: 'public' };
        const created = await insertWithUniqueSlug(
          trx,
          { type, createdById: actor.id!, fields },
          slugify(title) ?? type,
        );
        const siblings = (await trx('contentResourceResources as l')
          .join('contentResources as r', 'r.id', 'l.resourceId')
          .where('l.resourceOfId', parentId)
          .whereNull('l.deletedAt')
          .whereNull('r.deletedAt')
          .orderBy([{ column: 'l.position' }, { column: 'r.id' }])
          .select('l.resourceId')) as { resourceId: string }[];
        const at = Math.min(position ?? siblings.length, siblings.length);
        const order = siblings.map((s) => s.resourceId);
        order.splice(at, 0, created.id);
        // A link removed before (soft-deleted) cannot be under a brand-new resource: the insert is plain.
        const [link] = (await trx('contentResourceResources')
          .insert({ resourceOfId: parentId, resourceId: created.id, position: at })
          .returning(['id'])) as { id: string }[];
        // Positions become 0..n-1 in the new order (only the links whose position changes are written).
        for (const [index, resourceId] of order.entries()) {
          if (resourceId === created.id) continue;
          await trx('contentResourceResources')
            .where({ resourceOfId: parentId, resourceId })
            .whereNot('position', index)
            .update({ position: index });
        }
        const after = { type, createdById: actor.id, fields: { ...fields, slug: created.slug } };
        await recordAudit(trx, {
          actor,
          requestId,
          action: 'create',
          resource: 'content-resources',
          recordId: created.id,
          after,
        });
        await recordAudit(trx, {
          actor,
          requestId,
          action: 'create',
          resource: 'content-resource-resources',
          recordId: link!.id,
          after: { resourceOfId: parentId, resourceId: created.id, position: at },
        });
        return {
          id: created.id,
          type,
          title,
          slug: created.slug,
          state: 'draft',
          link: { id: link!.id, position: at, tier: null },
          children: [],
        } satisfies TreeNode;
      });
      changed();
      return node;
    },
  };
}

export type ContentTree = ReturnType<typeof contentTree>;
