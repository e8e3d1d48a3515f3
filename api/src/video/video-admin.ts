import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { ListableResource, ListQuery } from '../list-query/schemas';
import { recordAudit, type Actor } from '../audit/record';
import type { Db } from '../db/connection';
import { AppError } from '../shared/errors';
import type { JobQueue } from '../jobs/queue';
import type { Role } from '../shared/roles';
import { assertMayEditContent, readsAllContent } from '../learning/authorship';
import type { ContentResource } from '../learning/models';
import type { Logger } from '../logger';
import type { MediaStorage, StoredObject } from '../media/storage';
import { sourceKey, videoPrefix } from './keys';
import type { LessonVideo, VideoCaption } from './models';
import { PROCESS_VIDEO_JOB, type ProcessVideoData } from './process-video';
import type { CaptionBody, CaptionSummary, VideoRecord } from './schemas';
import { parseWebVtt, WebVttError } from './webvtt';

/**
 * Who writes, for the audit log and the authorship rule: a console user with their roles (a contributor changes only
 * the videos of lessons they wrote; support and admins any), or the command line as `cli` (no id: any lesson).
 */
export interface VideoWriteContext {
  actor: Actor & { roles?: readonly Role[] };
  requestId: string | null;
}

/** The console's list of videos: what it may filter, sort and search by (ra-data-simple-rest's query). */
export const VIDEO_LIST: ListableResource = {
  name: 'videos',
  filterable: { id: 'id', lessonId: 'id', status: 'enum' },
  sortable: ['updatedAt', 'createdAt', 'status', 'progress', 'sourceName', 'sourceSize', 'durationMs', 'processedAt'],
  searchable: ['sourceName', 'lessonTitle'],
  defaultSort: ['updatedAt', 'DESC'],
};

const LIST_COLUMNS: Record<string, string> = {
  id: 'v.id',
  lessonId: 'v.lessonId',
  status: 'v.status',
  updatedAt: 'v.updatedAt',
  createdAt: 'v.createdAt',
  progress: 'v.progress',
  sourceName: 'v.sourceName',
  sourceSize: 'v.sourceSize',
  durationMs: 'v.durationMs',
  processedAt: 'v.processedAt',
};

/** Who reads the console's videos: a contributor only those of lessons they wrote (what learners pay for). */
export interface VideoReader {
  id: string;
  roles: readonly Role[];
}

/** A new source for a lesson: its name and size as uploaded, and a way to read its bytes (more than once if need be). */
export interface NewSource {
  lessonId: string;
  filename: string;
  contentType: string | undefined;
  size: number;
  open: () => Promise<Readable>;
}

interface VideoRow extends Omit<VideoRecord, 'posterUrl' | 'captions'> {
  version: number;
  posterKey: string | null;
}

const RESOURCE = 'videos';
/** How often a source is stored again when another upload for the same lesson won the race to its version. */
const ATTACH_ATTEMPTS = 3;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Lesson videos in the console: a new source (from a tus upload or the command line) becomes the lesson's video
 * and its processing job in one transaction; list and read them with their captions; retry a failed one; delete
 * one (its storage goes after the commit); put and remove WebVTT captions. Every write is audited.
 */
export function videoAdmin({
  db,
  storage,
  jobs,
  logger,
  changed = () => {},
  processHere = true,
}: {
  db: Db;
  storage: MediaStorage;
  jobs: JobQueue;
  logger: Logger;
  changed?: () => void;
  /**
   * Whether this process starts a job it queued at once (JOB_WORKERS): a replica that only answers requests leaves
   * ffmpeg to the workers, which find the job within JOB_POLL_SECONDS.
   */
  processHere?: boolean;
}) {
  /** The videos this reader may see (all without a reader: the command line's own). */
  const listQuery = (reader?: VideoReader) =>
    db('lessonVideos as v')
      .leftJoin('contentResources as l', 'l.id', 'v.lessonId')
      .select(
        'v.id',
        'v.lessonId',
        db.raw(`l.fields->>'title' as lesson_title`),
        'v.status',
        'v.progress',
        'v.error',
        'v.errorCode',
        'v.version',
        'v.sourceName',
        'v.sourceSize',
        'v.durationMs',
        'v.width',
        'v.height',
        'v.renditionHeights',
        'v.posterKey',
        'v.processedAt',
        'v.updatedAt',
      )
      .modify((q) => {
        if (reader && !readsAllContent(reader.roles)) q.where('l.createdById', reader.id);
      });

  async function present(rows: VideoRow[]): Promise<VideoRecord[]> {
    const captions: VideoCaption[] = rows.length
      ? await db('videoCaptions')
          .whereIn(
            'videoId',
            rows.map((r) => r.id),
          )
          .orderBy('language')
      : [];
    return rows.map(({ version, posterKey, ...row }) => ({
      ...row,
      lessonTitle: row.lessonTitle ?? null,
      posterUrl: posterKey ? `/api/admin/videos/${row.id}/poster.jpg?v=${version}` : null,
      captions: captions
        .filter((c) => c.videoId === row.id)
        .map((c): CaptionSummary => ({ language: c.language, label: c.label, cueCount: cueCount(c.vtt) })),
    }));
  }

  async function getOne(id: string, reader?: VideoReader): Promise<VideoRecord> {
    const row = (await listQuery(reader).where('v.id', id).first()) as VideoRow | undefined;
    if (!row) throw new AppError('not-found', `No video with id ${id}.`);
    return (await present([row]))[0]!;
  }

  async function requireLesson(
    conn: Db,
    lessonId: string,
    lock = false,
  ): Promise<Pick<ContentResource, 'createdById'>> {
    const query = conn('contentResources')
      .where({ id: lessonId, type: 'lesson' })
      .whereNull('deletedAt')
      .first('createdById');
    const lesson = await (lock ? query.forUpdate() : query);
    if (!lesson) throw new AppError('not-found', `No lesson with id ${lessonId}.`);
    return lesson;
  }

  /** Refuses a write to a video this writer may not make: a contributor on another author's lesson (403). */
  async function checkVideoAuthor(id: string, context: VideoWriteContext): Promise<void> {
    const row = await db('lessonVideos as v')
      .leftJoin('contentResources as l', 'l.id', 'v.lessonId')
      .where('v.id', id)
      .first('l.createdById');
    if (!row) throw new AppError('not-found', `No video with id ${id}.`);
    assertMayEditContent({ createdById: row.createdById ?? null }, context.actor);
  }

  /**
   * Stores the source under the version it will have, then, in one transaction with the lesson locked, makes it
   * the lesson's video (created, or replaced: version + 1, queued, nothing of the old version's results) and adds
   * its processing job, audited. Another upload for the same lesson that committed first takes that version: this
   * one is then stored again under the next. The replaced source is removed after the commit.
   */
  async function attachSource(
    source: NewSource,
    context: VideoWriteContext,
    { wake = true }: { wake?: boolean } = {},
  ): Promise<VideoRecord> {
    assertMayEditContent(await requireLesson(db, source.lessonId), context.actor);
    for (let attempt = 1; attempt <= ATTACH_ATTEMPTS; attempt++) {
      const existing: Pick<LessonVideo, 'id' | 'version'> | undefined = await db('lessonVideos')
        .where({ lessonId: source.lessonId })
        .first('id', 'version');
      const id = existing?.id ?? randomUUID();
      const version = (existing?.version ?? 0) + 1;
      const key = sourceKey(id, version, source.filename);
      await storage.put(key, await source.open(), source.contentType || 'application/octet-stream');

      const replaced = await db.transaction(async (trx) => {
        await requireLesson(trx, source.lessonId, true);
        const row: LessonVideo | undefined = await trx('lessonVideos')
          .where({ lessonId: source.lessonId })
          .forUpdate()
          .first();
        if ((row?.id ?? id) !== id || (row?.version ?? 0) !== version - 1) return null;
        const fields = {
          status: 'queued' as const,
          progress: 0,
          error: null,
          errorCode: null,
          version,
          sourceKey: key,
          sourceName: source.filename,
          sourceSize: source.size,
        };
        if (row) {
          await trx('lessonVideos')
            .where({ id })
            .update({
              ...fields,
              durationMs: null,
              width: null,
              height: null,
              renditionHeights: [],
              hlsKey: null,
              posterKey: null,
              processedAt: null,
            });
        } else {
          await trx('lessonVideos').insert({ id, lessonId: source.lessonId, ...fields });
        }
        await jobs.add(trx, PROCESS_VIDEO_JOB, { videoId: id, version } satisfies ProcessVideoData);
        await recordAudit(trx, {
          ...context,
          action: row ? 'replace-source' : 'upload',
          resource: RESOURCE,
          recordId: id,
          before: row ? { version: row.version, status: row.status, sourceName: row.sourceName } : null,
          after: { lessonId: source.lessonId, version, sourceName: source.filename, sourceSize: source.size },
        });
        return { previous: row?.sourceKey ?? null };
      });
      if (!replaced) {
        // Another source won this version; a key under a fresh id is this attempt's alone.
        if (!existing) await storage.delete(key);
        continue;
      }
      if (replaced.previous && replaced.previous !== key) {
        await storage.delete(replaced.previous).catch((error: unknown) => {
          logger.warn({ err: error, key: replaced.previous }, 'could not remove a replaced video source');
        });
      }
      if (wake && processHere) jobs.wake(PROCESS_VIDEO_JOB);
      changed();
      return getOne(id);
    }
    throw new AppError('conflict', 'Other uploads for this lesson finished at the same time; upload it again.');
  }

  return {
    /** The lesson, or a 404, and one this writer may change (403 otherwise): checked before an upload starts. */
    async requireEditableLesson(lessonId: string, context: VideoWriteContext): Promise<void> {
      assertMayEditContent(await requireLesson(db, lessonId), context.actor);
    },

    /** An upload under way goes on only for whoever may change its lesson (a lesson deleted meanwhile: tus decides). */
    async checkUploadLesson(lessonId: string, context: VideoWriteContext): Promise<void> {
      const lesson: Pick<ContentResource, 'createdById'> | undefined = await db('contentResources')
        .where({ id: lessonId })
        .first('createdById');
      if (lesson) assertMayEditContent(lesson, context.actor);
    },

    attachSource,

    async list(query: ListQuery, reader?: VideoReader): Promise<{ rows: VideoRecord[]; total: number }> {
      const filtered = listQuery(reader);
      for (const condition of query.conditions) {
        const column = LIST_COLUMNS[condition.field]!;
        if (condition.op === 'in') filtered.whereIn(column, condition.value as string[]);
        else filtered.where(column, condition.value as string);
      }
      if (query.search) {
        const like = `%${escapeLike(query.search)}%`;
        filtered.where((q) => q.whereILike('v.sourceName', like).orWhereRaw(`l.fields->>'title' ILIKE ?`, [like]));
      }
      const [{ n }] = (await filtered.clone().clearSelect().count({ n: '*' })) as [{ n: number | string }];
      const sort = LIST_COLUMNS[query.sort.field] ?? 'v.updatedAt';
      const rows = (await filtered
        .orderBy(sort, query.sort.order)
        .orderBy('v.id')
        .offset(query.offset)
        .limit(query.limit)) as VideoRow[];
      return { rows: await present(rows), total: Number(n) };
    },

    getOne,

    async byLesson(lessonId: string, reader?: VideoReader): Promise<VideoRecord> {
      const row = (await listQuery(reader).where('v.lessonId', lessonId).first()) as VideoRow | undefined;
      if (!row) throw new AppError('not-found', `The lesson ${lessonId} has no video.`);
      return (await present([row]))[0]!;
    },

    /** A failed video is queued again (same source, same version), audited; anything else is a 409. */
    async retry(id: string, context: VideoWriteContext): Promise<VideoRecord> {
      await checkVideoAuthor(id, context);
      await db.transaction(async (trx) => {
        const row: LessonVideo | undefined = await trx('lessonVideos').where({ id }).forUpdate().first();
        if (!row) throw new AppError('not-found', `No video with id ${id}.`);
        if (row.status !== 'failed') {
          throw new AppError('video-not-failed', `Only a failed video can be retried; this one is ${row.status}.`);
        }
        await trx('lessonVideos').where({ id }).update({ status: 'queued', progress: 0, error: null, errorCode: null });
        await jobs.add(trx, PROCESS_VIDEO_JOB, { videoId: id, version: row.version } satisfies ProcessVideoData);
        await recordAudit(trx, {
          ...context,
          action: 'retry',
          resource: RESOURCE,
          recordId: id,
          before: { status: 'failed', error: row.error },
          after: { status: 'queued', version: row.version },
        });
      });
      if (processHere) jobs.wake(PROCESS_VIDEO_JOB);
      changed();
      return getOne(id);
    },

    /** The video goes (its captions with it), audited; its files under `videos/<id>/` after the commit. */
    async remove(id: string, context: VideoWriteContext): Promise<VideoRecord> {
      await checkVideoAuthor(id, context);
      const record = await getOne(id);
      await db.transaction(async (trx) => {
        const row: LessonVideo | undefined = await trx('lessonVideos').where({ id }).forUpdate().first();
        if (!row) throw new AppError('not-found', `No video with id ${id}.`);
        await trx('lessonVideos').where({ id }).delete();
        await recordAudit(trx, {
          ...context,
          action: 'delete',
          resource: RESOURCE,
          recordId: id,
          before: { lessonId: row.lessonId, version: row.version, status: row.status, sourceName: row.sourceName },
        });
      });
      changed();
      await storage.deletePrefix(videoPrefix(id));
      return record;
    },

    /** Puts a caption file for one language (replacing one there), once it reads as WebVTT; audited. */
    async putCaption(id: string, language: string, body: CaptionBody, context: VideoWriteContext) {
      await checkVideoAuthor(id, context);
      let cues: number;
      try {
        cues = parseWebVtt(body.vtt).cues.length;
      } catch (error) {
        if (!(error instanceof WebVttError)) throw error;
        throw new AppError('caption-invalid', `The captions are not valid WebVTT: ${error.message}.`, {
          vtt: error.message,
        });
      }
      await db.transaction(async (trx) => {
        const row = await trx('lessonVideos').where({ id }).forShare().first('id');
        if (!row) throw new AppError('not-found', `No video with id ${id}.`);
        const before: VideoCaption | undefined = await trx('videoCaptions').where({ videoId: id, language }).first();
        await trx('videoCaptions')
          .insert({ videoId: id, language, label: body.label, vtt: body.vtt })
          .onConflict(['videoId', 'language'])
          .merge(['label', 'vtt']);
        await recordAudit(trx, {
          ...context,
          action: 'set-captions',
          resource: RESOURCE,
          recordId: id,
          before: before ? { language, label: before.label, cueCount: cueCount(before.vtt) } : null,
          after: { language, label: body.label, cueCount: cues, bytes: Buffer.byteLength(body.vtt) },
        });
      });
      changed();
      return getOne(id);
    },

    async deleteCaption(id: string, language: string, context: VideoWriteContext) {
      await checkVideoAuthor(id, context);
      await db.transaction(async (trx) => {
        const caption: VideoCaption | undefined = await trx('videoCaptions')
          .where({ videoId: id, language })
          .forUpdate()
          .first();
        if (!caption) throw new AppError('not-found', `The video ${id} has no captions in ${language}.`);
        await trx('videoCaptions').where({ id: caption.id }).delete();
        await recordAudit(trx, {
          ...context,
          action: 'remove-captions',
          resource: RESOURCE,
          recordId: id,
          before: { language, label: caption.label, cueCount: cueCount(caption.vtt) },
        });
      });
      changed();
      return getOne(id);
    },

    /** The poster's bytes, for the console's preview (to whoever may see the video). */
    async poster(id: string, reader?: VideoReader): Promise<StoredObject> {
      const row = (await listQuery(reader).where('v.id', id).first()) as VideoRow | undefined;
      if (!row) throw new AppError('not-found', `No video with id ${id}.`);
      const poster = row.posterKey ? await storage.get(row.posterKey) : null;
      if (!poster) throw new AppError('not-found', 'This video has no poster yet.');
      return poster;
    },
  };
}

function cueCount(vtt: string): number {
  try {
    return parseWebVtt(vtt).cues.length;
  } catch {
    return 0;
  }
}

export type VideoAdmin = ReturnType<typeof videoAdmin>;
