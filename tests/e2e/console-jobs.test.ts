import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { jobQueue } from '../../api/src/jobs/queue';
import { EXPIRE_CHECKOUTS } from '../../api/src/jobs/recurring';
import { createLogger } from '../../api/src/logger';
import { SEND_EMAIL } from '../../api/src/mail/outbox';
import { checkScreen, chooseOption, keepScreenshot, signInToConsoleByEmail, useDemoSite } from '../support/browser';
import { jobsOf, makeRetriesDue } from '../support/jobs';

/** Longer than the list shows (90 characters): the list cuts it, the job's page shows all of it. */
const FAILURE =
  'The payment provider did not answer within 30 seconds while expiring unpaid checkouts (ETIMEDOUT at api.provider.example:443)';
const ADMIN = 'admin@example.com';

describe('the job queue in the console (Chromium)', () => {
  const site = useDemoSite();
  let failedId: string;

  beforeAll(async () => {
    // A sweep that fails twice (its first run and its one retry), as the API's queue runs it: failed for good.
    const { db } = site();
    const jobs = jobQueue({ db, logger: createLogger('silent') });
    jobs.define({
      name: EXPIRE_CHECKOUTS,
      retryLimit: 1,
      retryDelaySeconds: 10,
      expireInSeconds: 60,
      run: async () => {
        throw new Error(FAILURE);
      },
    });
    failedId = await jobs.add(db, EXPIRE_CHECKOUTS, {});
    await jobs.runDue(EXPIRE_CHECKOUTS);
    await makeRetriesDue(db, EXPIRE_CHECKOUTS);
    await jobs.runDue(EXPIRE_CHECKOUTS);
    expect(await jobsOf(db, EXPIRE_CHECKOUTS)).toEqual([
      expect.objectContaining({ id: failedId, state: 'failed', output: expect.objectContaining({ message: FAILURE }) }),
    ]);
  });

  const rows = (page: Page) => page.getByRole('row').filter({ has: page.getByRole('cell') });
  const failedRow = (page: Page) => rows(page).filter({ hasText: 'Expire checkouts' });
  const stateChip = (page: Page) => page.locator('.MuiChip-root').first();

  it('lists the failed job with its error, filters to the failed ones, and lets an admin retry it, audited', async () => {
    const { browser, baseUrl, db } = site();
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${baseUrl}/admin/`);
    await signInToConsoleByEmail(page, site(), ADMIN); // its sign-in link is a send-email job
    await page.getByRole('menuitem', { name: 'Jobs' }).click();
    await page.waitForURL(/#\/jobs/);

    // Newest first: the sign-in email's delivery, then the failed sweep with its error cut short.
    await failedRow(page).waitFor();
    const emailRow = rows(page).filter({ hasText: 'Send email' });
    await emailRow.getByText('Completed').waitFor();
    expect(await rows(page).allInnerTexts()).toEqual([
      expect.stringContaining('Send email'),
      expect.stringContaining('Expire checkouts'),
    ]);
    await failedRow(page).getByText('Failed', { exact: true }).waitFor();
    await failedRow(page).getByText('2 of 2').waitFor();
    await failedRow(page)
      .getByText(`${FAILURE.slice(0, 90)}…`)
      .waitFor();
    expect(await failedRow(page).getByText(FAILURE, { exact: true }).count()).toBe(0);
    expect(await failedRow(page).getByRole('button', { name: 'Retry' }).count()).toBe(1);
    expect(await emailRow.getByRole('button', { name: 'Retry' }).count()).toBe(0); // failed jobs only
    await checkScreen(page, 'console-jobs-list');

    // The name filter, then the "Failed" quick filter (which sets the state filter) instead.
    await chooseOption(page, 'Job', 'Send email');
    await expect.poll(() => rows(page).count()).toBe(1);
    await emailRow.waitFor();
    await chooseOption(page, 'Job', 'Expire checkouts');
    await failedRow(page).waitFor();
    await expect.poll(() => rows(page).count()).toBe(1);
    await page.getByRole('button', { name: 'Show failed jobs only' }).click();
    await expect.poll(() => decodeURIComponent(page.url())).toContain('"state":"failed"');
    await page.getByRole('combobox', { name: 'State' }).getByText('Failed').waitFor();
    await failedRow(page).waitFor();
    expect(await rows(page).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Show failed jobs only' }).getAttribute('aria-pressed')).toBe('true');
    await keepScreenshot(page, 'console-jobs-failed-only-1280');

    // Its page: the whole error, the data as JSON, and the retry.
    await failedRow(page).getByText('Expire checkouts').click();
    await page.waitForURL(new RegExp(`#/jobs/${failedId}/show`));
    await page.getByText('Job: Expire checkouts').first().waitFor();
    await page.getByText(FAILURE, { exact: true }).waitFor();
    await page.getByLabel('Data').getByText('{}').waitFor();
    await page.getByText('expire-checkouts', { exact: true }).waitFor(); // the queue's own name, as logs say it
    expect(await stateChip(page).innerText()).toBe('Failed');
    await checkScreen(page, 'console-job-failed');

    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByText('“Expire checkouts” will run again shortly.').waitFor();
    // The API made it due again and this process ran it at once, with the sweep that works.
    await page.getByRole('button', { name: 'Retry' }).waitFor({ state: 'detached' });
    await expect.poll(() => stateChip(page).innerText()).not.toBe('Failed');
    await expect
      .poll(async () => (await jobsOf(db, EXPIRE_CHECKOUTS)).find((job) => job.id === failedId)?.state)
      .toBe('completed');
    await page.reload();
    await expect.poll(() => stateChip(page).innerText()).toBe('Completed');
    await page.getByText(FAILURE, { exact: true }).waitFor({ state: 'detached' }); // no error left

    const audit = await db('auditLogs').where({ resource: 'jobs', recordId: failedId });
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'retry',
        actorEmail: ADMIN,
        before: { state: 'failed' },
        after: { state: 'retry' },
      }),
    ]);
    // The audit log names it in words, and leads back to the job.
    await page.goto(`${baseUrl}/admin/#/audit-logs`);
    const entry = rows(page).filter({ hasText: 'Jobs' });
    await entry.getByText('Retried', { exact: true }).waitFor();
    await entry.getByRole('link', { name: `${failedId.slice(0, 8)}…` }).click();
    await page.waitForURL(new RegExp(`#/jobs/${failedId}/show`));
    await page.close();
  });

  it("links a send-email job to its email, whose page no longer shows the outbox's internal lease", async () => {
    const { browser, baseUrl, db } = site();
    const [job] = await jobsOf(db, SEND_EMAIL);
    expect(job).toBeDefined();
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${baseUrl}/admin/`);
    await signInToConsoleByEmail(page, site(), ADMIN);
    await page.getByRole('menuitem', { name: 'Jobs' }).waitFor();
    await page.goto(`${baseUrl}/admin/#/jobs/${job!.id}/show`);
    await page.getByText('Job: Send email').first().waitFor();
    expect(await page.getByRole('button', { name: 'Retry' }).count()).toBe(0);
    await page.getByLabel('Data').getByText(String(job!.data.emailId)).waitFor();
    await keepScreenshot(page, 'console-job-send-email-1280');
    await page.getByRole('link', { name: 'Open the email' }).click();
    await page.waitForURL(new RegExp(`#/outbox-emails/${String(job!.data.emailId)}/show`));
    await page.getByText('Your sign-in link').first().waitFor();
    expect(await page.getByText('Next attempt').count()).toBe(0);
    await page.close();
  });
});
