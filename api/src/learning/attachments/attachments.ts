import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import contentDisposition from 'content-disposition';
import { recordAudit } from '../../audit/record';
import type { Clock } from '../../clock';
import type { Db } from '../../db/connection';
import type { MediaStorage } from '../../media/storage';
import { AppError } from '../../shared/errors';
import type { Role } from '../../shared/roles';
import type { Viewer } from '../access';
import { assertMayEditContent, mayReadWholeContent } from '../authorship';
import { removeStoredFile } from './deleted-lessons';
import { checkAttachment, cleanFileName, MAX_ATTACHMENTS_PER_LESSON } from './file-types';
import { DOWNLOAD_LINK_SECONDS, readDownloadToken, signDownloadToken } from './link-token';

/** A file attached to a lesson, as the console lists it. */
export interface LessonAttachment {
  id: string;
  lessonId: string;
  fileName: string;
  contentType: string;
  sizeBytes: number;
  position: number;
  createdAt: Date;
}

/** A file as the lesson's reader sees it: its name, size and a short-lived link. */
export interface AttachmentLink {
  id: string;
  fileName: string;
  contentType: string;
  sizeBytes: number;
  url: string;
  expiresAt: string;
}

/**
 * A download as served: the bytes, what they are, the name to save them under, how long a browser may keep them;
 * or, from S3, where the browser fetches them itself (a presigned GET that names the file and ends within minutes).
 */
export type Download =
  { body: Readable; contentType: string; size: number; fileName: string; maxAgeSeconds: number } | { redirect: string };

/** How long S3's presigned address for a checked download works: long enough to follow the redirect, no more. */
const PRESIGNED_DOWNLOAD_SECONDS = 2 * 60;

/** The header that makes a browser save the file under its own name, in any script (RFC 6266, RFC 5987). */
export const attachmentDisposition = (fileName: string) => contentDisposition(fileName, { type: 'attachment' });

/** Who changes attachments in the console: their id and email for the audit log, their roles for authorship. */
export interface AttachmentWriter {
  actor: { id: string; email: string; roles: readonly Role[] };
  requestId: string | null;
}

const COLUMNS = ['id', 'lessonId', 'fileName', 'contentType', 'sizeBytes', 'position', 'createdAt'] as const;
const RESOURCE = 'lesson-attachments';

/** The lesson (not deleted), locked when asked, or a 404. */
async function requireLesson(conn: Db, lessonId: string, lock = false): Promise<{ createdById: string | null }> {
  const query = conn('contentResources')
    .where({ id: lessonId, type: 'lesson' })
    .whereNull('deletedAt')
    .first('createdById');
  const lesson = (await (lock ? query.forUpdate() : query)) as { createdById: string | null } | undefined;
  if (!lesson) throw new AppError('not-found', `No lesson with id ${lessonId}.`);
  return lesson;
}

const rowsOf = (conn: Db, lessonId: string) =>
  conn('lessonAttachments')
    .where({ lessonId })
    .orderBy([{ column: 'position' }, { column: 'createdAt' }, { column: 'id' }])
    .select<LessonAttachment[]>(COLUMNS);

/**
 * Files attached to lessons (docs/domain.md §11): uploaded in the console by whoever may change the lesson, kept in
 * the media storage (a directory or S3, as images), listed on the lesson's page for those who may open it, and
 * downloaded only through a signed link that names the learner and ends within minutes. Opening the link checks
 * again that its learner may still open the lesson, so a refund or a revoked seat closes it at once.
 */
export function lessonAttachments({
  db,
  clock,
  storage,
  assertOpen,
  key,
}: {
  db: Db;
  clock: Clock;
  storage: MediaStorage;
  assertOpen: (lessonId: string, viewer: Viewer, course?: string) => Promise<void>;
  key: () => Promise<Buffer>;
}) {
  return {
    /** The lesson's files in their order, for staff who may read the whole lesson. */
    async list(lessonId: string, reader: { id: string; roles: readonly Role[] }): Promise<LessonAttachment[]> {
      const lesson = await requireLesson(db, lessonId);
      if (!mayReadWholeContent(lesson, reader)) {
        throw new AppError('forbidden', 'Contributors see the files of their own lessons only.');
      }
      return rowsOf(db, lessonId);
    },

    /**
     * Adds a file at the end of the lesson's list: its name cleaned, its type checked by extension and first bytes
     * (415 otherwise). The bytes are stored before the transaction (no lock held while they travel) and removed
     * again when the row is not written.
     */
    async upload(lessonId: string, name: string, bytes: Buffer, writer: AttachmentWriter): Promise<LessonAttachment> {
      const fileName = cleanFileName(name);
      const { contentType } = checkAttachment(fileName, bytes);
      assertMayEditContent(await requireLesson(db, lessonId), writer.actor);
      const id = randomUUID();
      const storageKey = `attachments/${id}`;
      await storage.put(storageKey, bytes, contentType);
      try {
        return await db.transaction(async (trx) => {
          assertMayEditContent(await requireLesson(trx, lessonId, true), writer.actor);
          const { count, last } = (await trx('lessonAttachments')
            .where({ lessonId })
            .first(trx.raw('count(*)::int AS count'), trx.raw('max(position) AS last'))) as {
            count: number;
            last: number | null;
          };
          if (count >= MAX_ATTACHMENTS_PER_LESSON) {
            throw new AppError('validation-failed', `A lesson lists at most ${MAX_ATTACHMENTS_PER_LESSON} files.`, {
              file: `At most ${MAX_ATTACHMENTS_PER_LESSON} files`,
            });
          }
          const [row] = (await trx('lessonAttachments')
            .insert({
              id,
              lessonId,
              storageKey,
              fileName,
              contentType,
              sizeBytes: bytes.length,
              position: (last ?? -1) + 1,
              createdById: writer.actor.id,
            })
            .returning(COLUMNS)) as LessonAttachment[];
          await recordAudit(trx, {
            actor: writer.actor,
            requestId: writer.requestId,
            action: 'create',
            resource: RESOURCE,
            recordId: id,
            before: null,
            after: { lessonId, fileName, contentType, sizeBytes: bytes.length },
          });
          return row!;
        });
      } catch (error) {
        await storage.delete(storageKey);
        throw error;
      }
    },

    /**
     * Removes a file from its lesson; its bytes go once the row is gone (a link to it then answers 404). The key is
     * kept as a removal to do in the same transaction, so bytes the storage fails to remove now are removed by the
     * hourly deleted-lesson-files job, and the delete itself never fails for them.
     */
    async remove(attachmentId: string, writer: AttachmentWriter): Promise<void> {
      const removed = await db.transaction(async (trx) => {
        const row = (await trx('lessonAttachments').where({ id: attachmentId }).forUpdate().first()) as
          (LessonAttachment & { storageKey: string }) | undefined;
        if (!row) throw new AppError('not-found', `No file with id ${attachmentId}.`);
        assertMayEditContent(await requireLesson(trx, row.lessonId), writer.actor);
        await trx('lessonAttachments').where({ id: attachmentId }).delete();
        await trx('lessonFileRemovals').insert({ storageKey: row.storageKey }).onConflict('storageKey').ignore();
        await recordAudit(trx, {
          actor: writer.actor,
          requestId: writer.requestId,
          action: 'delete',
          resource: RESOURCE,
          recordId: attachmentId,
          before: { lessonId: row.lessonId, fileName: row.fileName },
          after: null,
        });
        return row;
      });
      await removeStoredFile(db, storage, removed.storageKey).catch(() => {}); // kept for the hourly job
    },

    /** Puts the lesson's files in the order given: every one of them, each once (else 400, nothing moved). */
    async reorder(lessonId: string, ids: string[], writer: AttachmentWriter): Promise<LessonAttachment[]> {
      return db.transaction(async (trx) => {
        assertMayEditContent(await requireLesson(trx, lessonId, true), writer.actor);
        const current = await rowsOf(trx, lessonId);
        const known = new Set(current.map((row) => row.id));
        if (ids.length !== known.size || new Set(ids).size !== ids.length || ids.some((id) => !known.has(id))) {
          throw new AppError('validation-failed', "Name each of the lesson's files once, in their new order.", {
            ids: "Each of the lesson's files, once",
          });
        }
        // One statement: the unique place per lesson is checked at commit, so positions may cross meanwhile.
        await trx.raw(
          `UPDATE lesson_attachments AS a SET position = o.position - 1
             FROM unnest(?::uuid[]) WITH ORDINALITY AS o(id, position)
            WHERE a.id = o.id AND a.lesson_id = ?`,
          [ids, lessonId],
        );
        await recordAudit(trx, {
          actor: writer.actor,
          requestId: writer.requestId,
          action: 'reorder',
          resource: RESOURCE,
          recordId: lessonId,
          before: { ids: current.map((row) => row.id) },
          after: { ids },
        });
        return rowsOf(trx, lessonId);
      });
    },

    /**
     * The lesson's files with a link each, for a reader who may open the lesson (lesson-locked or 404 otherwise).
     * A signed-in reader's links are theirs alone; a visitor's (a free lesson) anyone's.
     */
    async links(lessonId: string, viewer: Viewer, course?: string): Promise<AttachmentLink[]> {
      await assertOpen(lessonId, viewer, course);
      const rows = await rowsOf(db, lessonId);
      const secret = await key();
      const expiresAt = Math.floor(clock.now().getTime() / 1000) + DOWNLOAD_LINK_SECONDS;
      return rows.map((row) => ({
        id: row.id,
        fileName: row.fileName,
        contentType: row.contentType,
        sizeBytes: Number(row.sizeBytes),
        url: `/media/attachments/${signDownloadToken(secret, {
          attachmentId: row.id,
          userId: viewer.user?.id ?? null,
          expiresAt,
        })}/${encodeURIComponent(row.fileName)}`,
        expiresAt: new Date(expiresAt * 1000).toISOString(),
      }));
    },

    /**
     * A download link's file, for the signed-in user it was made for (or anyone, a visitor's), while its learner may
     * still open the lesson: 403 with why (expired, not theirs, no longer open), 404 when the file is gone.
     */
    async download(token: string, viewer: { userId: string | null; country: string }): Promise<Download> {
      const now = clock.now();
      const grant = readDownloadToken(await key(), token, now);
      if (grant.userId !== null && grant.userId !== viewer.userId) {
        throw new AppError(
          'download-not-yours',
          'This download link was made for someone else: open the lesson yourself.',
        );
      }
      const row = (await db('lessonAttachments').where({ id: grant.attachmentId }).first()) as
        (LessonAttachment & { storageKey: string }) | undefined;
      if (!row) throw new AppError('not-found', 'This file is no longer attached to the lesson.');
      await assertOpen(row.lessonId, { user: grant.userId ? { id: grant.userId } : null, country: viewer.country });
      if (storage.presignedGet) {
        // Checked: the bytes come from the bucket, not through this process.
        const redirect = await storage.presignedGet(row.storageKey, {
          expiresInSeconds: PRESIGNED_DOWNLOAD_SECONDS,
          signingDate: now,
          contentType: row.contentType,
          contentDisposition: attachmentDisposition(row.fileName),
        });
        return { redirect };
      }
      const stored = await storage.get(row.storageKey);
      if (!stored) throw new AppError('not-found', 'This file is no longer attached to the lesson.');
      return {
        body: stored.body,
        size: stored.size,
        contentType: row.contentType,
        fileName: row.fileName,
        maxAgeSeconds: Math.max(0, grant.expiresAt - Math.ceil(now.getTime() / 1000)),
      };
    },
  };
}

export type LessonAttachments = ReturnType<typeof lessonAttachments>;
