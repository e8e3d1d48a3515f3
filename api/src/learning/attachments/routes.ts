import Router from '@koa/router';
import type { Context } from 'koa';
import type { Config } from '../../config';
import { buyerCountry } from '../../http/buyer-location';
import { readNamedUpload } from '../../http/multipart';
import { IdParam } from '../../http/params';
import { actorOf, authOf } from '../../identity/http/caller';
import type { Policies } from '../../identity/http/policy';
import { AppError } from '../../shared/errors';
import { escapeHtml } from '../../shared/escape-html';
import { LessonIdParam } from '../schemas';
import { attachmentDisposition, type LessonAttachments } from './attachments';
import { AttachmentLinksQuery, AttachmentOrderBody, DownloadParams } from './attachments.schemas';
import { MAX_ATTACHMENT_BYTES } from './file-types';

interface Deps {
  allow: Policies;
  attachments: LessonAttachments;
}

const writer = (ctx: Context) => ({ actor: actorOf(ctx), requestId: ctx.state.requestId ?? null });

/**
 * The console's side of a lesson's files: list, upload (multipart, field `file`), reorder and delete. Reads: staff
 * and contributors (their own lessons'); writes: support and contributors (their own lessons'); admins always.
 */
export function attachmentAdminRoutes({ allow, attachments }: Deps) {
  const router = new Router();
  const readers = () => allow.roles('support', 'finance', 'contributor');
  const writers = () => allow.roles('support', 'contributor');

  router.get('/lessons/:lessonId/attachments', readers(), async (ctx) => {
    ctx.body = { data: await attachments.list(LessonIdParam.parse(ctx.params).lessonId, actorOf(ctx)) };
  });
  router.post('/lessons/:lessonId/attachments', writers(), async (ctx) => {
    const { lessonId } = LessonIdParam.parse(ctx.params);
    const { bytes, name } = await readNamedUpload(ctx, 'file', MAX_ATTACHMENT_BYTES);
    ctx.status = 201;
    ctx.body = { data: await attachments.upload(lessonId, name, bytes, writer(ctx)) };
  });
  router.put('/lessons/:lessonId/attachments/order', writers(), async (ctx) => {
    const { lessonId } = LessonIdParam.parse(ctx.params);
    const { ids } = AttachmentOrderBody.parse(ctx.request.body ?? {});
    ctx.body = { data: await attachments.reorder(lessonId, ids, writer(ctx)) };
  });
  router.delete('/lesson-attachments/:id', writers(), async (ctx) => {
    await attachments.remove(IdParam.parse(ctx.params).id, writer(ctx));
    ctx.status = 204;
  });
  return router;
}

/** GET /api/store/lessons/:lessonId/attachments: the lesson's files with short-lived links, for whoever may open it. */
export function attachmentStoreRoutes({ allow, config, attachments }: Deps & { config: Config }) {
  const router = new Router();
  router.get('/lessons/:lessonId/attachments', allow.public({ bearer: true }), async (ctx) => {
    const { lessonId } = LessonIdParam.parse(ctx.params);
    const { course } = AttachmentLinksQuery.parse(ctx.query);
    const viewer = { user: authOf(ctx)?.user ?? null, country: buyerCountry(ctx, config) };
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = { data: await attachments.links(lessonId, viewer, course) };
  });
  return router;
}

/** A refused download opened in a browser: a page that says why and what to do, with the error's code and status. */
function refusalPage(error: AppError): string {
  const heading = error.status === 404 ? 'This file is not available' : 'This download link cannot be used';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${heading}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}</style>
</head><body><main><h1>${heading}</h1><p>${escapeHtml(error.message)}</p>
<p>Error code: <code>${escapeHtml(error.code)}</code></p><p><a href="/">Back to the school</a></p></main></body></html>`;
}

/**
 * GET /media/attachments/<token>/<name>: a signed download link. Public as a route: the token names who may use it,
 * checked with their access on every request. Always an attachment (never shown as a page), named as uploaded
 * (RFC 6266, with RFC 5987's `filename*` for any script): from a directory the bytes themselves; from S3 a 302 to a
 * presigned GET that answers with that name and type. A browser opening a refused link gets a page saying why.
 */
export function attachmentMediaRoutes({ allow, config, attachments }: Deps & { config: Config }) {
  const router = new Router();
  // A device's links (the store lists files to bearer tokens too) are downloaded with its token, as videos are.
  router.get('/attachments/:token/:name', allow.public({ bearer: true }), async (ctx) => {
    const { token } = DownloadParams.parse(ctx.params);
    try {
      const file = await attachments.download(token, {
        userId: authOf(ctx)?.user.id ?? null,
        country: buyerCountry(ctx, config),
      });
      if ('redirect' in file) {
        // S3's presigned GET, made for this request alone: never kept by a cache.
        ctx.set('Cache-Control', 'no-store');
        ctx.redirect(file.redirect);
        return;
      }
      ctx.set('Content-Disposition', attachmentDisposition(file.fileName));
      ctx.type = file.contentType;
      ctx.set('Cache-Control', `private, max-age=${file.maxAgeSeconds}`);
      ctx.compress = false;
      ctx.body = file.body;
      ctx.length = file.size;
    } catch (error) {
      if (!(error instanceof AppError) || ctx.accepts('json', 'html') !== 'html') throw error;
      ctx.status = error.status;
      ctx.type = 'text/html; charset=utf-8';
      ctx.set('Cache-Control', 'no-store');
      ctx.body = refusalPage(error);
    }
  });
  return router;
}
