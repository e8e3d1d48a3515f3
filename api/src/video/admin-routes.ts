import { Readable } from 'node:stream';
import Router from '@koa/router';
import type { Context } from 'koa';
import { parseListQuery } from '../list-query/schemas';
import { actorOf } from '../identity/http/caller';
import { pagedCsv } from '../http/paged-csv';
import { derived, instant, number, text, type CsvColumn } from '../http/csv-columns';
import { AppError } from '../shared/errors';
import { IdParam } from '../http/params';
import type { Policies } from '../identity/http/policy';
import { CaptionBody, CaptionParams, LessonIdParam, UploadMetadata } from './schemas';
import { UPLOAD_ID, type VideoUploads } from './upload';
import { VIDEO_LIST, type VideoAdmin, type VideoWriteContext } from './video-admin';

/** The video list's export, as the list reads: the lesson by its title, length and size as numbers, captions by language. */
const VIDEO_COLUMNS: readonly CsvColumn[] = [
  text('Lesson', 'lessonTitle'),
  text('Status', 'status'),
  number('Progress (%)', 'progress'),
  text('Error', 'error'),
  derived('Duration (s)', (v) => (v.durationMs == null ? null : Math.round(Number(v.durationMs) / 1000))),
  derived('Size (MB)', (v) => Math.round((Number(v.sourceSize) / 1024 / 1024) * 10) / 10),
  text('Source file', 'sourceName'),
  derived('Resolution', (v) => (v.width && v.height ? `${String(v.width)}×${String(v.height)}` : null)),
  derived('Captions', (v) => (v.captions as { language: string }[]).map((c) => c.language).join(', ')),
  instant('Processed', 'processedAt'),
  instant('Updated', 'updatedAt'),
  text('Lesson id', 'lessonId'),
  text('Video id', 'id'),
];

/** The writer with their roles: contributors change only the videos of lessons they wrote. */
function writeContext(ctx: Context): VideoWriteContext {
  return { actor: actorOf(ctx), requestId: ctx.state.requestId ?? null };
}

/** tus's Upload-Metadata: `key base64value` pairs separated by commas (a key alone has no value). */
function uploadMetadata(header: string): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const pair of header.split(',')) {
    const [key, value = ''] = pair.trim().split(' ');
    if (!key) continue;
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value)) {
      throw new AppError('validation-failed', `Upload-Metadata: the value of ${key} is not base64.`);
    }
    pairs[key] = Buffer.from(value, 'base64').toString('utf8');
  }
  return pairs;
}

/** The Koa request as a web Request for @tus/server; the body is the request's own stream, read as it arrives. */
function webRequest(ctx: Context): Request {
  const headers = new Headers();
  const raw = ctx.req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  const withBody = ctx.method === 'PATCH' || ctx.method === 'POST';
  return new Request(`http://localhost${ctx.path}`, {
    method: ctx.method,
    headers,
    body: withBody ? (Readable.toWeb(ctx.req) as ReadableStream<Uint8Array>) : null,
    duplex: 'half',
  } as RequestInit);
}

/**
 * The console's lesson videos. Uploads speak tus 1.0 at /uploads/videos (POST creates, PATCH sends bytes, HEAD
 * tells how far it got, DELETE drops it), behind the same policy and CSRF check as every console write. Then the
 * videos: list (react-admin's query), one, one lesson's, its poster preview; retry a failed one, delete one, put
 * and remove captions (WebVTT, checked: 400 caption-invalid saying where it broke). Reads: support, finance and
 * contributors (the videos of lessons they wrote); writes: support and contributors (admins always).
 */
export function videoAdminRoutes({
  allow,
  videos,
  uploads,
}: {
  allow: Policies;
  videos: VideoAdmin;
  uploads: VideoUploads;
}) {
  const router = new Router();
  const readers = () => allow.roles('support', 'finance', 'contributor');
  const writers = () => allow.roles('support', 'contributor');

  const tus = async (ctx: Context) => {
    if (ctx.params.uploadId !== undefined && !UPLOAD_ID.test(ctx.params.uploadId)) {
      throw new AppError('not-found', 'No such upload.');
    }
    if (ctx.method === 'POST') {
      const length = ctx.get('upload-length');
      if (length && !/^\d{1,15}$/.test(length)) throw new AppError('validation-failed', 'Upload-Length is not a size.');
      const metadata = UploadMetadata.parse(uploadMetadata(ctx.get('upload-metadata')));
      await uploads.checkCreation(metadata, length ? Number(length) : null, writeContext(ctx));
    } else {
      await uploads.checkUpload(ctx.params.uploadId!, writeContext(ctx));
    }
    const response = await uploads.handle(webRequest(ctx), writeContext(ctx));
    ctx.status = response.status;
    response.headers.forEach((value, name) => {
      if (name !== 'content-length' && name !== 'connection') ctx.set(name, value);
    });
    // Koa answers a null body with 204: tus's empty 201 and 200 (HEAD) stay what they are.
    const text = await response.text();
    ctx.body = text || (response.status === 204 ? null : '');
  };
  router.post('/uploads/videos', writers(), tus);
  router.patch('/uploads/videos/:uploadId', writers(), tus);
  router.head('/uploads/videos/:uploadId', writers(), tus);
  router.delete('/uploads/videos/:uploadId', writers(), tus);

  router.get('/videos', readers(), async (ctx) => {
    const query = parseListQuery(VIDEO_LIST, ctx.query);
    const { rows, total } = await videos.list(query, actorOf(ctx));
    const last = query.offset + rows.length - 1;
    ctx.set('Content-Range', `videos ${rows.length ? `${query.offset}-${last}` : '*'}/${total}`);
    ctx.body = rows;
  });
  // The list as CSV, like every console list's (admin/routes.ts): its filters, search and sort; before `/:id`.
  router.get('/videos/export.csv', readers(), async (ctx) => {
    const query = parseListQuery(VIDEO_LIST, ctx.query);
    const reader = actorOf(ctx);
    const { total, body } = await pagedCsv(VIDEO_COLUMNS, (offset, limit) =>
      videos.list({ ...query, offset, limit }, reader),
    );
    ctx.set('Content-Disposition', `attachment; filename="videos-${new Date().toISOString().slice(0, 10)}.csv"`);
    ctx.set('X-Total-Rows', String(total));
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/csv; charset=utf-8';
    ctx.body = body;
  });
  router.get('/videos/:id', readers(), async (ctx) => {
    ctx.body = await videos.getOne(IdParam.parse(ctx.params).id, actorOf(ctx));
  });
  router.get('/videos/:id/poster.jpg', readers(), async (ctx) => {
    const poster = await videos.poster(IdParam.parse(ctx.params).id, actorOf(ctx));
    ctx.type = poster.contentType;
    ctx.length = poster.size;
    // The address names the version (?v=), so a new poster is a new address.
    ctx.set('Cache-Control', 'private, max-age=86400');
    ctx.body = poster.body;
  });
  router.get('/lessons/:lessonId/video', readers(), async (ctx) => {
    ctx.body = await videos.byLesson(LessonIdParam.parse(ctx.params).lessonId, actorOf(ctx));
  });

  router.post('/videos/:id/retry', writers(), async (ctx) => {
    ctx.body = await videos.retry(IdParam.parse(ctx.params).id, writeContext(ctx));
  });
  router.delete('/videos/:id', writers(), async (ctx) => {
    ctx.body = await videos.remove(IdParam.parse(ctx.params).id, writeContext(ctx));
  });
  router.put('/videos/:id/captions/:language', writers(), async (ctx) => {
    const { id, language } = CaptionParams.parse(ctx.params);
    ctx.body = await videos.putCaption(id, language, CaptionBody.parse(ctx.request.body), writeContext(ctx));
  });
  router.delete('/videos/:id/captions/:language', writers(), async (ctx) => {
    const { id, language } = CaptionParams.parse(ctx.params);
    ctx.body = await videos.deleteCaption(id, language, writeContext(ctx));
  });

  return router;
}
