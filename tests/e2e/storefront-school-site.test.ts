import type { BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SCHOOL } from '../../seeds/demo';
import { ContentResource } from '../support/models';
import { checkScreen, keepScreenshot, signedInContext, STOREFRONT_WIDTHS, useDemoSite } from '../support/browser';

/*
 * The storefront as the demo school's site (Typed Academy, seeds/demo.ts), in Chromium: its name or logo in the
 * header, its footer on every page, and the pages that footer leads to.
 */

describe("the storefront as the school's site (Chromium)", () => {
  const site = useDemoSite();
  let visitor: BrowserContext;
  let learner: BrowserContext;
  let lessonPath: string;

  beforeAll(async () => {
    const { browser, baseUrl, db } = site();
    visitor = await browser.newContext();
    learner = await signedInContext(browser, baseUrl, db, ['learner']);
    const course = (await ContentResource.query(db)
      .where({ type: 'course' })
      .whereRaw(`fields->>'title' = ?`, ['TypeScript Fundamentals'])
      .first())!;
    const lesson = (await ContentResource.query(db)
      .where({ type: 'lesson' })
      .whereRaw(`fields->>'title' = ?`, ['Welcome'])
      .first())!;
    lessonPath = `/courses/${course.fields.slug}/lessons/${lesson.fields.slug}`;
  });

  /** The footer as a learner sees it: the school's name and year, its three pages and its support email. */
  async function expectFooter(page: Page, name: string) {
    const footer = page.getByRole('contentinfo');
    await footer.waitFor();
    expect((await footer.locator('.site-footer-owner').textContent())?.trim(), name).toBe(
      `© ${new Date().getUTCFullYear()} Typed Academy`,
    );
    const nav = footer.getByRole('navigation', { name: 'About the school' });
    for (const link of ['Terms', 'Privacy', 'Contact']) {
      expect(await nav.getByRole('link', { name: link, exact: true }).isVisible(), `${name}: ${link}`).toBe(true);
    }
    expect(await footer.getByRole('link', { name: 'support@example.com' }).getAttribute('href')).toBe(
      'mailto:support@example.com',
    );
  }

  it('shows the school’s name in the header and its footer on the home, product, lesson and settings pages', async () => {
    const { baseUrl } = site();
    const pages: [string, BrowserContext, string, (page: Page) => Promise<unknown>][] = [
      ['home', visitor, '/', (page) => page.getByRole('heading', { name: 'TypeScript Pro' }).first().waitFor()],
      [
        'product',
        visitor,
        '/products/typescript-fundamentals',
        (page) => page.getByRole('button', { name: /^Buy/ }).first().waitFor(),
      ],
      ['lesson', visitor, lessonPath, (page) => page.getByRole('heading', { level: 1, name: 'Welcome' }).waitFor()],
      ['settings', learner, '/settings', (page) => page.getByRole('radio', { name: 'Dark' }).waitFor()],
    ];
    for (const [name, context, path, ready] of pages) {
      const page = await context.newPage();
      await page.goto(`${baseUrl}${path}`);
      await ready(page);
      const brand = page.getByRole('banner').getByRole('link', { name: 'Typed Academy', exact: true });
      expect(await brand.textContent(), name).toBe('Typed Academy');
      await expectFooter(page, name);
      expect(await page.title(), name).toMatch(/ — Typed Academy$|^Typed Academy$/);
      await checkScreen(page, `school-site-${name}`, { axe: true });
      await page.close();
    }
  });

  it('leads from each footer link to its page, with the school’s texts, name and address', async () => {
    const { baseUrl } = site();
    const page = await visitor.newPage();
    await page.goto(`${baseUrl}/`);
    const footer = page.getByRole('contentinfo');
    const destinations = [
      ['Terms', 'Terms', 'Who we are'],
      ['Privacy', 'Privacy notice', 'What we keep'],
      ['Contact', 'Contact', 'with any question about a course'],
    ] as const;
    for (const [width, height] of STOREFRONT_WIDTHS) {
      await page.setViewportSize({ width, height });
      for (const [link, heading, text] of destinations) {
        await footer.getByRole('link', { name: link, exact: true }).click();
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
        await page.getByText(text).first().waitFor();
        expect(await page.getByText('Page not found').count()).toBe(0);
        expect(await page.title()).toBe(`${heading} — Typed Academy`);
        const identity = page.locator('address.school-identity');
        const [street, town] = DEMO_SCHOOL.address.split('\n');
        expect(await identity.innerText()).toContain(`${DEMO_SCHOOL.legalName}\n${street}\n${town}`);
        await keepScreenshot(page, `school-site-${link.toLowerCase()}-${width}`);
      }
    }
    // The contact page's email opens a message to the school.
    expect(
      await page.getByRole('main').getByRole('link', { name: 'support@example.com' }).first().getAttribute('href'),
    ).toBe('mailto:support@example.com');
    await checkScreen(page, 'school-site-contact', { axe: true });
    await page.close();
  });

  it('says by the Buy button what buying agrees to, with links that lead to the terms and privacy notice', async () => {
    const { baseUrl } = site();
    const page = await visitor.newPage();
    await page.goto(`${baseUrl}/products/typescript-fundamentals`);
    const line = page.locator('.checkout-terms').first();
    await line.waitFor();
    expect(await line.innerText()).toBe(
      'By buying you agree to the Terms and the Privacy notice; see also the refund policy.',
    );
    await line.getByRole('link', { name: 'Privacy notice' }).click();
    await page.getByRole('heading', { level: 1, name: 'Privacy notice' }).waitFor();
    await page.goBack();
    await page.locator('.checkout-terms').first().getByRole('link', { name: 'Terms' }).click();
    await page.getByRole('heading', { level: 1, name: 'Terms' }).waitFor();
    await page.close();
  });

  it('shows the school’s logo in the header, its name as the logo’s text, and the icons made from it', async () => {
    const { browser, baseUrl, db } = site();
    const admin = await signedInContext(browser, baseUrl, db, ['admin']);
    const csrf = (await admin.cookies(baseUrl)).find((c) => c.name === 'lp_csrf')!.value;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="120">
      <rect width="480" height="120" rx="16" fill="#1d4ed8"/>
      <circle cx="60" cy="60" r="36" fill="#fbbf24"/>
      <rect x="120" y="40" width="320" height="40" rx="8" fill="#ffffff"/></svg>`;
    const logo = await sharp(Buffer.from(svg)).png().toBuffer();
    const uploaded = await admin.request.put(`${baseUrl}/api/admin/school/logo`, {
      headers: { 'X-CSRF-Token': csrf },
      multipart: { file: { name: 'logo.png', mimeType: 'image/png', buffer: logo } },
    });
    expect(uploaded.status()).toBe(200);
    await admin.close();

    const page = await visitor.newPage();
    await page.goto(`${baseUrl}/products/typescript-fundamentals`);
    const image = page.getByRole('banner').getByRole('img', { name: 'Typed Academy' });
    await image.waitFor();
    await expect
      .poll(() => image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
      .toBe(320);
    const box = (await image.boundingBox())!;
    expect(box.height).toBeGreaterThan(30);
    expect(box.height).toBeLessThan(50);
    // The tab's icon and the manifest come from the same logo.
    const icon = await page.locator('link[rel="icon"]').first().getAttribute('href');
    expect(icon).toMatch(/^\/favicon\.ico\?v=/);
    const favicon = await page.request.get(`${baseUrl}${icon}`);
    expect(favicon.headers()['content-type']).toBe('image/x-icon');
    const manifest = (await (await page.request.get(`${baseUrl}/manifest.webmanifest`)).json()) as { name: string };
    expect(manifest.name).toBe('Typed Academy');
    await checkScreen(page, 'school-site-logo', { axe: true });
    await page.close();
  });
});
