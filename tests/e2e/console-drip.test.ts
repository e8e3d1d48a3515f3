import { describe, expect, it } from 'vitest';
import { runSeeds } from '../../seeds/run';
import {
  CONSOLE_WIDTHS,
  STOREFRONT_WIDTHS,
  checkScreen,
  seriousViolations,
  signedInContext,
  useDemoSite,
} from '../support/browser';

// A content link's scheduled release in the console (docs/domain.md §11): days after the learner's start or a
// cohort's date, one or the other, stored on the link beside its tier; both at once refused on the date's field.
describe("a content link's scheduled release in the console (Chromium)", () => {
  let linkId: string;
  const site = useDemoSite(async (db) => {
    await runSeeds(db, { demo: true });
    // The demo's Generics Cohort: its second week opens 7 days after each learner starts.
    const course = await db('contentResources')
      .where({ type: 'course' })
      .whereRaw(`fields->>'title' = 'Generics Cohort'`)
      .first();
    linkId = (await db('contentResourceResources').where({ resourceOfId: course.id, position: 1 }).first()).id;
  });

  const stored = async (): Promise<{ releaseAfterDays?: number | null; releaseOn?: string | null }> =>
    (await site().db('contentResourceResources').where({ id: linkId }).first()).metadata;

  it('shows the release, changes days to a cohort date and back to none, and refuses both with a reason', async () => {
    const { browser, baseUrl, db } = site();
    const context = await signedInContext(browser, baseUrl, db, ['admin']);
    const page = await context.newPage();
    const edit = `${baseUrl}/admin/#/content-resource-resources/${linkId}`;
    const days = page.getByRole('spinbutton', { name: 'Opens days after start' });
    const date = page.getByLabel('Opens on (cohort date)');
    const save = page.getByRole('button', { name: 'Save', exact: true });
    const shown = () => page.waitForURL((url) => url.hash === `#/content-resource-resources/${linkId}/show`);

    await page.goto(edit);
    await days.waitFor();
    expect(await days.inputValue()).toBe('7');
    expect(await date.inputValue()).toBe('');
    await checkScreen(page, 'console-link-release', { widths: CONSOLE_WIDTHS });
    // Staff on a phone too: the form fits at 390 px.
    await checkScreen(page, 'console-link-release-phone', { widths: STOREFRONT_WIDTHS });
    // The release inputs themselves (the console's shared toolbar and links are checked where they are built).
    for (const input of ['releaseAfterDays', 'releaseOn'])
      expect(await seriousViolations(page, `.ra-input-metadata\\.${input}`), input).toEqual([]);

    // Both at once: refused on the date's field, the stored release unchanged.
    await date.fill('2027-01-11');
    await save.click();
    await page.getByText('choose days after the start or a date, not both').waitFor();
    expect(page.url()).toBe(edit);
    expect(await stored()).toMatchObject({ releaseAfterDays: 7 });
    expect((await stored()).releaseOn ?? null).toBeNull();

    // A cohort's date instead: the days emptied are no release of that kind (null, never 0).
    await days.fill('');
    await save.click();
    await shown();
    await expect.poll(async () => (await stored()).releaseOn).toBe('2027-01-11');
    expect((await stored()).releaseAfterDays).toBeNull();

    // Neither: opens with the rest.
    await page.goto(edit);
    await date.waitFor();
    expect(await date.inputValue()).toBe('2027-01-11');
    expect(await save.isEnabled()).toBe(false);
    await date.fill('');
    // Clearing is a change at once: Save is enabled while the date still has the focus.
    await expect.poll(() => save.isEnabled()).toBe(true);
    expect(await date.evaluate((input) => input === document.activeElement)).toBe(true);
    await save.click();
    await shown();
    await expect.poll(async () => (await stored()).releaseOn ?? null).toBeNull();
    expect((await stored()).releaseAfterDays ?? null).toBeNull();

    // Days again, a number typed as staff type it.
    await page.goto(edit);
    await days.waitFor();
    await days.fill('14');
    await save.click();
    await shown();
    await expect.poll(async () => (await stored()).releaseAfterDays).toBe(14);
    await context.close();
  });
});
