import type { Db } from '../db/connection';
import { readsAllContent } from '../learning/authorship';
import type { ListableResource, ListQuery } from '../list-query/schemas';
import type { StoredObject } from '../media/storage';
import { AppError } from '../shared/errors';
import type { VideoAdminDeps, VideoReader } from './admin-deps';
import type { VideoCaption } from './models';
import type { CaptionSummary, VideoRecord } from './schemas';
import { cueCount } from './webvtt';

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

interface VideoRow extends Omit<VideoRecord, 'posterUrl' | 'captions'> {
  version: number;
  posterKey: string | null;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The videos this reader may see (all without a reader: the command line's own). */
const listQuery = (db: Db, reader?: VideoReader) =>
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

/** The rows as the console shows them: the poster's URL (new with each version) and each caption's cue count. */
async function present(db: Db, rows: VideoRow[]): Promise<VideoRecord[]> {
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

type ReadDeps = Pick<VideoAdminDeps, 'db'>;

export async function getVideo({ db }: ReadDeps, id: string, reader?: VideoReader): Promise<VideoRecord> {
  const row = (await listQuery(db, reader).where('v.id', id).first()) as VideoRow | undefined;
  if (!row) throw new AppError('not-found', `No video with id ${id}.`);
  return (await present(db, [row]))[0]!;
}

export async function videoByLesson({ db }: ReadDeps, lessonId: string, reader?: VideoReader): Promise<VideoRecord> {
  const row = (await listQuery(db, reader).where('v.lessonId', lessonId).first()) as VideoRow | undefined;
  if (!row) throw new AppError('not-found', `The lesson ${lessonId} has no video.`);
  return (await present(db, [row]))[0]!;
}

export async function listVideos(
  { db }: ReadDeps,
  query: ListQuery,
  reader?: VideoReader,
): Promise<{ rows: VideoRecord[]; total: number }> {
  const filtered = listQuery(db, reader);
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
  return { rows: await present(db, rows), total: Number(n) };
}

/** The poster's bytes, for the console's preview (to whoever may see the video). */
export async function videoPoster(
  { db, storage }: Pick<VideoAdminDeps, 'db' | 'storage'>,
  id: string,
  reader?: VideoReader,
): Promise<StoredObject> {
  const row = (await listQuery(db, reader).where('v.id', id).first()) as VideoRow | undefined;
  if (!row) throw new AppError('not-found', `No video with id ${id}.`);
  const poster = row.posterKey ? await storage.get(row.posterKey) : null;
  if (!poster) throw new AppError('not-found', 'This video has no poster yet.');
  return poster;
}
