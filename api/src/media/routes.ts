import Router from '@koa/router';
import { AppError } from '../shared/errors';
import type { Policies } from '../identity/http/policy';
import { variantFormat, variantOf, type ImageStore } from './images';
import { ImageRequest } from './schemas';

/** An image's address names its bytes (a new upload is a new address): caches may keep an answer for good. */
const FOREVER = 'public, max-age=31536000, immutable';

/**
 * GET /media/images/:key?w=<width>: a picture at one of the served widths, as AVIF, WebP or the original's kind by
 * what the browser accepts (hence Vary: Accept), made on the first request and stored for the next ones.
 * Served from this site (not a redirect to the storage), so the CSP's img-src stays 'self' and access rules
 * can apply here later. `X-Media-Variant` says whether the variant was read back (`stored`) or made now (`made`).
 */
export function mediaRoutes({ allow, images }: { allow: Policies; images: ImageStore }) {
  const router = new Router();
  router.get('/images/:key', allow.public({ bearer: true }), async (ctx) => {
    const { key, w } = ImageRequest.parse({ key: ctx.params.key, w: ctx.query.w });
    const accepted = ctx.accepts() as string[];
    const format = variantFormat(key, {
      avif: accepted.includes('image/avif'),
      webp: accepted.includes('image/webp'),
    });
    const variant = variantOf(key, w, format)!;
    ctx.vary('Accept');
    ctx.status = 200;
    ctx.etag = variant.etag;
    if (ctx.fresh) {
      ctx.set('Cache-Control', FOREVER);
      ctx.status = 304;
      return;
    }
    const served = await images.variant(key, w, format);
    if (!served) throw new AppError('not-found', 'There is no image at this address.');
    ctx.set('Cache-Control', FOREVER);
    ctx.set('X-Media-Variant', served.stored ? 'stored' : 'made');
    ctx.type = served.contentType;
    ctx.length = served.size;
    ctx.body = served.body;
  });
  return router;
}
