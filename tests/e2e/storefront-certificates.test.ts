import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import type { ContentResource, Product } from '../support/models';
import type { User } from '../../api/src/identity/models';
import { sessions } from '../../api/src/identity/sign-in/sessions';
import { createCourse, createProduct, createPurchase, createUser } from '../../seeds/factories';
import { runSeeds } from '../../seeds/run';
import { checkScreen, contextFor, keepScreenshot, signedInContext, useDemoSite } from '../support/browser';

const NAME = 'Zoë Łukasz 李雷';
const COURSE = 'Certified Cooking';
const REASON = 'Completed from a shared account.';

interface Fixture {
  product: Product;
  course: ContentResource;
  lessons: ContentResource[];
  learner: User;
}

describe('certificates of completion on the storefront and in the console (Chromium)', () => {
  let fixture: Fixture;
  const site = useDemoSite(async (db) => {
    await runSeeds(db, { demo: true });
    const product = await createProduct(db, { name: COURSE, unitAmount: 2900 });
    const { course, lessons } = await createCourse(
      db,
      {
        title: COURSE,
        modules: [
          {
            title: 'Knife skills',
            sections: [
              {
                title: 'Basics',
                lessons: [
                  { title: 'Holding the knife', body: '<p>Grip.</p>' },
                  { title: 'Dicing an onion', body: '<p>Dice.</p>' },
                  { title: 'Sharpening', body: '<p>Hone.</p>' },
                ],
              },
            ],
          },
        ],
      },
      { products: [product] },
    );
    const learner = await createUser(db, { name: NAME, email: 'cook@example.com' });
    await createPurchase(db, { user: learner, product });
    // Two lessons done already: the third finishes the course.
    await db('lessonProgress').insert(
      lessons.slice(0, 2).map((lesson) => ({ userId: learner.id, lessonId: lesson.id, completedAt: new Date() })),
    );
    fixture = { product, course, lessons, learner };
  });
  const contexts: BrowserContext[] = [];

  afterAll(async () => {
    for (const context of contexts) await context.close();
  });

  /** The learner's browser (their session), watching for React's hydration errors. */
  async function learnerPage(): Promise<{ page: Page; errors: string[] }> {
    const { db, browser, baseUrl } = site();
    const session = await sessions({ db, clock: { now: () => new Date() } }).create(
      db,
      fixture.learner.id,
      'test',
      'email',
    );
    const context = await contextFor(browser, baseUrl, {
      user: fixture.learner,
      cookie: `lp_session=${session.token}; lp_csrf=${session.csrfToken}`,
      csrfToken: session.csrfToken,
    });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
    contexts.push(context);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    return { page, errors };
  }

  let certificateId: string;

  it('finishes the last lesson, is told the certificate is ready, and finds it in My learning', async () => {
    const { baseUrl, db } = site();
    const { page, errors } = await learnerPage();
    const last = fixture.lessons[2]!;
    await page.goto(`${baseUrl}/courses/${fixture.course.fields.slug}/lessons/${last.fields.slug}`);
    await page.getByRole('heading', { level: 1, name: 'Sharpening' }).waitFor();
    await page.getByRole('button', { name: 'Mark complete' }).click();

    const finished = page.getByRole('region', { name: `You finished ${COURSE}` });
    await finished.getByText('Your certificate of completion is ready').waitFor();
    const view = finished.getByRole('link', { name: 'View your certificate' });
    const [certificate] = await db('certificates').where({ userId: fixture.learner.id });
    certificateId = certificate.id;
    expect(certificate).toMatchObject({ learnerName: NAME, courseTitle: COURSE, courseId: fixture.course.id });
    expect(await view.getAttribute('href')).toBe(`/certificates/${certificateId}`);
    await keepScreenshot(page, 'storefront-certificate-course-finished');

    await finished.getByRole('link', { name: 'Back to My learning' }).click();
    await page.getByRole('heading', { level: 1, name: 'My learning' }).waitFor();
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: COURSE }) });
    const viewFromCard = card.getByRole('link', { name: `View certificate of ${COURSE}` });
    await viewFromCard.waitFor();
    expect(await card.getByRole('link', { name: `Download PDF of ${COURSE}` }).getAttribute('href')).toBe(
      `/certificates/${certificateId}.pdf`,
    );
    await checkScreen(page, 'storefront-my-learning-certificate', { axe: true });

    await viewFromCard.click();
    await page.getByRole('heading', { level: 1, name: 'Certificate of completion' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('shows the verification page rendered on the server, with the PDF, LinkedIn and a link to copy', async () => {
    const { baseUrl } = site();
    // Without JavaScript: the server's HTML names the learner and the course, for people and link previews.
    const html = await fetch(`${baseUrl}/certificates/${certificateId}`);
    expect(html.status).toBe(200);
    const text = await html.text();
    expect(text).toContain(NAME);
    expect(text).toContain(COURSE);
    expect(text).toContain(certificateId);
    expect(text).toContain('<meta name="robots" content="noindex" />');
    expect(text).toContain(`<meta property="og:title" content="${NAME}: certificate of completion, ${COURSE}" />`);
    expect(text).toContain(`<link rel="canonical" href="${baseUrl}/certificates/${certificateId}" />`);
    expect(text).not.toContain('cook@example.com');

    const { page, errors } = await learnerPage();
    await page.goto(`${baseUrl}/certificates/${certificateId}`);
    const card = page.locator('.certificate-card');
    await card.getByText(NAME).waitFor();
    const courseLink = card.getByRole('link', { name: COURSE });
    expect(await courseLink.getAttribute('href')).toBe(`/courses/${fixture.course.fields.slug}`);
    await card.getByText(certificateId).waitFor();
    // The issue date in the reader's words (and zone), after hydration.
    const issued = await card.locator('time').getAttribute('datetime');
    const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'long' }).format(new Date(issued!));
    await card.getByText(`on ${day}`).waitFor();

    const pdfLink = page.getByRole('link', { name: 'Download PDF' });
    expect(await pdfLink.getAttribute('href')).toBe(`/certificates/${certificateId}.pdf`);
    const pdf = await page.request.get(`${baseUrl}/certificates/${certificateId}.pdf`);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    expect((await pdf.body()).subarray(0, 5).toString('latin1')).toBe('%PDF-');

    const linkedIn = new URL((await page.getByRole('link', { name: /^Add to LinkedIn/ }).getAttribute('href'))!);
    expect(linkedIn.origin + linkedIn.pathname).toBe('https://www.linkedin.com/profile/add');
    expect(Object.fromEntries(linkedIn.searchParams)).toMatchObject({
      name: COURSE,
      certId: certificateId,
      certUrl: `${baseUrl}/certificates/${certificateId}`,
    });

    const field = page.getByLabel('Link to this certificate');
    expect(await field.inputValue()).toBe(`${baseUrl}/certificates/${certificateId}`);
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(`${baseUrl}/certificates/${certificateId}`);

    await checkScreen(page, 'storefront-certificate', { axe: true });
    expect(errors).toEqual([]);

    // An id nobody was given: the real page-not-found, from the server too.
    const unknown = await fetch(`${baseUrl}/certificates/ZZZZZZZZZZZZ`);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('Certificate not found');
  });

  it('is revoked from the console with a reason; the page then says so and offers no download', async () => {
    const { baseUrl, db, browser } = site();
    const supportContext = await signedInContext(browser, baseUrl, db, ['support']);
    contexts.push(supportContext);
    const admin = await supportContext.newPage();
    await admin.goto(`${baseUrl}/admin/#/certificates`);
    const row = admin.getByRole('row').filter({ hasText: 'cook@example.com' });
    await row.getByText(NAME).waitFor();
    await row.getByText(COURSE).waitFor();
    await row.getByText('Issued', { exact: true }).waitFor();

    await row.getByRole('button', { name: 'Revoke' }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByText(`Revoke the certificate of ${NAME} for ${COURSE}?`).waitFor();
    // No reason: the API refuses, and the dialog says why.
    await dialog.getByRole('button', { name: 'Revoke certificate' }).click();
    await dialog.getByRole('alert').waitFor();
    await dialog.getByLabel(/^Reason/).fill(REASON);
    await keepScreenshot(admin, 'console-certificate-revoke');
    await dialog.getByRole('button', { name: 'Revoke certificate' }).click();
    await admin.getByText('Certificate revoked. Its page says so.').waitFor();
    await dialog.waitFor({ state: 'detached' });
    await row.getByText('Revoked', { exact: true }).waitFor();
    await row.getByText(REASON).waitFor();
    await checkScreen(admin, 'console-certificates');

    const audit = await db('auditLogs').where({ resource: 'certificates', recordId: certificateId });
    expect(audit).toEqual([expect.objectContaining({ action: 'certificate.revoked' })]);

    const { page, errors } = await learnerPage();
    await page.goto(`${baseUrl}/certificates/${certificateId}`);
    const notice = page.locator('.certificate-revoked');
    await notice.getByRole('heading', { name: 'This certificate was revoked' }).waitFor();
    await notice.getByText(`Reason: ${REASON}`).waitFor();
    expect(await page.getByRole('link', { name: 'Download PDF' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: /LinkedIn/ }).count()).toBe(0);
    await checkScreen(page, 'storefront-certificate-revoked', { axe: true });
    expect(errors).toEqual([]);

    const pdf = await fetch(`${baseUrl}/certificates/${certificateId}.pdf`);
    expect(pdf.status).toBe(410);
    expect(((await pdf.json()) as { code: string }).code).toBe('certificate-revoked');
    const html = await (await fetch(`${baseUrl}/certificates/${certificateId}`)).text();
    expect(html).toContain('This certificate was revoked');
  });
});
