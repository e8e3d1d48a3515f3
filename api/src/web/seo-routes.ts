import Router from '@koa/router';
import type { CatalogService } from '../catalog/service';
import type { StoreProduct } from '../catalog/schemas';
import type { Config } from '../config';
import type { Policies } from '../identity/http/policy';
import type { Wire } from '../shared/wire';
import { escapeHtml } from '../shared/escape-html';

/** The learner's own pages (and sign-in): nothing there for search engines; they carry noindex too. */
export const PRIVATE_PATHS = [
  '/learning',
  '/bookmarks',
  '/settings',
  '/purchases',
  '/subscriptions',
  '/invoices',
  '/earnings',
  '/thanks',
  '/teams',
  '/transfers',
  '/login',
  '/activate',
  '/devices',
  '/admin',
  '/api',
  '/oauth',
  '/test-provider',
];

/** robots.txt: the public pages open to crawlers, the private ones not, and where the sitemap is. */
export function robotsTxt(publicUrl: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    ...PRIVATE_PATHS.map((p) => `Disallow: ${p}`),
    '',
    `Sitemap: ${new URL('/sitemap.xml', publicUrl).href}`,
    '',
  ].join('\n');
}

const enc = encodeURIComponent;

/** The school's own pages (storefront/src/SiteFooter.tsx): its terms, privacy notice and how to reach it. */
const SCHOOL_PAGES = ['/terms', '/privacy', '/contact'];

/**
 * sitemap.xml (https://www.sitemaps.org/protocol.html): the home page, the school's pages, every product on sale
 * (the storefront's own list: active products; drafts and archived ones are not there) and the outline of each
 * course they grant, by the same addresses the storefront links to (slug, else id).
 */
export function sitemapXml(publicUrl: string, products: Pick<Wire<StoreProduct>, 'id' | 'slug' | 'courses'>[]): string {
  const paths = new Set<string>(['/', ...SCHOOL_PAGES]);
  for (const product of products) paths.add(`/products/${enc(product.slug ?? product.id)}`);
  for (const product of products) {
    for (const course of product.courses) paths.add(`/courses/${enc(course.slug ?? course.id)}`);
  }
  const urls = [...paths].map((p) => `  <url><loc>${escapeHtml(new URL(p, publicUrl).href)}</loc></url>`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
}

export function seoRoutes({
  config,
  catalog,
  allow,
}: {
  config: Pick<Config, 'publicUrl'>;
  catalog: Pick<CatalogService, 'activeProductsJson'>;
  allow: Policies;
}) {
  const router = new Router();
  router.get('/robots.txt', allow.public(), (ctx) => {
    ctx.type = 'text/plain; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = robotsTxt(config.publicUrl);
  });
  router.get('/sitemap.xml', allow.public(), async (ctx) => {
    const { data } = JSON.parse(await catalog.activeProductsJson()) as { data: Wire<StoreProduct>[] };
    ctx.type = 'application/xml; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = sitemapXml(config.publicUrl, data);
  });
  return router;
}
