import { describe, expect, it } from 'vitest';
import { userPrefs } from '../../api/src/identity/profile/prefs';
import { createProduct, createPurchase, createResource, linkResource } from '../../seeds/factories';
import { signedIn, type SignedIn } from '../support/auth';
import { checkScreen, contextFor, useDemoSite } from '../support/browser';
import type { ContentResource } from '../support/models';

const ZONE = 'Asia/Kolkata';
const DAY_MS = 86_400_000;

/** The date `days` days from now as a reader in ZONE writes it in full ("Sunday, December 6, 2026"). */
const dateInZone = (days: number) =>
  new Intl.DateTimeFormat('en-US', { dateStyle: 'full', timeZone: ZONE }).format(new Date(Date.now() + days * DAY_MS));

// Scheduled release on the storefront (docs/domain.md §11): a learner who bought today sees the second week locked,
// "Opens on" its date in their zone, on the course's outline and on a lesson of it, whose body never reaches the page.
describe('a locked "Opens on" module, in Chromium', () => {
  let course: ContentResource;
  let later: ContentResource;
  let learner: SignedIn;
  const site = useDemoSite(async (db) => {
    const product = await createProduct(db, { name: 'Cohort Sketching', unitAmount: 4900 });
    course = await createResource(db, 'course', { title: 'Cohort Sketching' });
    const week = async (title: string, position: number, metadata = {}) => {
      const module = await createResource(db, 'module', { title });
      await linkResource(db, course, module, position, metadata);
      return module;
    };
    const first = await week('Week one: lines', 0);
    await linkResource(
      db,
      first,
      await createResource(db, 'lesson', { title: 'Holding the pencil', body: '<p>Hi</p>' }),
      0,
    );
    const second = await week('Week two: shading', 1, { releaseAfterDays: 7 });
    await linkResource(
      db,
      second,
      await createResource(db, 'lesson', { title: 'Light and shadow', body: '<p>L</p>' }),
      0,
    );
    later = await createResource(db, 'lesson', { title: 'Cross-hatching', body: '<p>Secret hatching body</p>' });
    await linkResource(db, second, later, 1);
    await db('productContentResources').insert({ productId: product.id, resourceId: course.id, position: 0 });
    learner = await signedIn(db, ['learner'], 'cohort-learner@example.com');
    await userPrefs({ db }).setTimeZone(learner.user.id, ZONE);
    await createPurchase(db, { user: learner.user, product });
  });

  it('shows the week and its lessons opening on their date in the reader’s zone, the lesson withheld', async () => {
    const { browser, baseUrl } = site();
    const context = await contextFor(browser, baseUrl, learner);
    const page = await context.newPage();
    const opensOn = `Opens on ${dateInZone(7)}`;

    await page.goto(`${baseUrl}/courses/${course.fields.slug}`);
    const weekTwo = page.getByRole('region', { name: 'Week two: shading' });
    await weekTwo.locator('.module-opens').getByText(opensOn).waitFor();
    const item = weekTwo.getByRole('listitem').filter({ hasText: 'Cross-hatching' });
    await expect.poll(() => item.textContent()).toContain(opensOn);
    expect(await item.getByText('Locked').count()).toBe(1);
    // The first week is open: no date on it.
    expect(
      await page
        .getByRole('region', { name: 'Week one: lines' })
        .getByText(/Opens on/)
        .count(),
    ).toBe(0);
    await checkScreen(page, 'drip-course-outline', { axe: true });

    await page.goto(`${baseUrl}/courses/${course.fields.slug}/lessons/${later.fields.slug}`);
    await page.getByRole('heading', { name: opensOn }).waitFor();
    expect(await page.locator('.scheduled-lesson').textContent()).toContain(`at midnight (${ZONE} time)`);
    expect(await page.content()).not.toContain('Secret hatching body');
    await checkScreen(page, 'drip-locked-lesson', { axe: true });
    await context.close();
  });
});
