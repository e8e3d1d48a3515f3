import { bindDeps } from '../../shared/bind-deps';
import type { Db } from '../../db/connection';
import { AppError } from '../../shared/errors';
import { listing, listPage } from './listing';
import type { AdminResource, Row, WriteActor } from '../resource';
import { type AdminDeps, findRow, presentTo } from './rows';
import { createRow, removeRow, updateRow } from './writes';

export type { WriteContext } from './write-checks';

async function getOne({ db }: AdminDeps, resource: AdminResource, id: string, reader?: WriteActor): Promise<Row> {
  const row = await findRow(resource, id, db, false, reader);
  if (!row) throw new AppError('not-found', `No ${resource.name} record with id ${id}.`);
  return presentTo(resource, row, reader);
}

/**
 * The console's reads and writes of its resources: rows.ts finds and shows a record, listing.ts reads lists,
 * writes.ts creates, changes and deletes (write-checks.ts holds what every write checks and records).
 * `changed` runs after every committed write: the storefront's read caches forget what they held.
 */
export function adminService({ db, changed = () => {} }: { db: Db; changed?: () => void }) {
  const bound = bindDeps<AdminDeps>({ db, changed });
  return {
    listing: bound(listing),
    /** A row as it leaves the server for this reader (`present`, then `presentTo`). */
    shown: (resource: AdminResource, row: Row, reader?: WriteActor): Row => presentTo(resource, row, reader),
    list: bound(listPage),
    getOne: bound(getOne),
    create: bound(createRow),
    update: bound(updateRow),
    remove: bound(removeRow),
  };
}

export type AdminService = ReturnType<typeof adminService>;
