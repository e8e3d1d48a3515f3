import type { Actor } from '../audit/record';
import type { Db } from '../db/connection';
import type { JobQueue } from '../jobs/queue';
import type { Logger } from '../logger';
import type { MediaStorage } from '../media/storage';
import type { Role } from '../shared/roles';

/**
 * Who writes, for the audit log and the authorship rule: a console user with their roles (a contributor changes only
 * the videos of lessons they wrote; support and admins any), or the command line as `cli` (no id: any lesson).
 */
export interface VideoWriteContext {
  actor: Actor & { roles?: readonly Role[] };
  requestId: string | null;
}

/** Who reads the console's videos: a contributor only those of lessons they wrote (what learners pay for). */
export interface VideoReader {
  id: string;
  roles: readonly Role[];
}

/** What the console's video steps are built from (video-admin.ts fills in the defaults). */
export interface VideoAdminDeps {
  db: Db;
  storage: MediaStorage;
  jobs: JobQueue;
  logger: Logger;
  /** Called after every write: the read caches forget. */
  changed: () => void;
  /**
   * Whether this process starts a job it queued at once (JOB_WORKERS): a replica that only answers requests leaves
   * ffmpeg to the workers, which find the job within JOB_POLL_SECONDS.
   */
  processHere: boolean;
}

/** The audit log's resource for every video write. */
export const VIDEO_RESOURCE = 'videos';
