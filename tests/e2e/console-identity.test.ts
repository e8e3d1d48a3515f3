import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signedInContext, useDemoSite } from '../support/browser';
import { lastEmailTo } from '../support/outbox';

describe('signing in to the console (Chromium)', () => {
  const site = useDemoSite();

  const menu = (page: Page) => page.getByRole('menuitem');

  it('signs an admin in by email and shows the whole menu', async () => {
    const page = await site().browser.newPage();
    await page.goto(`${site().baseUrl}/admin/`);
    await page.getByLabel('Email address').fill('admin@example.com');
    await page.getByRole('button', { name: 'Send sign-in link' }).click();
    await page.getByText('Check your inbox').waitFor();

    const { link } = await lastEmailTo(site().db, 'admin@example.com');
    await page.goto(new URL(link!.pathname + link!.search, site().baseUrl).toString());
    await page.getByRole('button', { name: 'Continue' }).click();
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

  it('sends a signed-out visitor to the login page', async () => {
    const page = await site().browser.newPage();
    await page.goto(`${site().baseUrl}/admin/#/users`);
    await page.getByRole('button', { name: 'Send sign-in link' }).waitFor();
    expect(page.url()).toMatch(/#\/login/);
  });
});
