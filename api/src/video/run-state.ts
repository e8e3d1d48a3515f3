import type { Db } from '../db/connection';
import type { Logger } from '../logger';
import type { MediaStorage } from '../media/storage';
import { versionPrefix } from './keys';

/** Progress is written to the row at most this often. */
const PROGRESS_EVERY_MS = 1000;

/** The row of the version a run works on, while it is still that run's (processing, not replaced or removed). */
export const currentRun = (db: Db, videoId: string, version: number) =>
  db('lessonVideos').where({ id: videoId, version, status: 'processing' });

/** The run's version fails with a reason staff can act on; whatever it stored goes. */
export async function failRun(
  { db, storage }: { db: Db; storage: MediaStorage },
  videoId: string,
  version: number,
  reason: string,
  code: string,
): Promise<void> {
  await currentRun(db, videoId, version).update({
    status: 'failed',
    error: reason.slice(0, 1000),
    errorCode: code,
    progress: 0,
  });
  await storage.deletePrefix(versionPrefix(videoId, version)).catch(() => undefined);
}

/** Progress as ffmpeg reports it: the first at once, then at most once a second, each after the one before. */
export function progressWriter({ db, logger }: { db: Db; logger: Logger }, videoId: string, version: number) {
  let lastAt = 0;
  let lastValue = 0;
  let chain = Promise.resolve();
  return {
    report(percent: number) {
      const now = Date.now();
      if (percent <= lastValue || now - lastAt < PROGRESS_EVERY_MS) return;
      lastAt = now;
      lastValue = percent;
      chain = chain
        .then(() => currentRun(db, videoId, version).update({ progress: percent }))
        .then(
          () => undefined,
          (error: unknown) => logger.warn({ err: error, videoId }, 'could not record video progress'),
        );
    },
    settled: () => chain,
  };
}
