import { createHash } from 'node:crypto';
import Router from '@koa/router';
import type { Context } from 'koa';
import type { Policies } from '../identity/http/policy';
import type { School } from '../school/schemas';
import { ICON_SIZES, iconVersion, type IconPath, type SiteIcons } from './site-icons';

/** Browsers check back after a day; a page's links carry the icons' version (`?v=`), so a new logo shows at once. */
const CACHE_CONTROL = 'public, max-age=86400';

/**
 * The web app manifest (https://www.w3.org/TR/appmanifest/): the school's name, its accent as the theme colour, and
 * the icons for a phone's home screen.
 */
export function webManifest(school: Pick<School, 'name' | 'accentColor' | 'logo'>) {
  const v = iconVersion(school);
  // A home screen shows about 12 characters: the name if it fits, else its first word.
  const shortName = school.name.length <= 12 ? school.name : school.name.split(' ')[0]!.slice(0, 12);
  return {
    name: school.name,
    short_name: shortName,
    id: '/',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    lang: 'en',
    theme_color: school.accentColor,
    background_color: '#ffffff',
    icons: (['/icon-192.png', '/icon-512.png'] as const).map((path) => ({
      src: `${path}?v=${v}`,
      sizes: `${ICON_SIZES[path]}x${ICON_SIZES[path]}`,
      type: 'image/png',
      purpose: 'any',
    })),
  };
}

/** Answers with `body` under the version's ETag, or 304 when the browser holds it. */
function answer(ctx: Context, type: string, version: string, body: Buffer | string) {
  ctx.set('Cache-Control', CACHE_CONTROL);
  ctx.etag = version;
  ctx.type = type;
  ctx.status = 200; // freshness is judged only for a success
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  ctx.body = body;
}

/** /favicon.ico, the home-screen icons and /manifest.webmanifest, made from the school's logo (site-icons.ts). */
export function siteIconRoutes({
  allow,
  school,
  icons,
}: {
  allow: Policies;
  school: () => Promise<School>;
  icons: SiteIcons;
}) {
  const router = new Router();
  router.get('/favicon.ico', allow.public(), async (ctx) => {
    const { bytes, version } = await icons.icon('/favicon.ico', await school());
    answer(ctx, 'image/x-icon', version, bytes);
  });
  for (const path of Object.keys(ICON_SIZES) as IconPath[]) {
    router.get(path, allow.public(), async (ctx) => {
      const { bytes, version } = await icons.icon(path, await school());
      answer(ctx, 'image/png', version, bytes);
    });
  }
  router.get('/manifest.webmanifest', allow.public(), async (ctx) => {
    const manifest = JSON.stringify(webManifest(await school()));
    answer(ctx, 'application/manifest+json', createHash('sha1').update(manifest).digest('base64url'), manifest);
  });
  return router;
}
