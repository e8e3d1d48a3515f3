import { isDeepStrictEqual } from 'node:util';
import { recordAudit } from '../../audit/record';
import { AppError } from '../../shared/errors';
import type { AdminResource, Row } from '../resource';
import { type AdminDeps, findRow, idColumnOf, normalized, present } from './rows';
import type { UpdateRequest } from '../schemas/write';
import {
  auditActor,
  checkUnwritable,
  explainConstraint,
  serialize,
  type WriteContext,
  writeHook,
} from './write-checks';

/** `input` is the body as the resource's create schema parsed it at the edge. */
export async function createRow(
  { db, changed }: AdminDeps,
  resource: AdminResource,
  input: Row,
  context: WriteContext,
): Promise<Row> {
  if (!resource.create)
    throw new AppError('method-not-allowed', `${resource.name} cannot be created from the console.`);
  return db
    .transaction(async (trx) => {
      const hook = writeHook(trx, context);
      await resource.checkWrite?.(hook, 'create', input, null);
      const values = resource.beforeWrite ? await resource.beforeWrite(hook, input, null) : input;
      const [inserted] = (await trx(resource.model.tableName)
        .insert(serialize(resource, values))
        .returning(idColumnOf(resource))) as Row[];
      const created = (await findRow(resource, String(inserted![idColumnOf(resource)]), trx))!;
      await resource.afterWrite?.(hook, created, null, input);
      await recordAudit(trx, {
        actor: auditActor(context.actor),
        requestId: context.requestId,
        action: 'create',
        resource: resource.name,
        recordId: String(created.id),
        after: present(resource, created),
      });
      return present(resource, created);
    })
    .then(committedBy(changed), (error) => explainConstraint(resource, error));
}

export async function updateRow(
  { db, changed }: AdminDeps,
  resource: AdminResource,
  id: string,
  request: UpdateRequest,
  context: WriteContext,
): Promise<Row> {
  if (!resource.update)
    throw new AppError('method-not-allowed', `${resource.name} cannot be changed from the console.`);
  const { body, writable } = request;
  return db
    .transaction(async (trx) => {
      const current = await findRow(resource, id, trx, true);
      if (!current) throw new AppError('not-found', `No ${resource.name} record with id ${id}.`);
      checkUnwritable(resource, body, writable, present(resource, current));
      const shown = present(resource, current);
      // Only what differs is written: sending the record back unchanged writes nothing and logs nothing.
      const changes = Object.fromEntries(
        Object.entries(body).filter(
          ([key, value]) => writable.has(key) && !isDeepStrictEqual(normalized(value), normalized(shown[key])),
        ),
      );
      const input = request.parse(changes);
      if (!Object.keys(input).length) return shown;
      const hook = writeHook(trx, context);
      await resource.checkWrite?.(hook, 'update', input, current);
      const values = resource.beforeWrite ? await resource.beforeWrite(hook, input, current) : input;
      await trx(resource.model.tableName).where(idColumnOf(resource), id).update(serialize(resource, values));
      const updated = (await findRow(resource, id, trx))!;
      await resource.afterWrite?.(hook, updated, current, input);
      await recordAudit(trx, {
        actor: auditActor(context.actor),
        requestId: context.requestId,
        action: 'update',
        resource: resource.name,
        recordId: id,
        before: present(resource, current),
        after: present(resource, updated),
      });
      return present(resource, updated);
    })
    .then(committedBy(changed), (error) => explainConstraint(resource, error));
}

export async function removeRow(
  { db, changed }: AdminDeps,
  resource: AdminResource,
  id: string,
  context: WriteContext,
): Promise<Row> {
  if (!resource.remove)
    throw new AppError('method-not-allowed', `${resource.name} cannot be deleted from the console.`);
  return db
    .transaction(async (trx) => {
      const current = await findRow(resource, id, trx, true);
      if (!current || (resource.remove === 'soft' && current.deletedAt))
        throw new AppError('not-found', `No ${resource.name} record with id ${id}.`);
      await resource.checkWrite?.(writeHook(trx, context), 'delete', {}, current);
      for (const guard of resource.deleteGuards ?? []) {
        if (await guard.blocks(trx, id)) throw new AppError(guard.code, guard.message);
      }
      if (resource.remove === 'soft') {
        await trx(resource.model.tableName).where(idColumnOf(resource), id).update({ deletedAt: trx.fn.now() });
      } else {
        await trx(resource.model.tableName).where(idColumnOf(resource), id).delete();
      }
      await recordAudit(trx, {
        actor: auditActor(context.actor),
        requestId: context.requestId,
        action: 'delete',
        resource: resource.name,
        recordId: id,
        before: present(resource, current),
      });
      return present(resource, current);
    })
    .then(committedBy(changed));
}

/** A committed write's row, once the storefront's caches were told. */
const committedBy =
  (changed: () => void) =>
  (row: Row): Row => {
    changed();
    return row;
  };
