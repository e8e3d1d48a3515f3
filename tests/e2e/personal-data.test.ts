import { readFile } from 'node:fs/promises';
import type { Download, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { PersonalDataExport } from '../../api/src/privacy/schemas';
import { runSeeds } from '../../seeds/run';
import { createProduct, createPurchase } from '../../seeds/factories';
import { signedIn, type SignedIn } from '../support/auth';
import { checkScreen, contextFor, keepScreenshot, signedInContext, useDemoSite } from '../support/browser';

/** A person's data from Settings, and support's same tools in the console (docs/domain.md §16). */
describe('personal data: download and account deletion (Chromium)', () => {
  const site = useDemoSite((db) => runSeeds(db, { demo: false }));

  /** A learner holding one course, so their file has a purchase in it. */
  async function learnerWithCourse(email: string, course: string): Promise<SignedIn> {
    const learner = await signedIn(site().db, ['learner'], email);
    const product = await createProduct(site().db, { name: course, unitAmount: 4_900 });
    await createPurchase(site().db, { user: learner.user, product, totalAmount: 4_900 });
    return learner;
  }
  const me = (auth: SignedIn) => fetch(`${site().baseUrl}/api/store/me`, { headers: { cookie: auth.cookie } });

  /** Clicks `button` and answers the download it starts, with the file's JSON. */
  async function downloaded(page: Page, button: string): Promise<{ download: Download; json: PersonalDataExport }> {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: button }).click(),
    ]);
    return { download, json: JSON.parse(await readFile((await download.path())!, 'utf8')) as PersonalDataExport };
  }

  it('downloads the learner’s data from Settings, then deletes the account and lands signed out', async () => {
    const learner = await learnerWithCourse('leaving@example.com', 'Data Course');
    const context = await contextFor(site().browser, site().baseUrl, learner, { width: 1280, height: 900 });
    const page = await context.newPage();
    await page.goto(`${site().baseUrl}/settings`);
    await page.getByRole('heading', { name: 'Your data' }).waitFor();
    await page.getByRole('heading', { name: 'Delete your account' }).scrollIntoViewIfNeeded();
    await checkScreen(page, 'settings-your-data', { axe: true });

    const { download, json } = await downloaded(page, 'Download your data');
    expect(download.suggestedFilename()).toMatch(/^[a-z0-9-]+-data-\d{4}-\d{2}-\d{2}\.json$/);
    expect(json.profile).toMatchObject({ id: learner.user.id, email: 'leaving@example.com' });
    expect(json.purchases).toEqual([expect.objectContaining({ product: 'Data Course', amount: 4_900 })]);
    await page
      .getByRole('status')
      .filter({ hasText: `Downloaded ${download.suggestedFilename()}.` })
      .waitFor();

    // On a phone: a wrong address is refused before anything happens, the right one deletes.
    await page.setViewportSize({ width: 390, height: 844 });
    const confirm = page.getByLabel('To confirm, type your email address');
    await confirm.fill('someone-else@example.com');
    await page.getByRole('button', { name: 'Delete my account' }).click();
    await page.getByRole('alert').filter({ hasText: 'That is not your email address' }).waitFor();
    await keepScreenshot(page, 'settings-delete-account-refused-390');
    expect((await me(learner)).status).toBe(200);

    await confirm.fill('Leaving@Example.com');
    await page.getByRole('button', { name: 'Delete my account' }).click();
    await page.waitForURL(/\/account-deleted$/);
    await page.getByRole('heading', { name: 'Your account was deleted' }).waitFor();
    await page.getByRole('link', { name: 'Sign in' }).waitFor(); // the header: nobody is signed in
    await checkScreen(page, 'account-deleted', { axe: true });
    expect((await me(learner)).status).toBe(401);
    const row = await site().db('users').where({ id: learner.user.id }).first('email', 'deletedAt');
    expect(row.email).toBe(`deleted-${learner.user.id}@invalid`);
    expect(row.deletedAt).toBeInstanceOf(Date);
    await context.close();
  });

  it('lets support download a person’s data and delete their account from the console, at 1280 px', async () => {
    const { browser, baseUrl, db } = site();
    const learner = await learnerWithCourse('console-leaving@example.com', 'Console Course');
    const context = await signedInContext(browser, baseUrl, db, ['support'], 'support.data@example.com');
    const page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${baseUrl}/admin/#/users/${learner.user.id}/show`);
    await page.getByText('console-leaving@example.com').first().waitFor();
    await page.getByRole('tab', { name: 'Timeline' }).waitFor();

    const { download, json } = await downloaded(page, 'Download personal data');
    expect(download.suggestedFilename()).toMatch(/-data-\d{4}-\d{2}-\d{2}\.json$/);
    expect(json.profile.email).toBe('console-leaving@example.com');
    expect(json.purchases).toEqual([expect.objectContaining({ product: 'Console Course' })]);
    await page.getByText(`Downloaded ${download.suggestedFilename()}`).waitFor();

    await keepScreenshot(page, 'console-person-data-tools-1280');
    await page.getByRole('button', { name: 'Delete account', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Their email, typed again').fill('wrong@example.com');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await dialog.getByText('That is not this person’s email address.').waitFor();
    await dialog.getByLabel('Their email, typed again').fill('CONSOLE-leaving@example.com');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await dialog.getByText('This cannot be undone.').waitFor();
    await keepScreenshot(page, 'console-delete-account-confirm-1280');
    expect((await me(learner)).status).toBe(200); // nothing before the confirmation
    await dialog.getByRole('button', { name: 'Delete account' }).click();

    await page.getByText('Deleted the account: 1 session ended, 0 team seats freed.').waitFor();
    await page.getByText(/^Deleted on /).waitFor();
    await page.getByText(`deleted-${learner.user.id}@invalid`).first().waitFor();
    // Nothing is left to act on: none of the person tools shows.
    for (const tool of ['Delete account', 'Download personal data', 'Block', 'Change email', 'View as'])
      expect(await page.getByRole('button', { name: tool, exact: true }).count(), tool).toBe(0);
    await keepScreenshot(page, 'console-account-deleted-1280');
    // The people list marks the account.
    await page.goto(`${baseUrl}/admin/#/users`);
    const row = page.getByRole('row').filter({ hasText: `deleted-${learner.user.id}@invalid` });
    await row.getByText('Deleted', { exact: true }).waitFor();
    expect((await me(learner)).status).toBe(401);
    const audit = await db('auditLogs')
      .where({ recordId: learner.user.id })
      .orderBy('id')
      .select('action', 'actorEmail');
    expect(audit).toEqual([
      { action: 'user.data-exported', actorEmail: 'support.data@example.com' },
      { action: 'user.deleted', actorEmail: 'support.data@example.com' },
    ]);
    await context.close();
  });
});
