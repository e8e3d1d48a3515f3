import type { Db } from '../../db/connection';
import type { JobQueue } from '../../jobs/queue';
import type { Logger } from '../../logger';
import type { MediaStorage } from '../../media/storage';

/** The recurring job that removes deleted lessons' files. */
export const DELETED_LESSON_FILES = 'deleted-lesson-files';

/** How many files one statement takes: a short lock, however many a deleted course held. */
const BATCH = 100;

/** Removes stored bytes, then their pending removal (lesson_file_removals), once the storage has done it. */
export async function removeStoredFile(db: Db, storage: MediaStorage, storageKey: string): Promise<void> {
  await storage.delete(storageKey);
  await db('lessonFileRemovals').where({ storageKey }).delete();
}

/**
 * A deleted lesson's files (docs/domain.md §11): a lesson is deleted softly in the console and never comes back, so
 * its files, which nobody can download any more, leave the storage too. Each batch's rows go in one statement that
 * skips rows another replica holds, then their bytes. Bytes whose removal fails, here or when a file was deleted in
 * the console, wait in lesson_file_removals and are tried again by the next run (logged, never retried in a loop).
 */
export function deletedLessonFiles({ db, storage, logger }: { db: Db; storage: MediaStorage; logger: Logger }) {
  /**
   * The bytes left to remove, in batches locked against other replicas' runs and read in key order, so one that
   * fails again stays for the next run; how many went.
   */
  async function retryRemovals(): Promise<number> {
    let done = 0;
    let after = '';
    for (;;) {
      const keys = await db.transaction(async (trx) => {
        const batch = (await trx('lessonFileRemovals')
          .where('storageKey', '>', after)
          .orderBy('storageKey')
          .limit(BATCH)
          .forUpdate()
          .skipLocked()
          .select('storageKey')) as { storageKey: string }[];
        const gone: string[] = [];
        for (const { storageKey: key } of batch) {
          await storage.delete(key).then(
            () => gone.push(key),
            (error: unknown) => logger.warn({ err: error, storageKey: key }, "a lesson's file stayed in the storage"),
          );
        }
        await trx('lessonFileRemovals').whereIn('storageKey', gone).delete();
        done += gone.length;
        return batch;
      });
      if (keys.length < BATCH) return done;
      after = keys[keys.length - 1]!.storageKey;
    }
  }

  return {
    /** Removes every deleted lesson's files, rows then bytes, and the bytes left by earlier failures; how many went. */
    async sweep(): Promise<number> {
      let removed = 0;
      for (;;) {
        const { rows } = (await db.raw(
          `DELETE FROM lesson_attachments
            WHERE id IN (SELECT a.id FROM lesson_attachments a
                           JOIN content_resources c ON c.id = a.lesson_id
                          WHERE c.deleted_at IS NOT NULL
                          LIMIT ? FOR UPDATE OF a SKIP LOCKED)
        RETURNING id, storage_key`,
          [BATCH],
        )) as { rows: { id: string; storage_key: string }[] };
        for (const row of rows) {
          await storage.delete(row.storage_key).catch(async (error: unknown) => {
            logger.warn({ err: error, attachmentId: row.id }, "a deleted lesson's file stayed in the storage");
            await db('lessonFileRemovals').insert({ storageKey: row.storage_key }).onConflict('storageKey').ignore();
          });
        }
        removed += rows.length;
        if (rows.length < BATCH) return removed + (await retryRemovals());
      }
    },
  };
}

export type DeletedLessonFiles = ReturnType<typeof deletedLessonFiles>;

export function defineDeletedLessonFilesJob(jobs: JobQueue, files: Pick<DeletedLessonFiles, 'sweep'>): void {
  jobs.define({
    name: DELETED_LESSON_FILES,
    cron: '23 * * * *',
    retryLimit: 1,
    retryDelaySeconds: 60,
    expireInSeconds: 15 * 60,
    run: async () => void (await files.sweep()),
  });
}
