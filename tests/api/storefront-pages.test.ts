import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ContentResource, Product } from '../support/models';
import { createCourse, createProduct } from '../../seeds/factories';
import { testApp, testConfig } from '../support/app';
import Koa from 'koa';
import { APP_DIST } from '../../api/src/app';
import { readCaches } from '../../api/src/cache/read-cache';
import { schoolSettings } from '../../api/src/school/settings';
import { storefrontPage } from '../../api/src/web/storefront-pages';
import { as, signedIn } from '../support/auth';
import { manualClock } from '../support/clock';
import { useTestDatabase } from '../support/db';

/** The JSON-LD blocks of a page, parsed. */
function jsonLdOf(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
    (m) => JSON.parse(m[1]!) as Record<string, unknown>,
  );
}

/** What a `<meta property|name=key>` says (HTML entities decoded). */
function metaOf(html: string, key: string): string | null {
  const tag = new RegExp(`<meta (?:property|name)="${key.replace(/[.:]/g, '\\$&')}" content="([^"]*)"`).exec(html);
  return tag ? decode(tag[1]!) : null;
}

const decode = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

const titleOf = (html: string) => decode(/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '');
/** A page's <title>: its own, then the school's name (a school nobody named yet is "Courses"). */
const titled = (page: string) => `${page} — Courses`;

/** The answers sent with the page for the browser's first render. */
function seedsOf(html: string): Record<string, unknown> {
  const block = /<script type="application\/json" id="prerendered-data">([\s\S]*?)<\/script>/.exec(html);
  return block ? (JSON.parse(block[1]!) as Record<string, unknown>) : {};
}

describe('server-rendered storefront pages', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const publicUrl = 'https://learn.example.com';
  const app = () => testApp(db(), { config: testConfig({ PUBLIC_URL: publicUrl }) });
  let product: Product;
  let course: ContentResource;
  let lessons: ContentResource[];

  beforeAll(async () => {
    product = await createProduct(db(), {
      name: 'Type-Level TypeScript',
      slug: 'type-level-typescript',
      description: 'Types that compute.',
      unitAmount: 14900,
    });
    ({ course, lessons } = await createCourse(
      db(),
      {
        title: 'Type-Level Course',
        description: 'From generics to conditional types.',
        modules: [
          {
            title: 'Generics',
            sections: [
              {
                title: 'Basics',
                lessons: [
                  { title: 'Why generics', body: '<p>Free preview body</p>', free: true },
                  { title: 'Constraints', body: '<p>Paid body text</p>' },
                ],
              },
            ],
          },
        ],
      },
      { products: [product] },
    ));
  });

  it('renders a product page: title, Open Graph, canonical URL, JSON-LD Course with its Offer, the content', async () => {
    const res = await request(app()).get('/products/type-level-typescript').expect(200);
    expect(res.type).toBe('text/html');
    const html = res.text;
    expect(titleOf(html)).toBe(titled('Type-Level TypeScript'));
    expect(metaOf(html, 'og:title')).toBe('Type-Level TypeScript');
    expect(metaOf(html, 'og:description')).toBe('Types that compute.');
    expect(metaOf(html, 'description')).toBe('Types that compute.');
    expect(metaOf(html, 'og:url')).toBe(`${publicUrl}/products/type-level-typescript`);
    expect(metaOf(html, 'og:type')).toBe('product');
    expect(metaOf(html, 'twitter:card')).toMatch(/^summary/);
    expect(html).toContain(`<link rel="canonical" href="${publicUrl}/products/type-level-typescript" />`);
    expect(html).not.toContain('name="robots"');

    const [course_] = jsonLdOf(html);
    expect(course_).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Course',
      name: 'Type-Level TypeScript',
      description: 'Types that compute.',
      provider: { '@type': 'Organization', name: 'Courses' },
      offers: [
        {
          '@type': 'Offer',
          category: 'Paid',
          price: '149.00',
          priceCurrency: 'USD',
          availability: 'https://schema.org/InStock',
          url: `${publicUrl}/products/type-level-typescript`,
        },
      ],
    });

    // The page itself, in the HTML: the heading and the link to its course (not a loading line).
    expect(html).toMatch(/<h1>Type-Level TypeScript<\/h1>/);
    expect(html).toContain(`href="/courses/${course.fields.slug}"`);
    expect(html).not.toContain('Loading the course');
    // The curriculum is in the HTML: every lesson's title, and the free one's preview link; no lesson's body.
    for (const lesson of lessons) expect(html).toContain(`>${lesson.fields.title}<`);
    expect(html).toContain(`href="/courses/${course.fields.slug}/lessons/${lessons[0]!.fields.slug}"`);
    expect(html).not.toContain('Paid body text');
    // What the product page loaded goes with it, for the browser's first render.
    expect(JSON.stringify(seedsOf(html))).toContain('Type-Level TypeScript');
    // The page's chunk is preloaded with the page.
    expect(html).toMatch(/<link rel="modulepreload" crossorigin href="\/assets\/ProductPage-[\w-]+\.js" \/>/);
  });

  it('a product by its id says its slug address is the canonical one', async () => {
    const res = await request(app()).get(`/products/${product.id}`).expect(200);
    expect(res.text).toContain(`<link rel="canonical" href="${publicUrl}/products/type-level-typescript" />`);
  });

  it('renders the course outline with its lesson titles, and a free lesson with its body', async () => {
    const outline = await request(app()).get(`/courses/${course.fields.slug}`).expect(200);
    expect(titleOf(outline.text)).toBe(titled('Type-Level Course'));
    expect(metaOf(outline.text, 'og:title')).toBe('Type-Level Course');
    expect(outline.text).toContain('>Why generics</a>');
    expect(outline.text).toContain('>Constraints</a>');
    expect(jsonLdOf(outline.text)[0]).toMatchObject({ '@type': 'Course', name: 'Type-Level Course' });

    const free = await request(app())
      .get(`/courses/${course.fields.slug}/lessons/${lessons[0]!.fields.slug}`)
      .expect(200);
    expect(titleOf(free.text)).toBe(titled('Why generics · Type-Level Course'));
    expect(free.text).toContain('Free preview body');
    expect(free.text).not.toContain('name="robots"');
  });

  it('a paid lesson is rendered as a visitor sees it: its title and how to get it, noindex, nothing of its body', async () => {
    const paid = await request(app())
      .get(`/courses/${course.fields.slug}/lessons/${lessons[1]!.fields.slug}`)
      .expect(200);
    expect(paid.text).toContain('<meta name="robots" content="noindex" />');
    expect(paid.text).toMatch(/<h1>Constraints<\/h1>/);
    // The lock notice and the way to buy, in the HTML.
    expect(paid.text).toContain('Sign in to study this lesson');
    expect(paid.text).toContain('href="/products/type-level-typescript"');
    expect(paid.text).not.toContain('Paid body text');
  });

  it('renders the home page with the products', async () => {
    const res = await request(app()).get('/').expect(200);
    expect(titleOf(res.text)).toBe(titled('Courses you can study at your own pace'));
    expect(res.text).toContain('>Type-Level TypeScript</a>');
    expect(res.text).toContain(`<link rel="canonical" href="${publicUrl}/" />`);
  });

  it('answers 404 with the not-found page for an unknown product, course or address', async () => {
    const product404 = await request(app()).get('/products/no-such-course').expect(404);
    expect(product404.type).toBe('text/html');
    expect(titleOf(product404.text)).toBe(titled('Course not found'));
    expect(product404.text).toContain('This course does not exist or is no longer on sale.');
    expect(product404.text).toContain('<meta name="robots" content="noindex" />');
    expect(product404.text).not.toContain('rel="canonical"');

    const course404 = await request(app()).get('/courses/no-such-course').expect(404);
    expect(titleOf(course404.text)).toBe(titled('Course not found'));

    const page404 = await request(app()).get('/no/such/page').expect(404);
    expect(titleOf(page404.text)).toBe(titled('Page not found'));
    expect(page404.text).toContain('The page you asked for does not exist.');
  });

  it('serves the learner’s own pages as the shell, noindex', async () => {
    for (const path of ['/learning', '/settings', '/purchases', '/login', '/thanks?checkout=x']) {
      const res = await request(app()).get(path).expect(200);
      expect(res.text, path).toContain('<meta name="robots" content="noindex" />');
      expect(res.text, path).toContain('<div id="root"></div>');
      expect(res.text, path).not.toContain('prerendered-data');
    }
  });

  it('renders the same HTML for a signed-in visitor (nothing of theirs in it) and answers 304 when unchanged', async () => {
    const visitor = await request(app()).get('/products/type-level-typescript').expect(200);
    const learner = await signedIn(db(), ['learner'], 'ssr-signed-in@example.com');
    const theirs = await request(app())
      .get('/products/type-level-typescript')
      .set('Cookie', learner.cookie)
      .expect(200);
    expect(theirs.text).not.toContain('ssr-signed-in@example.com');
    expect(theirs.headers['cache-control']).toBe('public, no-cache');
    const etag = visitor.headers.etag as string;
    expect(theirs.headers.etag).toBe(etag);
    await request(app()).get('/products/type-level-typescript').set('If-None-Match', etag).expect(304);
  });

  it('keeps a product named like a script inert in the HTML, the JSON-LD and the embedded data', async () => {
    const name = '</script><script>alert(1)</script>';
    const evil = await createProduct(db(), { name, slug: 'evil', description: '<!-- <script>alert(2)</script>' });
    await createCourse(
      db(),
      {
        title: name,
        modules: [{ title: name, sections: [{ title: 'S', lessons: [{ title: name, body: '<p>x</p>' }] }] }],
      },
      { products: [evil] },
    );
    for (const path of ['/products/evil', '/']) {
      const res = await request(app()).get(path).expect(200);
      // No script element but the page's own: the module entry, the JSON-LD and the data block (none executable).
      const scripts = [...res.text.matchAll(/<script([^>]*)>/g)].map((m) => m[1]!.trim());
      expect(scripts.every((attrs) => /^type="(module|application\/ld\+json|application\/json)"/.test(attrs))).toBe(
        true,
      );
      expect(res.text).not.toContain('<script>alert');
      // The data still reads back as the name.
      expect(JSON.stringify(seedsOf(res.text))).toContain(JSON.stringify(name).slice(1, -1));
      if (path === '/products/evil') {
        expect(titleOf(res.text)).toBe(titled(name));
        expect(jsonLdOf(res.text)[0]).toMatchObject({ name });
      }
      // The CSP still allows no inline script.
      expect(res.headers['content-security-policy']).toContain("script-src 'self';");
    }
  });

  it('lists every product on sale and its courses in /sitemap.xml, not archived products or draft courses', async () => {
    const second = await createProduct(db(), { name: 'Second Course', slug: null });
    const archived = await createProduct(db(), {
      name: 'Archived Course',
      slug: 'archived-course',
      status: 'archived',
    });
    await createCourse(db(), { title: 'Archived Outline', modules: [] }, { products: [archived] });
    const { course: draft } = await createCourse(
      db(),
      { title: 'Draft Outline', modules: [] },
      { products: [product] },
    );
    await db()('contentResources')
      .where({ id: draft.id })
      .update({ fields: db().raw(`fields || '{"state":"draft"}'::jsonb`) });
    const res = await request(app()).get('/sitemap.xml').expect(200);
    expect(res.type).toBe('application/xml');
    const locs = [...res.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toContain(`${publicUrl}/`);
    expect(locs).toContain(`${publicUrl}/products/type-level-typescript`);
    expect(locs).toContain(`${publicUrl}/courses/${course.fields.slug}`);
    expect(locs).toContain(`${publicUrl}/products/${second.id}`); // no slug: its id, as the storefront links it
    expect(locs.filter((l) => /archived|draft/.test(l!))).toEqual([]);
    expect(res.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org/);
  });

  it('serves /robots.txt: public pages allowed, the learner’s own disallowed, the sitemap named', async () => {
    const res = await request(app()).get('/robots.txt').expect(200);
    expect(res.type).toBe('text/plain');
    const lines = res.text.split('\n');
    expect(lines).toContain('User-agent: *');
    expect(lines).toContain('Allow: /');
    for (const path of [
      '/learning',
      '/settings',
      '/purchases',
      '/invoices',
      '/thanks',
      '/teams',
      '/transfers',
      '/login',
      '/activate',
      '/devices',
      '/bookmarks',
    ]) {
      expect(lines).toContain(`Disallow: ${path}`);
    }
    expect(lines).not.toContain('Disallow: /products');
    expect(lines).toContain(`Sitemap: ${publicUrl}/sitemap.xml`);
  });

  it("renders a page once per READ_CACHE_MS: another replica's change shows after it, this one's own at once", async () => {
    const clock = manualClock();
    const cachedApp = testApp(db(), { clock, config: testConfig({ PUBLIC_URL: publicUrl, READ_CACHE_MS: '5000' }) });
    const cached = await createProduct(db(), { name: 'Cached Course', slug: 'cached-course', unitAmount: 5000 });
    const titleNow = async () => titleOf((await request(cachedApp).get('/products/cached-course').expect(200)).text);

    expect(await titleNow()).toBe(titled('Cached Course'));
    // Changed by another replica (straight in the database): this one answers the page it rendered...
    await db()('products').where({ id: cached.id }).update({ name: 'Renamed Course' });
    expect(await titleNow()).toBe(titled('Cached Course'));
    // ...until READ_CACHE_MS has passed.
    clock.advance(5001);
    expect(await titleNow()).toBe(titled('Renamed Course'));

    // A change made through this replica's console shows at once.
    const support = await signedIn(db(), ['support']);
    const renamed = await as(support, request(cachedApp).put(`/api/admin/products/${cached.id}`)).send({
      name: 'Console Course',
    });
    expect(renamed.status).toBe(200);
    expect(await titleNow()).toBe(titled('Console Course'));
  });

  /** The storefront's pages alone, kept for `ttlMs`, counting the API requests their renders make. */
  function countedPages(clock: ReturnType<typeof manualClock>, ttlMs: number) {
    const api = testApp(db());
    const counted = { apiCalls: 0 };
    const page = storefrontPage({
      root: APP_DIST.storefront,
      config: testConfig({ PUBLIC_URL: publicUrl }),
      handler: () => (req, res) => {
        counted.apiCalls += 1;
        return api(req, res);
      },
      caches: readCaches({ ttlMs, clock }),
      school: schoolSettings({ db: db(), caches: readCaches({ ttlMs, clock }) }).get,
    });
    return Object.assign(counted, { site: new Koa().use(page).callback() });
  }

  it('renders each address once however many ask at once, and again once READ_CACHE_MS has passed', async () => {
    const clock = manualClock();
    const counted = countedPages(clock, 5000);
    const { site } = counted;

    const pages = await Promise.all(
      Array.from({ length: 5 }, () => request(site).get('/products/type-level-typescript').expect(200)),
    );
    expect(new Set(pages.map((p) => p.text)).size).toBe(1);
    expect(titleOf(pages[0]!.text)).toBe(titled('Type-Level TypeScript'));
    const perRender = counted.apiCalls;
    expect(perRender).toBeGreaterThan(0);
    await request(site).get('/products/type-level-typescript').expect(200);
    expect(counted.apiCalls).toBe(perRender);

    clock.advance(5001);
    await request(site).get('/products/type-level-typescript').expect(200);
    expect(counted.apiCalls).toBe(2 * perRender);
  });

  it('renders a page once for every query its page does not read (utm_*, a random one); the coupon code it reads counts', async () => {
    const counted = countedPages(manualClock(), 60_000);
    const { site } = counted;
    const address = '/products/type-level-typescript';

    const first = await request(site).get(address).expect(200);
    const perRender = counted.apiCalls;
    expect(perRender).toBeGreaterThan(0);
    const queries = Array.from({ length: 30 }, (_, i) => `?x=${Math.random()}&utm_source=mail${i}&utm_campaign=c${i}`);
    for (const query of queries) {
      const res = await request(site).get(`${address}${query}`).expect(200);
      expect(res.text).toBe(first.text);
    }
    expect(counted.apiCalls).toBe(perRender);
    expect(titleOf(first.text)).toBe(titled('Type-Level TypeScript'));
    expect(first.text).toContain(`<link rel="canonical" href="${publicUrl}${address}" />`);

    // The coupon code is the product page's own: a page per code (its other parameters still ignored).
    const withCode = await request(site).get(`${address}?code=SPRING&utm_source=x`).expect(200);
    expect(counted.apiCalls).toBeGreaterThan(perRender);
    const afterCode = counted.apiCalls;
    await request(site).get(`${address}?utm_medium=y&code=SPRING`).expect(200);
    expect(counted.apiCalls).toBe(afterCode);
    expect(titleOf(withCode.text)).toBe(titled('Type-Level TypeScript'));

    // A learner's own page is the same shell whatever its query.
    const shells = await Promise.all(['?checkout=a', '?checkout=b'].map((q) => request(site).get(`/thanks${q}`)));
    expect(shells[0]!.text).toBe(shells[1]!.text);
  });
});
