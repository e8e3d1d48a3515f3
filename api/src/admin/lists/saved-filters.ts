import type { Db } from '../../db/connection';
import { allows } from '../../identity/access-policy';
import { AppError } from '../../shared/errors';
import { ADMIN_RESOURCES } from '../resources';
import type { Role } from '../../shared/roles';
import { VIDEO_LIST } from '../../video/video-admin';
import { parseListQuery, type ListableResource } from '../../list-query/schemas';
import type { SavedFilterInput, SavedFilterRecord } from '../schemas/list-tools';
import { SavedFilter } from '../models';
import type { WriteActor } from '../resource';

/** More would be a second list to search through. */
const MAX_SAVED_PER_LIST = 50;

/** Console lists served by routes of their own rather than as a resource, with who reads them. */
const OWN_ROUTE_LISTS: (ListableResource & { read: readonly Role[] })[] = [
  { ...VIDEO_LIST, read: ['support', 'finance', 'contributor'] },
];

const shown = ({ id, resource, name, filter, sort, createdAt }: SavedFilter): SavedFilterRecord => ({
  id,
  resource,
  name,
  filter,
  sort,
  createdAt,
});

/**
 * Saved filters per staff member, on the server so they follow them to any device. Each is its owner's alone: another
 * member neither sees nor deletes it (a 404, as if it did not exist). A filter is saved only if the list would take
 * it (same fields, same checks), for a list its owner may read.
 */
export function savedFilters({ db }: { db: Db }) {
  /** The list, if it exists and this person may read it; a list they cannot read does not exist for them. */
  function readableList(name: string, owner: WriteActor) {
    const resource = [...ADMIN_RESOURCES, ...OWN_ROUTE_LISTS].find((r) => r.name === name);
    if (!resource || !allows({ kind: 'roles', roles: resource.read }, owner.roles))
      throw new AppError('validation-failed', `resource: no list named ${name}`, { resource: 'is not a list' });
    return resource;
  }

  return {
    async list(resourceName: string, owner: WriteActor): Promise<SavedFilterRecord[]> {
      readableList(resourceName, owner);
      const rows = await SavedFilter.query(db)
        .where({ userId: owner.id, resource: resourceName })
        .orderBy([{ column: 'name' }, { column: 'id' }]);
      return rows.map(shown);
    },

    async save(input: SavedFilterInput, owner: WriteActor): Promise<SavedFilterRecord> {
      const resource = readableList(input.resource, owner);
      // Refused now rather than when it is applied: the list's own parser, with the list's own messages.
      parseListQuery(resource, {
        filter: JSON.stringify(input.filter),
        ...(input.sort && { sort: JSON.stringify([input.sort.field, input.sort.order]) }),
      });
      return db.transaction(async (trx) => {
        const { n } = (await trx('savedFilters')
          .where({ userId: owner.id, resource: input.resource })
          .count({ n: '*' })
          .first()) as { n: number };
        if (n >= MAX_SAVED_PER_LIST)
          throw new AppError('validation-failed', `At most ${MAX_SAVED_PER_LIST} saved filters per list.`, {
            name: `at most ${MAX_SAVED_PER_LIST} per list; delete one first`,
          });
        try {
          const row = await SavedFilter.query(trx).insertAndFetch({
            userId: owner.id,
            resource: input.resource,
            name: input.name,
            filter: input.filter,
            sort: input.sort ?? null,
          });
          return shown(row);
        } catch (error) {
          const native = ((error as { nativeError?: unknown }).nativeError ?? error) as { constraint?: string };
          if (native.constraint === 'saved_filters_user_resource_name_unique')
            throw new AppError('already-exists', `You already saved filters named "${input.name}" on this list.`, {
              name: 'is already used on this list',
            });
          throw error;
        }
      });
    },

    /** Its owner's only; anyone else's is not found. */
    async remove(id: string, owner: WriteActor): Promise<SavedFilterRecord> {
      const [row] = (await SavedFilter.query(db)
        .where({ id, userId: owner.id })
        .delete()
        .returning('*')) as unknown as SavedFilter[];
      if (!row) throw new AppError('not-found', `No saved filter with id ${id}.`);
      return shown(row);
    },
  };
}

export type SavedFilters = ReturnType<typeof savedFilters>;
