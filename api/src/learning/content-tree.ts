import type { Knex } from 'knex';
import type { Actor } from '../audit/record';
import { recordAudit } from '../audit/record';
import type { Db } from '../db/connection';
import { AppError } from '../shared/errors';
import type { Role } from '../shared/roles';
import type { ResourceType } from '../shared/content';
import type { ContentRow } from './models';
import { mayReadContent } from './authorship';
import { releaseOf } from './drip/release';
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

/** A root (its link fields null) or a link under it, with what its content shows in an outline. */
interface TreeRow {
  rootId: string;
  linkId: string | null;
  parentId: string | null;
  position: number | null;
  tier: string | null;
  releaseAfterDays: unknown;
  releaseOn: unknown;
  id: string;
  type: string;
  title: string | null;
  slug: string | null;
  state: string | null;
  createdById: string | null;
}

/**
 * The roots not deleted and everything linked under them, in one recursive query: per root, the root first, then
 * its links by depth and position.
 */
async function treeRows(db: Db, rootIds: string[]): Promise<TreeRow[]> {
  // Raw results keep their column names as written.
  const { rows } = await db.raw(
    `WITH RECURSIVE tree AS (
       SELECT r.id AS root_id, NULL::uuid AS link_id, NULL::uuid AS parent_id, r.id AS resource_id,
              NULL::double precision AS position, NULL::jsonb AS metadata, 0 AS depth
         FROM content_resources r WHERE r.id = ANY(?::uuid[]) AND r.deleted_at IS NULL
       UNION ALL
       SELECT t.root_id, l.id, l.resource_of_id, l.resource_id, l.position, l.metadata, t.depth + 1
         FROM content_resource_resources l JOIN tree t ON l.resource_of_id = t.resource_id
        WHERE l.deleted_at IS NULL AND t.depth < ?
     )
     SELECT t.root_id AS "rootId", t.link_id AS "linkId", t.parent_id AS "parentId", t.position,
            t.metadata->>'tier' AS tier, t.metadata->'releaseAfterDays' AS "releaseAfterDays",
            t.metadata->>'releaseOn' AS "releaseOn", r.id, r.type, r.fields->>'title' AS title, r.fields->>'slug' AS slug,
            r.fields->>'state' AS state, r.created_by_id AS "createdById"
       FROM tree t JOIN content_resources r ON r.id = t.resource_id AND r.deleted_at IS NULL
      ORDER BY t.root_id, t.depth, t.position, r.id`,
    [rootIds, MAX_DEPTH],
  );
  return rows as TreeRow[];
}

/** A root's outline from its rows (the root's first); a row `visible` refuses is left out with everything under it. */
function treeOf(
  [root, ...rows]: TreeRow[],
  visible: (content: { createdById: string | null; state: string | null }) => boolean,
): TreeNode {
  const nodes = new Map<string, TreeNode>();
  const top: TreeNode = {
    id: root!.id,
    type: root!.type,
    title: root!.title ?? '',
    slug: root!.slug,
    state: root!.state,
    children: [],
  };
  nodes.set(top.id, top);
  for (const row of rows) {
    // Left out with everything under it (its children find no parent to hang from).
    if (!visible(row)) continue;
    const node: TreeNode = {
      id: row.id,
      type: row.type,
      title: row.title ?? '',
      slug: row.slug,
      state: row.state,
      link: { id: row.linkId!, position: Number(row.position), tier: row.tier, release: releaseOf(row) },
      children: [],
    };
    nodes.get(row.parentId!)?.children.push(node);
    nodes.set(node.id, node);
  }
  return top;
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
      const visible = (content: { createdById: string | null; state: string | null }) =>
        !reader || mayReadContent(content, reader);
      const rows = await treeRows(db, [rootId]);
      if (!rows[0] || !visible(rows[0])) throw new AppError('not-found', 'No such content.');
      return treeOf(rows, visible);
    },

    /** The outlines under several roots in one statement, by root id; roots deleted or unknown are absent. */
    async trees(rootIds: string[]): Promise<Map<string, TreeNode>> {
      const byRoot = new Map<string, TreeRow[]>();
      for (const row of rootIds.length ? await treeRows(db, rootIds) : []) {
        const kept = byRoot.get(row.rootId);
        if (kept) kept.push(row);
        else byRoot.set(row.rootId, [row]);
      }
      return new Map([...byRoot].map(([id, rows]) => [id, treeOf(rows, () => true)]));
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
