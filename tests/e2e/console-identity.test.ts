import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { AuditLog, DeviceAccessToken } from '../support/models';
import { hashSecret, newSecret } from '../../api/src/identity/secrets';
import { signedIn } from '../support/auth';
import { keepScreenshot, signInToConsoleByEmail, signedInContext, useDemoSite } from '../support/browser';

describe('signing in to the console (Chromium)', () => {
  const site = useDemoSite();

  const menu = (page: Page) => page.getByRole('menuitem');

  it('signs an admin in by email and shows the whole menu', async () => {
    const page = await site().browser.newPage();
    await page.goto(`${site().baseUrl}/admin/`);
    await signInToConsoleByEmail(page, site(), 'admin@example.com');
    await page.waitForURL(/\/admin\//);
    await page.getByRole('menuitem', { name: 'Email outbox' }).waitFor();
    expect(await menu(page).allInnerTexts()).toEqual(expect.arrayContaining(['Products', 'Users', 'Email outbox']));

    await page.getByRole('menuitem', { name: 'Users' }).click();
    await page.getByText('finance@example.com').waitFor();
    await page.getByRole('menuitem', { name: 'Email outbox' }).click();
    await page.getByText('Your sign-in link').first().waitFor();
    expect(await page.getByText('admin@example.com').count()).toBeGreaterThan(0);
  });

  it('shows finance only what finance may use', async () => {
    const context = await signedInContext(site().browser, site().baseUrl, site().db, ['finance']);
    const page = await context.newPage();
    await page.goto(`${site().baseUrl}/admin/`);
    await page.getByRole('menuitem', { name: 'Users' }).waitFor();
    const items = await menu(page).allInnerTexts();
    expect(items).toEqual(expect.arrayContaining(['Products', 'Users']));
    expect(items).not.toContain('Email outbox');
    await context.close();
  });

  it("lets support sign a person out of every browser and device from the person's page, after confirmation, audited", async () => {
    const learner = await signedIn(site().db, ['learner'], 'lost-laptop@example.com');
    const token = newSecret();
    await DeviceAccessToken.query(site().db).insert({
      token: hashSecret(token),
      userId: learner.user.id,
      clientId: 'course-cli',
    });
    const me = () => fetch(`${site().baseUrl}/api/store/me`, { headers: { cookie: learner.cookie } });
    expect((await me()).status).toBe(200);

    const context = await signedInContext(site().browser, site().baseUrl, site().db, ['support']);
    const page = await context.newPage();
    await page.goto(`${site().baseUrl}/admin/#/users/${learner.user.id}/show`);
    await page.getByText('lost-laptop@example.com').first().waitFor();
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(`Sign ${learner.user.name} out of every browser and every device?`).waitFor();
    await keepScreenshot(page, 'console-user-sign-out-everywhere');
    expect((await me()).status).toBe(200); // nothing before the confirmation
    await dialog.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.getByText(`Signed ${learner.user.name} out: 1 session and 1 device token ended.`).waitFor();
    expect((await me()).status).toBe(401);
    expect(
      (await fetch(`${site().baseUrl}/oauth/userinfo`, { headers: { Authorization: `Bearer ${token}` } })).status,
    ).toBe(401);
    await page.getByRole('tab', { name: 'Sessions' }).click();
    await page.getByText('No active sessions: this user is signed out everywhere.').waitFor();
    const audit = await AuditLog.query(site().db).where({ action: 'sign-out-everywhere', recordId: learner.user.id });
    expect(audit).toHaveLength(1);
    expect(audit[0]!.before).toEqual({ sessions: 1, deviceTokens: 1 });
    await context.close();
  });

  it('does not offer support to sign out a staff account (only administrators may)', async () => {
    const finance = await signedIn(site().db, ['finance'], 'finance-colleague@example.com');
    const context = await signedInContext(site().browser, site().baseUrl, site().db, ['support']);
    const page = await context.newPage();
    await page.goto(`${site().baseUrl}/admin/#/users/${finance.user.id}/show`);
    await page.getByText('finance-colleague@example.com').first().waitFor();
    await page.getByRole('link', { name: 'Edit' }).waitFor(); // the toolbar is drawn with support's permissions
    expect(await page.getByRole('button', { name: 'Sign out everywhere' }).count()).toBe(0);
    await context.close();
  });

  it('sends a signed-out visitor to the login page', async () => {
    const page = await site().browser.newPage();
    await page.goto(`${site().baseUrl}/admin/#/users`);
    await page.getByRole('button', { name: 'Send sign-in link' }).waitFor();
    expect(page.url()).toMatch(/#\/login/);
  });
});
