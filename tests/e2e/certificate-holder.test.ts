import type { BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import type { User } from '../../api/src/identity/models';
import { sessions } from '../../api/src/identity/sign-in/sessions';
import { createUser } from '../../seeds/factories';
import { runSeeds } from '../../seeds/run';
import {
  CONSOLE_WIDTHS,
  checkScreen,
  contextFor,
  keepScreenshot,
  signedInContext,
  useDemoSite,
} from '../support/browser';

const ARABIC = 'ليلى حداد';
const DEVANAGARI = 'अनुराधा शर्मा';
const COURSE = 'Writing Across Scripts';

describe('a certificate’s page: the verification for everyone, sharing and correcting for its holder (Chromium)', () => {
  const people: Record<'arabic' | 'devanagari', { user: User; id: string }> = {} as never;
  const site = useDemoSite(async (db) => {
    await runSeeds(db, { demo: true });
    for (const [key, name, id] of [
      ['arabic', ARABIC, 'AR0B1C000001'],
      ['devanagari', DEVANAGARI, 'DE7A0A000001'],
    ] as const) {
      const user = await createUser(db, { name, email: `${key}@example.com` });
      await db('certificates').insert({ id, userId: user.id, learnerName: name, courseTitle: COURSE });
      people[key] = { user, id };
    }
  });
  const contexts: BrowserContext[] = [];
  afterAll(async () => {
    for (const context of contexts) await context.close();
  });

  async function holderPage(user: User): Promise<Page> {
    const { db, browser, baseUrl } = site();
    const session = await sessions({ db, clock: { now: () => new Date() } }).create(db, user.id, 'test', 'email');
    const context = await contextFor(browser, baseUrl, {
      user,
      cookie: `lp_session=${session.token}; lp_csrf=${session.csrfToken}`,
      csrfToken: session.csrfToken,
    });
    contexts.push(context);
    return context.newPage();
  }

  /** A page that records the browser's errors (hydration mismatches among them). */
  function watched(page: Page): string[] {
    const errors: string[] = [];
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    page.on('pageerror', (error) => errors.push(error.message));
    return errors;
  }

  const sharing = (page: Page) => [
    page.getByRole('link', { name: 'Download PDF' }),
    page.getByRole('link', { name: /Add to LinkedIn/ }),
    page.getByLabel('Link to this certificate'),
    page.getByRole('button', { name: 'Correct the name' }),
  ];

  it('shows a visitor, and someone signed in who is not its holder, the verification only', async () => {
    const { browser, baseUrl, db } = site();
    const visitorContext = await browser.newContext();
    contexts.push(visitorContext);
    const otherContext = await signedInContext(browser, baseUrl, db, ['learner']);
    contexts.push(otherContext);

    for (const [key, name] of [
      ['arabic', ARABIC],
      ['devanagari', DEVANAGARI],
    ] as const) {
      for (const [who, context] of [
        ['visitor', visitorContext],
        ['other', otherContext],
      ] as const) {
        const page = await context.newPage();
        const errors = watched(page);
        const mine =
          who === 'other'
            ? page.waitForResponse((r) => r.url().endsWith(`/certificates/${people[key].id}/mine`))
            : null;
        await page.goto(`${baseUrl}/certificates/${people[key].id}`);
        const card = page.locator('.certificate-card');
        await card.getByText(name, { exact: true }).waitFor();
        await card.getByText('Valid', { exact: true }).waitFor();
        // Someone signed in is told it is not theirs; a visitor is never asked.
        if (mine) expect((await mine).status()).toBe(404);
        for (const control of sharing(page)) expect(await control.count()).toBe(0);
        if (who === 'visitor') await checkScreen(page, `storefront-certificate-visitor-${key}`, { axe: true });
        expect(errors.filter((e) => !e.includes('404'))).toEqual([]);
        await page.close();
      }
    }
  });

  it('names the certificate’s picture as og:image in the server’s HTML, a 1200 × 630 PNG', async () => {
    const { baseUrl } = site();
    const { id } = people.arabic;
    const html = await (await fetch(`${baseUrl}/certificates/${id}`)).text();
    expect(html).toContain(`<meta property="og:image" content="${baseUrl}/certificates/${id}.png" />`);
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image" />');
    // The server's HTML has no sharing controls: the holder's come after the page asks who is reading.
    expect(html).not.toContain('Add to LinkedIn');
    const image = await fetch(`${baseUrl}/certificates/${id}.png`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    const { width, height } = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
    expect({ width, height }).toEqual({ width: 1200, height: 630 });
  });

  it('gives the holder download, LinkedIn (the school as issuer), the link, and one correction of the name', async () => {
    const { baseUrl, db } = site();
    const school = await db('schoolSettings').first('name');

    for (const key of ['devanagari', 'arabic'] as const) {
      const page = await holderPage(people[key].user);
      const errors = watched(page);
      await page.goto(`${baseUrl}/certificates/${people[key].id}`);
      await page.getByRole('link', { name: 'Download PDF' }).waitFor();
      const linkedIn = new URL((await page.getByRole('link', { name: /^Add to LinkedIn/ }).getAttribute('href'))!);
      expect(linkedIn.searchParams.get('organizationName')).toBe(school.name);
      await page.locator('.certificate-issuer').getByText(school.name).waitFor();
      expect(await page.getByLabel('Link to this certificate').inputValue()).toBe(
        `${baseUrl}/certificates/${people[key].id}`,
      );
      await checkScreen(page, `storefront-certificate-holder-${key}`, { axe: true });
      expect(errors).toEqual([]);
      await page.close();
    }

    // The Devanagari name corrected once: the page says so, with the date; the offer is gone.
    const page = await holderPage(people.devanagari.user);
    await page.goto(`${baseUrl}/certificates/${people.devanagari.id}`);
    await page.getByRole('button', { name: 'Correct the name' }).click();
    const field = page.getByLabel('Name on the certificate');
    expect(await field.inputValue()).toBe(DEVANAGARI);
    await field.fill('अनुराधा शर्मा वर्मा');
    await keepScreenshot(page, 'storefront-certificate-correct-name');
    await page.getByRole('button', { name: 'Save the corrected name' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Corrected: the certificate now reads अनुराधा शर्मा वर्मा.' })
      .waitFor();
    const card = page.locator('.certificate-card');
    await card.getByText('अनुराधा शर्मा वर्मा', { exact: true }).waitFor();
    await card.getByText(/^Name corrected on /).waitFor();
    expect(await page.getByRole('button', { name: 'Correct the name' }).count()).toBe(0);
    expect(await db('certificates').where({ id: people.devanagari.id }).first()).toMatchObject({
      learnerName: 'अनुराधा शर्मा वर्मा',
      holderCorrectedAt: expect.any(Date),
    });

    // Anyone reading the page sees the correction and its date.
    const visitor = await site().browser.newContext();
    contexts.push(visitor);
    const seen = await visitor.newPage();
    await seen.goto(`${baseUrl}/certificates/${people.devanagari.id}`);
    await seen
      .locator('.certificate-card')
      .getByText(/^Name corrected on /)
      .waitFor();
    await checkScreen(seen, 'storefront-certificate-corrected');
  });

  it('lets support correct a name from the console, audited, whatever the holder did', async () => {
    const { baseUrl, db, browser } = site();
    const supportContext = await signedInContext(browser, baseUrl, db, ['support']);
    contexts.push(supportContext);
    const admin = await supportContext.newPage();
    const { id } = people.devanagari;
    await admin.goto(`${baseUrl}/admin/#/certificates/${id}/show`);
    await admin.getByText('अनुराधा शर्मा वर्मा', { exact: true }).first().waitFor();
    await admin.getByRole('button', { name: 'Correct name' }).click();
    const dialog = admin.getByRole('dialog');
    const field = dialog.getByLabel(/^Name on the certificate/);
    expect(await field.inputValue()).toBe('अनुराधा शर्मा वर्मा');
    await field.fill('अनुराधा वर्मा');
    await keepScreenshot(admin, 'console-certificate-correct-name');
    await dialog.getByRole('button', { name: 'Correct name' }).click();
    await admin.getByText('Name corrected. The certificate and its page show it.').waitFor();
    await dialog.waitFor({ state: 'detached' });
    await checkScreen(admin, 'console-certificate-corrected', { widths: CONSOLE_WIDTHS });

    expect(await db('certificates').where({ id }).first()).toMatchObject({ learnerName: 'अनुराधा वर्मा' });
    const audit = await db('auditLogs').where({ resource: 'certificates', recordId: id }).orderBy('id');
    expect(audit.map((entry) => [entry.action, entry.after])).toEqual([
      ['certificate.name-corrected', { learnerName: 'अनुराधा शर्मा वर्मा', byHolder: true }],
      ['certificate.name-corrected', { learnerName: 'अनुराधा वर्मा', byHolder: false }],
    ]);
  });
});
