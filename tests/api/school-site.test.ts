import sharp from 'sharp';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createProduct } from '../../seeds/factories';
import { contrast } from '../../api/src/web/brand-palette';
import { testApp, testConfig } from '../support/app';
import { as, signedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';

/*
 * The storefront is the school's site: the server's HTML (what a signed-out visitor, a search engine and a link
 * preview read) carries the school's name, logo and colours, and its terms, privacy notice and contact page.
 */

const decode = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
/** A page's HTML without the empty comments React puts between adjacent text nodes. */
const htmlOf = (res: { text: string }) => res.text.replace(/<!-- -->/g, '');
const titleOf = (html: string) => decode(/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '');
function metaOf(html: string, key: string): string | null {
  const tag = new RegExp(`<meta (?:property|name)="${key.replace(/[.:]/g, '\\$&')}" content="([^"]*)"`).exec(html);
  return tag ? decode(tag[1]!) : null;
}
/** The header's brand link, as the server rendered it. */
const brandOf = (html: string) => /<header[^>]*>\s*<a[^>]*class="brand"[^>]*>([\s\S]*?)<\/a>/.exec(html)?.[1] ?? null;
const footerOf = (html: string) => /<footer class="site-footer">([\s\S]*?)<\/footer>/.exec(html)?.[1] ?? '';

const SCHOOL = {
  name: 'Typed Academy',
  legalName: 'Typed Academy Ltd',
  address: '1 Example Street\nLondon EC1A 1AA\nUnited Kingdom',
  supportEmail: 'support@typed.example',
  accentColor: '#1d4ed8',
  termsHtml: '<h2>Refunds</h2><p>Ask within 30 days and we refund you in full.</p>',
  privacyHtml: '<h2>What we keep</h2><p>Your email address and your progress.</p>',
};

describe("the storefront as the school's site", () => {
  const database = useTestDatabase();
  const publicUrl = 'https://learn.example.com';
  const app = () => testApp(database().db, { config: testConfig({ PUBLIC_URL: publicUrl }) });
  let admin: Awaited<ReturnType<typeof signedIn>>;
  const saveSchool = async (changes: Partial<typeof SCHOOL>) => {
    const saved = await as(admin, request(app()).put('/api/admin/school')).send({ ...SCHOOL, ...changes });
    expect(saved.status).toBe(200);
  };

  beforeAll(async () => {
    admin = await signedIn(database().db, ['admin']);
    await createProduct(database().db, { name: 'Generics in Depth', slug: 'generics-in-depth', unitAmount: 4900 });
  });

  it("titles every page with the school's name, and names it as og:site_name, the header and the footer", async () => {
    await saveSchool({});
    for (const [path, title] of [
      ['/products/generics-in-depth', 'Generics in Depth — Typed Academy'],
      ['/no/such/page', 'Page not found — Typed Academy'],
      ['/learning', 'Typed Academy'], // a learner's own page: the shell, named for the school
    ] as const) {
      const html = htmlOf(await request(app()).get(path));
      expect(titleOf(html), path).toBe(title);
    }
    const html = htmlOf(await request(app()).get('/products/generics-in-depth').expect(200));
    expect(metaOf(html, 'og:site_name')).toBe('Typed Academy');
    expect(metaOf(html, 'og:title')).toBe('Generics in Depth');
    const jsonLd = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)![1]!;
    expect(JSON.parse(jsonLd)).toMatchObject({ '@type': 'Course', provider: { name: 'Typed Academy' } });
    expect(brandOf(html)).toBe('Typed Academy');
    expect(html).not.toMatch(/>Courses</);
    const footer = footerOf(html);
    expect(footer).toContain(`© ${new Date().getUTCFullYear()} Typed Academy`);
    for (const [href, text] of [
      ['/terms', 'Terms'],
      ['/privacy', 'Privacy'],
      ['/contact', 'Contact'],
    ]) {
      expect(footer).toContain(`href="${href}">${text}</a>`);
    }
    expect(footer).toContain('href="mailto:support@typed.example">support@typed.example</a>');
    // The browser's first render reads the same school (not its legal texts: their pages load them).
    const sent = JSON.parse(/<script type="application\/json" id="school-data">(.*?)<\/script>/.exec(html)![1]!);
    expect(sent).toMatchObject({ name: 'Typed Academy', supportEmail: 'support@typed.example' });
    expect(sent).not.toHaveProperty('termsHtml');
  });

  it('shows a renamed school at once, and its logo in the header with the name as its text', async () => {
    await saveSchool({ name: 'Northwind Academy' });
    let html = htmlOf(await request(app()).get('/products/generics-in-depth').expect(200));
    expect(titleOf(html)).toBe('Generics in Depth — Northwind Academy');
    expect(metaOf(html, 'og:site_name')).toBe('Northwind Academy');

    const png = await sharp({ create: { width: 640, height: 160, channels: 4, background: '#0f766e' } })
      .png()
      .toBuffer();
    const uploaded = await as(admin, request(app()).put('/api/admin/school/logo')).attach('file', png, {
      filename: 'logo.png',
      contentType: 'image/png',
    });
    expect(uploaded.status).toBe(200);
    html = htmlOf(await request(app()).get('/products/generics-in-depth').expect(200));
    const brand = brandOf(html)!;
    expect(brand).toMatch(/^<img class="brand-logo" src="\/media\/images\/[^"]+\?w=320" alt="Northwind Academy"/);
    expect(brand).toContain('width="640" height="160"');
    expect((await as(admin, request(app()).delete('/api/admin/school/logo'))).status).toBe(200);
    await saveSchool({});
  });

  it('shows a change to the school at once on pages this replica keeps rendered (READ_CACHE_MS)', async () => {
    await saveSchool({});
    const cached = testApp(database().db, { config: testConfig({ PUBLIC_URL: publicUrl, READ_CACHE_MS: '60000' }) });
    const title = async () => titleOf(htmlOf(await request(cached).get('/products/generics-in-depth').expect(200)));
    expect(await title()).toBe('Generics in Depth — Typed Academy');
    const renamed = await as(admin, request(cached).put('/api/admin/school')).send({
      ...SCHOOL,
      name: 'Renamed School',
    });
    expect(renamed.status).toBe(200);
    expect(await title()).toBe('Generics in Depth — Renamed School');
    await saveSchool({});
  });

  it('colours links and buttons with the accent, darkened where it would not read against white', async () => {
    const inkOf = (html: string) => /--primary: (#[0-9a-f]{6});/.exec(html)?.[1];
    await saveSchool({ accentColor: '#0f766e' });
    let html = htmlOf(await request(app()).get('/').expect(200));
    expect(metaOf(html, 'theme-color')).toBe('#0f766e');
    expect(inkOf(html)).toBe('#0f766e'); // dark enough already: as chosen

    await saveSchool({ accentColor: '#ffd400' }); // a yellow: 1.4:1 on white
    html = htmlOf(await request(app()).get('/').expect(200));
    const ink = inkOf(html)!;
    expect(ink).not.toBe('#ffd400');
    expect(contrast(ink, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(html).toContain('--brand: #ffd400;'); // as chosen, for decoration only
    await saveSchool({});
  });

  it('renders /terms and /privacy with the admin’s text, the seller’s legal name and address; indexable', async () => {
    for (const [path, title, text] of [
      ['/terms', 'Terms', 'Ask within 30 days and we refund you in full.'],
      ['/privacy', 'Privacy notice', 'Your email address and your progress.'],
    ] as const) {
      const html = htmlOf(await request(app()).get(path).expect(200));
      expect(titleOf(html), path).toBe(`${title} — Typed Academy`);
      expect(html).toContain(`<h1>${title}</h1>`);
      expect(html).toContain(text);
      expect(html).toContain('<strong>Typed Academy Ltd</strong><span>1 Example Street</span>');
      expect(html).toContain('<span>United Kingdom</span>');
      expect(html).toContain(`<link rel="canonical" href="${publicUrl}${path}" />`);
      expect(html).not.toContain('name="robots"');
      expect(html).not.toContain('Loading the');
    }
  });

  it('says plainly when the terms or privacy notice are not written yet', async () => {
    await saveSchool({ termsHtml: '', privacyHtml: '' });
    const terms = htmlOf(await request(app()).get('/terms').expect(200));
    expect(terms).toContain('Typed Academy has not published its terms yet.');
    expect(terms).toContain('<strong>Typed Academy Ltd</strong>');
    const privacy = htmlOf(await request(app()).get('/privacy').expect(200));
    expect(privacy).toContain('Typed Academy has not published its privacy notice yet.');
    await saveSchool({});
  });

  it('renders /contact with the legal name, the postal address and the support email', async () => {
    const html = htmlOf(await request(app()).get('/contact').expect(200));
    expect(titleOf(html)).toBe('Contact — Typed Academy');
    expect(html).toContain('<h1>Contact</h1>');
    expect(html).toContain(
      '<strong>Typed Academy Ltd</strong><span>1 Example Street</span><span>London EC1A 1AA</span>',
    );
    expect(html).toContain('href="mailto:support@typed.example"');
    expect(html).toContain(`<link rel="canonical" href="${publicUrl}/contact" />`);
    expect(html).not.toContain('name="robots"');

    await saveSchool({ supportEmail: '' });
    const without = htmlOf(await request(app()).get('/contact').expect(200));
    expect(without).toContain('Typed Academy has not given a support email yet.');
    expect(without).not.toContain('mailto:');
    await saveSchool({});
  });

  it('says next to the Buy button what buying agrees to: the terms, the privacy notice, the refund policy', async () => {
    const html = htmlOf(await request(app()).get('/products/generics-in-depth').expect(200));
    const line = /<p class="checkout-terms">([\s\S]*?)<\/p>/.exec(html)?.[1];
    expect(line).toBe(
      'By buying you agree to the <a href="/terms">Terms</a> and the <a href="/privacy">Privacy notice</a>; see also the <a href="#refund-heading">refund policy</a>.',
    );
    expect(html).toContain('id="refund-heading"');
  });

  it('lists the legal and contact pages in the sitemap', async () => {
    const sitemap = htmlOf(await request(app()).get('/sitemap.xml').expect(200));
    for (const path of ['/terms', '/privacy', '/contact']) expect(sitemap).toContain(`<loc>${publicUrl}${path}</loc>`);
  });
});
