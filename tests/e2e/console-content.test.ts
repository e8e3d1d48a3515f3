import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ContentResource, ContentResourceResource } from '../support/models';
import { keepScreenshot, signedInContext, useDemoSite } from '../support/browser';

describe('editing content in the console (Chromium)', () => {
  const site = useDemoSite();
  let page: Page;

  beforeAll(async () => {
    const context = await signedInContext(site().browser, site().baseUrl, site().db, ['admin']);
    page = await context.newPage();
  });

  const lessonTitled = (title: string) =>
    ContentResource.query(site().db).where('type', 'lesson').whereRaw("fields->>'title' = ?", [title]).first();

  it("edits a lesson's rich text, and the stored body is the sanitised HTML", async () => {
    const lesson = (await lessonTitled('Primitive types'))!;
    await page.goto(`${site().baseUrl}/admin/#/content-resources/${lesson.id}`);
    const body = page.getByRole('textbox', { name: 'Body' });
    await body.waitFor(); // the editor's code loads only now
    await body.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Numbers never need quotes.');
    await page.getByRole('button', { name: 'Bold' }).click();
    await page.keyboard.type(' Remember this.');
    await keepScreenshot(page, 'console-lesson-editor');
    await page.getByRole('button', { name: 'Save', exact: true }).click();

    await expect
      .poll(async () => (await ContentResource.query(site().db).findById(lesson.id))!.fields.body, { timeout: 10_000 })
      .toContain('Numbers never need quotes.');
    const stored = (await ContentResource.query(site().db).findById(lesson.id))!.fields.body!;
    expect(stored).toMatch(/<strong>\s*Remember this\.<\/strong>/);
    expect(stored).toContain('<code>string</code>'); // what was there stays
    // The save answers, then the console shows the lesson: wait for it, or that late navigation (a busy machine
    // answers after the row is stored) would take the next test's page away.
    await page.waitForURL((url) => url.hash === `#/content-resources/${lesson.id}/show`);
  });

  it('reorders a lesson in the course tree, and the new order is stored', async () => {
    const course = (await ContentResource.query(site().db).findOne({ type: 'course' }))!;
    const welcome = (await lessonTitled('Welcome'))!;
    const link = (await ContentResourceResource.query(site().db).findOne({ resourceId: welcome.id }))!;
    const siblingsBefore = await ContentResourceResource.query(site().db)
      .where({ resourceOfId: link.resourceOfId })
      .orderBy('position');
    expect(siblingsBefore[0]!.resourceId).toBe(welcome.id);

    await page.goto(`${site().baseUrl}/admin/#/content-resources/${course.id}/show`);
    await page.getByRole('listitem', { name: 'Lesson: Welcome' }).waitFor();
    await keepScreenshot(page, 'console-course-tree');
    await page.getByRole('button', { name: 'Move down: Welcome' }).click();

    await expect
      .poll(
        async () =>
          (
            await ContentResourceResource.query(site().db)
              .where({ resourceOfId: link.resourceOfId })
              .orderBy('position')
          ).map((l) => l.resourceId),
        { timeout: 10_000 },
      )
      .toEqual([siblingsBefore[1]!.resourceId, welcome.id]);
    await page.reload();
    const items = page.getByRole('list', { name: /^Contents of Why types/ }).getByRole('listitem');
    await items.first().waitFor();
    expect((await items.first().getAttribute('aria-label')) ?? (await items.first().innerText())).not.toMatch(
      /^Lesson: Welcome/,
    );
  });
});
