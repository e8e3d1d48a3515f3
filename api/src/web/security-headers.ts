import type { Middleware } from 'koa';
import helmet from 'koa-helmet';
import type { Config } from '../config';
import { EMBED_FRAME_SOURCES } from '../shared/embeds';

/**
 * The Content-Security-Policy every answer carries (the two apps' pages, their files, the API's JSON), written
 * from what the apps do:
 * - scripts only from this site: the built apps are module files, with no inline script and no eval;
 * - styles from this site and inline: the console's MUI/emotion and the rich-text editor (mui-tiptap) insert
 *   <style> elements at run time, and the built-in test provider's checkout page has its own;
 * - images from anywhere over HTTPS, data: and blob: too: lesson bodies show images by URL (the editor inserts
 *   them by address, from any host), GitHub avatars, the apps' data: icons, the console's preview of a picture
 *   being uploaded (blob:); plain http: only outside production, where the site itself is plain HTTP (production
 *   upgrades every request to HTTPS). Uploaded pictures (product images, avatars) are served by this site at
 *   /media/images/… whatever the storage (a directory or an S3 bucket), so they need nothing beyond 'self';
 * - lesson videos from this site only (signed links under /media/videos/), played through Media Source Extensions:
 *   hls.js hands the <video> a blob: URL (media-src) and runs its demuxer in a worker it makes from a blob: URL
 *   (worker-src; without it, it would demux on the page's own thread);
 * - fetch/XHR only to this site (the API); forms post only here; no plugins; no <base> elsewhere;
 * - frames from this site, and on the storefront (its lesson pages, reached from any of its pages without a new
 *   document) the embeds' players of shared/embeds.ts, exactly those hosts over HTTPS; the console frames none (its
 *   editor shows an embed as a card, not a live player);
 * - no other site may frame any page (frame-ancestors 'none', and X-Frame-Options: DENY for older browsers): a
 *   signed-in page such as /activate (approving a device) must not be clickjacked.
 * Payments need nothing here: Stripe's checkout is a redirect to its own site, and no page loads Stripe's scripts.
 */
export function contentSecurityPolicy(
  production: boolean,
  app: 'storefront' | 'console' = 'storefront',
): Record<string, string[] | null> {
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:', 'https:', ...(production ? [] : ['http:'])],
    'font-src': ["'self'", 'data:'],
    'media-src': ["'self'", 'blob:'],
    'worker-src': ["'self'", 'blob:'],
    'connect-src': ["'self'"],
    'frame-src': ["'self'", ...(app === 'storefront' ? EMBED_FRAME_SOURCES : [])],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    'upgrade-insecure-requests': production ? [] : null,
  };
}

/** How long browsers keep to HTTPS once told (Strict-Transport-Security, production only): a year. */
export const HSTS_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/**
 * Security headers on every answer, set before anything else runs so errors carry them too (koa-helmet, on
 * helmet's maintained defaults where this file says nothing): the CSP above, X-Frame-Options: DENY,
 * X-Content-Type-Options: nosniff, Referrer-Policy: same-origin (sign-in links carry their token in the URL: no
 * other site ever sees one in a Referer; our own requests keep theirs), Cross-Origin-Opener-Policy and
 * -Resource-Policy same-origin, and HSTS in production only (development and tests are served over plain HTTP).
 */
export function securityHeaders(config: Pick<Config, 'NODE_ENV'>): Middleware {
  const production = config.NODE_ENV === 'production';
  const headers = (app: 'storefront' | 'console') =>
    helmet({
      contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(production, app) },
      xFrameOptions: { action: 'deny' },
      referrerPolicy: { policy: 'same-origin' },
      strictTransportSecurity: production ? { maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: true } : false,
    });
  const storefront = headers('storefront');
  const consoleApp = headers('console');
  return (ctx, next) => (/^\/admin(?:\/|$)/i.test(ctx.path) ? consoleApp(ctx, next) : storefront(ctx, next));
}
