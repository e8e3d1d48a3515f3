import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Context } from 'koa';
import { inject } from 'light-my-request';
import type { Config } from '../config';
import type { ReadCaches } from '../cache/read-cache';
import type { AppState } from '../http/context';
import type { School } from '../school/schemas';
import { SESSION_COOKIE } from '../http/auth';
import { escapeHtml } from '../shared/escape-html';
import { pageTitle } from '../shared/page-title';
import type { Wire } from '../shared/wire';
import { brandStyle } from './brand-palette';
import { iconVersion } from './site-icons';

/*
 * The storefront's pages as the server answers them. Public pages (home, product, course outline, free lessons,
 * invites, certificates, page not found) are rendered by the storefront's own components (storefront/src/entry-server.tsx, built
 * with `vite build --ssr`) as a signed-out visitor sees them: real HTML with the page's title, description, canonical
 * URL, Open Graph and Twitter card tags and JSON-LD, for search engines and link previews, then hydrated in the
 * browser. The learner's own pages are the empty shell the browser renders, marked noindex. Every answer carries the
 * school whose site it is (its name in the title, its accent's colours, and the school for the app's header and footer).
 */

/** The server render's bundle, inside the storefront's build (hidden: never served as a file). */
export const SSR_ENTRY = path.join('.server', 'entry-server.js');

type Transport = (path: string, init: RequestInit) => Promise<Response>;

/** The school as every page carries it: all but the legal texts, which only their own pages load, and its tax setup. */
type SiteSchool = Omit<
  Wire<School>,
  'termsHtml' | 'privacyHtml' | 'taxCountry' | 'taxId' | 'taxEuOss' | 'taxInclusiveCurrencies'
>;

function siteSchool(school: School): SiteSchool {
  const { termsHtml: _terms, privacyHtml: _privacy, ...shown } = school;
  const { taxCountry: _country, taxId: _id, taxEuOss: _oss, taxInclusiveCurrencies: _inclusive, ...rest } = shown;
  return rest;
}

/** The id of the JSON block that carries the school (storefront/src/school.ts SCHOOL_ELEMENT_ID). */
const SCHOOL_ELEMENT_ID = 'school-data';

interface PageHead {
  title?: string;
  description?: string | null;
  path?: string;
  image?: string | null;
  type?: string;
  noindex?: boolean;
  /** What a visitor sees, not what a signed-in reader may (a paid lesson): a request with a session gets the shell. */
  visitorsOnly?: boolean;
  jsonLd: Record<string, unknown> | null;
}

/** What storefront/src/entry-server.tsx exports (its types stay in the storefront's build). */
interface ServerEntry {
  /** The path and only the query parameters the page reads: what a render is kept under. */
  renderedAddress(url: string): string;
  render(
    url: string,
    origin: string,
    transport: Transport,
    school: SiteSchool,
  ): Promise<
    | {
        kind: 'page';
        status: number;
        html: string;
        head: PageHead;
        seeds: Record<string, unknown>;
        page: string | null;
      }
    | { kind: 'client'; noindex: boolean; problem: Error | null }
  >;
}

/** The built files this module reads, read again when a build replaces them. */
function fileCache<T>(read: (file: string) => T) {
  const cached = new Map<string, { mtimeMs: number; value: T }>();
  return (file: string): T | null => {
    if (!existsSync(file)) return null;
    const { mtimeMs } = statSync(file);
    const hit = cached.get(file);
    if (hit?.mtimeMs === mtimeMs) return hit.value;
    const value = read(file);
    cached.set(file, { mtimeMs, value });
    return value;
  };
}

const text = fileCache((file) => readFileSync(file, 'utf8'));
/**
 * The server bundle, imported once per process: its page chunks import it back by its plain path, so a second copy
 * (a query to re-import a rebuilt one) would not be the one they see. A new build takes a restart, as any code does.
 */
const entries = new Map<string, Promise<ServerEntry>>();
function serverEntry(file: string): Promise<ServerEntry> | null {
  if (!entries.has(file)) {
    if (!existsSync(file)) return null;
    entries.set(file, import(pathToFileURL(file).href) as Promise<ServerEntry>);
  }
  return entries.get(file)!;
}

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}

/** The JavaScript a page's chunk needs beyond the entry (which the template loads): its file and static imports. */
function pageScripts(manifest: Record<string, ManifestChunk>, page: string): string[] {
  const key = Object.keys(manifest).find((k) => k.endsWith(`/${page}.tsx`));
  if (!key) return [];
  const files = new Set<string>();
  const visit = (k: string) => {
    const chunk = manifest[k];
    if (!chunk || files.has(chunk.file) || chunk.file.endsWith('.html')) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(key);
  return [...files];
}

/**
 * JSON inside a <script> element: `<` (and `>`, `&`) escaped as \u003c…, so no text (a product named
 * `</script><script>…`) can close the element or open a comment; U+2028/9 too, for old parsers.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

const meta = (attribute: 'name' | 'property', key: string, content: string) =>
  `<meta ${attribute}="${key}" content="${escapeHtml(content)}" />`;

/** The tags of a rendered page's head, after the template's own. */
function headTags(head: PageHead, status: number, pageUrl: string, siteName: string, preload: string[]): string {
  const tags: string[] = [];
  const absolute = (p: string) => new URL(p, pageUrl).href;
  if (head.noindex || status !== 200) tags.push(meta('name', 'robots', 'noindex'));
  if (status === 200) {
    const url = absolute(head.path ?? new URL(pageUrl).pathname);
    const title = head.title ?? siteName;
    tags.push(
      `<link rel="canonical" href="${escapeHtml(url)}" />`,
      meta('property', 'og:site_name', siteName),
      meta('property', 'og:type', head.type ?? 'website'),
      meta('property', 'og:title', title),
      meta('property', 'og:url', url),
      meta('name', 'twitter:card', head.image ? 'summary_large_image' : 'summary'),
      meta('name', 'twitter:title', title),
    );
    if (head.description) {
      tags.push(
        meta('property', 'og:description', head.description),
        meta('name', 'twitter:description', head.description),
      );
    }
    if (head.image)
      tags.push(
        meta('property', 'og:image', absolute(head.image)),
        meta('name', 'twitter:image', absolute(head.image)),
      );
    if (head.jsonLd) tags.push(`<script type="application/ld+json">${scriptJson(head.jsonLd)}</script>`);
  }
  for (const file of preload) tags.push(`<link rel="modulepreload" crossorigin href="/${escapeHtml(file)}" />`);
  return tags.join('\n    ');
}

/** The API reached in-process (light-my-request), as a signed-out visitor: no cookie, only the storefront's GETs. */
function inProcess(handler: () => RequestListener, requestId: string): Transport {
  return async (url, init) => {
    if ((init.method ?? 'GET') !== 'GET' || !url.startsWith('/api/store/')) {
      throw new Error(`the server render only reads the storefront's API, not ${init.method} ${url}`);
    }
    const answer = await inject(handler(), {
      method: 'GET',
      url,
      headers: { accept: 'application/json', 'x-request-id': requestId },
    });
    const headers = new Headers();
    for (const name of ['content-type', 'retry-after']) {
      const value = answer.headers[name];
      if (typeof value === 'string') headers.set(name, value);
    }
    const empty = answer.statusCode === 204 || answer.statusCode === 304;
    return new Response(empty ? null : answer.payload, { status: answer.statusCode, headers });
  };
}

interface Options {
  /** The storefront's build (its index.html, manifest and the server bundle). */
  root: string;
  config: Pick<Config, 'publicUrl'>;
  /** The app's own request handler, for the render's loads. */
  handler: () => RequestListener;
  /**
   * Keeps each address's answer for READ_CACHE_MS (the staleness the catalog's reads already have), so a busy page is
   * rendered once per period however many ask at once. Without it, every request renders.
   */
  caches?: Pick<ReadCaches, 'cached'>;
  /** The school's settings (read-cached by the school's service, forgotten when they change). */
  school: () => Promise<School>;
}

/** What an address answers, the same for every visitor: a rendered page, or the shell the browser renders. */
type PageAnswer =
  | { kind: 'page'; status: number; html: string; etag: string; visitorsOnly: boolean }
  | { kind: 'shell'; html: string; problem: Error | null };

/**
 * Answers a storefront address that is not a file (serveSpa's `page`): a rendered public page, or the shell for
 * the learner's own pages. A render that fails (the API down) falls back to the shell, which loads in the browser.
 */
export function storefrontPage({ root, config, handler, caches, school }: Options) {
  const origin = new URL(config.publicUrl).origin;

  const template = () => text(path.join(root, 'index.html'))!;
  /**
   * What every page's head says of the school: its colours (theme-color: the browser's bar), its icons and manifest
   * (site-icon-routes.ts), linked with their version so a new logo is fetched at once.
   */
  const schoolHead = (site: SiteSchool) => {
    const v = iconVersion(site);
    return [
      brandStyle(site.accentColor),
      meta('name', 'theme-color', site.accentColor),
      `<link rel="icon" href="/favicon.ico?v=${v}" sizes="48x48" />`,
      `<link rel="icon" type="image/png" href="/icon-192.png?v=${v}" sizes="192x192" />`,
      `<link rel="apple-touch-icon" href="/apple-touch-icon.png?v=${v}" />`,
      `<link rel="manifest" href="/manifest.webmanifest?v=${v}" />`,
    ].join('\n    ');
  };
  const schoolData = (site: SiteSchool) =>
    `<script type="application/json" id="${SCHOOL_ELEMENT_ID}">${scriptJson(site)}</script>`;
  /** The page the browser renders; without the school (its settings unreadable) the browser asks for it. */
  const shell = (site: SiteSchool | null, noindex: boolean, problem: Error | null): PageAnswer => ({
    kind: 'shell',
    problem,
    html: template()
      .replace(/<title>[^<]*<\/title>/, (tag) => (site ? `<title>${escapeHtml(site.name)}</title>` : tag))
      .replace('<!--page-head-->', () =>
        [...(site ? [schoolHead(site)] : []), ...(noindex ? [meta('name', 'robots', 'noindex')] : [])].join('\n    '),
      )
      .replace('<!--page-html-->', '')
      .replace('<!--page-data-->', () => (site ? schoolData(site) : '')),
  });

  async function answer(url: string, site: SiteSchool): Promise<PageAnswer> {
    const entry = await serverEntry(path.join(root, SSR_ENTRY));
    const rendered = entry ? await entry.render(url, origin, inProcess(handler, 'server-render'), site) : null;
    if (!rendered || rendered.kind === 'client') {
      return shell(site, rendered?.noindex ?? false, rendered?.problem ?? null);
    }

    const manifest = text(path.join(root, '.vite', 'manifest.json'));
    const page = template();
    const preload = (rendered.page && manifest ? pageScripts(JSON.parse(manifest), rendered.page) : []).filter(
      (file) => !page.includes(file), // the entry's own imports are in the template already
    );
    const pageUrl = new URL(url, origin).href;
    const { head } = rendered;
    const html = page
      .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(pageTitle(head.title, site.name))}</title>`)
      .replace(/<meta name="description" content="[^"]*" \/>/, (tag) =>
        head.description ? meta('name', 'description', head.description) : tag,
      )
      .replace('<!--page-head-->', () =>
        [schoolHead(site), headTags(head, rendered.status, pageUrl, site.name, preload)].join('\n    '),
      )
      .replace('<!--page-html-->', () => rendered.html)
      .replace(
        '<!--page-data-->',
        () =>
          `${schoolData(site)}\n    <script type="application/json" id="prerendered-data">${scriptJson(rendered.seeds)}</script>`,
      );
    return {
      kind: 'page',
      status: rendered.status,
      html,
      etag: `W/"${createHash('sha1').update(html).digest('base64url')}"`,
      visitorsOnly: head.visitorsOnly ?? false,
    };
  }

  /**
   * What the address is rendered and kept as: its path and the query parameters its page reads, so a query of no
   * meaning to the page (`?utm_source=…`, `?x=<random>`) is answered from the render kept, not rendered afresh.
   */
  async function addressOf(url: string): Promise<string> {
    const entry = await serverEntry(path.join(root, SSR_ENTRY));
    return entry ? entry.renderedAddress(url) : url;
  }

  /**
   * A render is kept under the school's version and the address: a change to the school (its settings or logo) is a
   * new version, so every page shows it at once, without waiting for its render to expire.
   */
  const versionOf = (site: SiteSchool) => `${site.updatedAt} ${site.logo?.key ?? ''}`;
  const render = async (key: string): Promise<PageAnswer> => {
    const address = key.slice(key.indexOf('\n') + 1);
    return answer(address, siteSchool(await school()));
  };
  // A failed render is not kept: the next request tries again.
  const answerOf = caches
    ? caches.cached(
        async (key) => {
          const found = await render(key);
          if (found.kind === 'shell' && found.problem) throw found.problem;
          return found;
        },
        { max: 1000 },
      )
    : render;

  return async (ctx: Context) => {
    const state = ctx.state as Partial<AppState>;
    let found: PageAnswer;
    let site: SiteSchool | null = null;
    try {
      site = siteSchool(await school());
      found = await answerOf(`${versionOf(site)}\n${await addressOf(ctx.url)}`);
    } catch (error) {
      found = shell(site, false, error as Error);
    }
    if (found.kind === 'page' && found.visitorsOnly) {
      // A visitor's render would show a signed-in holder the lock first: they get the page their browser renders.
      ctx.vary('Cookie');
      if (ctx.cookies.get(SESSION_COOKIE)) found = shell(site, true, null);
    }

    if (found.kind === 'shell') {
      if (found.problem) state.log?.error({ err: found.problem }, 'server render failed; the browser renders the page');
      ctx.set('Cache-Control', 'no-cache');
      ctx.type = 'html';
      ctx.body = found.html;
      return;
    }

    // The same HTML for everyone (nothing of the visitor is in it): caches may keep it, checking back each time.
    ctx.status = found.status;
    ctx.type = 'html';
    ctx.set('Cache-Control', 'public, no-cache');
    ctx.etag = found.etag;
    if (found.status === 200 && ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.body = found.html;
  };
}
