import { products } from '../resources/catalog';
import { users } from '../resources/identity';
import type { AdminResource, Row, WriteActor } from '../resource';
import { adminService } from '../records/service';
import { recordAudit } from '../../audit/record';
import type { Db } from '../../db/connection';
import type { AuditAction } from '../../shared/audit-actions';
import { AppError } from '../../shared/errors';
import { assertMayManageOwner } from '../../identity/staff/staff-guard';
import type { JobQueue } from '../../jobs/queue';
import type { Logger } from '../../logger';
import { checkImage, type CheckedImage, type ImageStore } from '../../media/images';
import type { SchoolSettings } from '../../school/settings';

/** The job that removes an image nothing points to any more (after a replacement or a removal). */
export const DELETE_IMAGE_JOB = 'delete-image';

/** Where a picture hangs: the console resource, its table and the column that holds the image's key. */
interface Slot {
  /** The console resource the record is (its name is the audit entry's resource). */
  resource: AdminResource | { name: 'school' };
  table: string;
  column: string;
  /** The audit log's action names. */
  set: AuditAction;
  remove: AuditAction;
  /** What the record is called in a 404. */
  what: string;
  /** Refuses a change this actor may not make to the record (beyond the route's roles). */
  checkWrite?: (conn: Db, id: string, actor: WriteActor) => Promise<void>;
}

const PRODUCT_IMAGE: Slot = {
  resource: products,
  table: 'products',
  column: 'imageKey',
  set: 'set-image',
  remove: 'remove-image',
  what: 'product',
};
const USER_AVATAR: Slot = {
  resource: users,
  table: 'users',
  column: 'avatarKey',
  set: 'set-avatar',
  remove: 'remove-avatar',
  what: 'person',
  // A staff account's picture is theirs or an administrator's to change, as the rest of it is.
  checkWrite: async (conn, id, actor) => {
    if (id !== actor.id) await assertMayManageOwner(conn, { userId: id }, actor, 'change the picture of');
  },
};
/** The school's logo: one row (id 1), an administrator's to change (the route's role). */
const SCHOOL_LOGO: Slot = {
  resource: { name: 'school' },
  table: 'schoolSettings',
  column: 'logoKey',
  set: 'set-image',
  remove: 'remove-image',
  what: 'school',
};
/** Every column that may point to an image: an image is removed only when none does. */
const SLOTS = [PRODUCT_IMAGE, USER_AVATAR, SCHOOL_LOGO];

export interface ImageWriteContext {
  actor: WriteActor;
  requestId: string | null;
}

/**
 * One transaction-scoped lock per image key: the upload that points a record at a key and the job that removes
 * an unused key take turns, so a key is never removed between its upload and the commit that uses it.
 */
async function lockKey(trx: Db, key: string): Promise<void> {
  await trx.raw(`SELECT pg_advisory_xact_lock(hashtextextended(?, 17))`, [`image:${key}`]);
}

/**
 * Uploads and removals of product images and people's avatars from the console. An upload is checked by its bytes,
 * stored under a key made of them, and pointed to in the same transaction as its audit entry; the image it
 * replaces is removed by a job after the commit, once no product or person points to it (the same picture may
 * hang in two places). So a record never points to a missing image, and no replaced image stays behind.
 */
export function imageAdmin({
  db,
  images,
  jobs,
  logger,
  school,
  changed = () => {},
}: {
  db: Db;
  images: ImageStore;
  school: Pick<SchoolSettings, 'get' | 'forget'>;
  jobs: JobQueue;
  logger: Logger;
  changed?: () => void;
}) {
  const records = adminService({ db });

  jobs.define<{ key: string }>({
    name: DELETE_IMAGE_JOB,
    retryLimit: 5,
    retryDelaySeconds: 30,
    expireInSeconds: 5 * 60,
    run: async ({ key }) => {
      const removed = await removeIfUnused(key);
      logger.debug({ key, removed }, removed ? 'removed an unused image' : 'kept an image still in use');
    },
  });

  async function inUse(trx: Db, key: string): Promise<boolean> {
    for (const slot of SLOTS) {
      if (await trx(slot.table).where(slot.column, key).first('id')) return true;
    }
    return false;
  }

  /** Removes the image's files when nothing points to it; true when it did. */
  async function removeIfUnused(key: string): Promise<boolean> {
    return db.transaction(async (trx) => {
      await lockKey(trx, key);
      if (await inUse(trx, key)) return false;
      await images.removeAll(key);
      return true;
    });
  }

  /**
   * Points the record at `image` (or at nothing), audited; the image it pointed to goes to the delete job. The new
   * image is put in the storage again under its key's lock (a no-op when it is there): a delete job that ran since
   * the caller stored it cannot leave the record pointing to nothing.
   */
  async function point(slot: Slot, id: string, image: CheckedImage | null, context: ImageWriteContext) {
    const key = image?.key ?? null;
    const previous = await db.transaction(async (trx) => {
      const current = (await trx(slot.table).where('id', id).forUpdate().first('id', slot.column)) as Row | undefined;
      if (!current) throw new AppError('not-found', `No ${slot.what} with id ${id}.`);
      await slot.checkWrite?.(trx, id, context.actor);
      const before = (current[slot.column] as string | null) ?? null;
      if (before === key) return null;
      if (image) {
        await lockKey(trx, image.key);
        await images.putOriginal(image);
      }
      await trx(slot.table)
        .where('id', id)
        .update({ [slot.column]: key });
      const facts = image
        ? { contentType: image.contentType, bytes: image.bytes.length, width: image.width, height: image.height }
        : {};
      await recordAudit(trx, {
        actor: { id: context.actor.id, email: context.actor.email },
        requestId: context.requestId,
        action: key ? slot.set : slot.remove,
        resource: slot.resource.name,
        recordId: id,
        before: { [slot.column]: before },
        after: { [slot.column]: key, ...facts },
      });
      if (before) await jobs.add(trx, DELETE_IMAGE_JOB, { key: before });
      return before;
    });
    if (previous) jobs.wake(DELETE_IMAGE_JOB);
    changed();
  }

  async function answer(slot: Slot, id: string): Promise<Row> {
    if (slot === SCHOOL_LOGO) {
      school.forget();
      return { ...(await school.get()) } as Row;
    }
    return records.getOne(slot.resource as AdminResource, id);
  }

  async function change(slot: Slot, id: string, image: CheckedImage | null, context: ImageWriteContext) {
    await point(slot, id, image, context);
    return answer(slot, id);
  }

  async function upload(slot: Slot, id: string, bytes: Buffer, context: ImageWriteContext): Promise<Row> {
    const image = await checkImage(bytes);
    if (!(await db(slot.table).where('id', id).first('id'))) {
      throw new AppError('not-found', `No ${slot.what} with id ${id}.`);
    }
    await slot.checkWrite?.(db, id, context.actor);
    // Stored before the transaction, so no lock is held while the bytes travel to the storage.
    await images.putOriginal(image);
    return change(slot, id, image, context);
  }

  return {
    setProductImage: (productId: string, bytes: Buffer, context: ImageWriteContext) =>
      upload(PRODUCT_IMAGE, productId, bytes, context),
    removeProductImage: (productId: string, context: ImageWriteContext) =>
      change(PRODUCT_IMAGE, productId, null, context),
    setUserAvatar: (userId: string, bytes: Buffer, context: ImageWriteContext) =>
      upload(USER_AVATAR, userId, bytes, context),
    removeUserAvatar: (userId: string, context: ImageWriteContext) => change(USER_AVATAR, userId, null, context),
    /** The school's logo (answers the school's settings). */
    setSchoolLogo: (bytes: Buffer, context: ImageWriteContext) => upload(SCHOOL_LOGO, '1', bytes, context),
    removeSchoolLogo: (context: ImageWriteContext) => change(SCHOOL_LOGO, '1', null, context),
    removeIfUnused,
  };
}

export type ImageAdmin = ReturnType<typeof imageAdmin>;
