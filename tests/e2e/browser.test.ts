import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_PRODUCTS } from '../../seeds/demo';
import { signedInContext, useDemoSite } from '../support/browser';

describe('the storefront and the console in Chromium', () => {
  const site = useDemoSite();
  let page: Page;
  const names = Object.values(DEMO_PRODUCTS).map((p) => p.name);

  it('shows the demo products with their prices on the storefront home page', async () => {
    page = await site().browser.newPage();
    await page.goto(`${site().baseUrl}/`);
    const cards = page.getByRole('listitem');
    await expect.poll(() => cards.count()).toBe(names.length);
    for (const name of names) await expect.poll(() => page.getByRole('heading', { name }).count()).toBe(1);
    await expect.poll(() => page.getByText('$49.00').count()).toBe(1);
    expect(await page.getByText('Limited to 20 seats').count()).toBe(1);
  });

  it('answers an unknown storefront path with a page that says what to do', async () => {
    await page.goto(`${site().baseUrl}/no/such/page`);
    await expect.poll(() => page.getByRole('heading', { name: 'Page not found' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Browse the courses' }).count()).toBe(1);
  });

  it('lists the products in the console from the admin API, with the total', async () => {
    const context = await signedInContext(site().browser, site().baseUrl, site().db, ['finance']);
    const console = await context.newPage();
    await console.goto(`${site().baseUrl}/admin/`);
    await console.getByRole('menuitem', { name: 'Products' }).click();
    for (const name of names) await expect.poll(() => console.getByText(name, { exact: true }).count()).toBe(1);
    await expect.poll(() => console.getByText(`1-${names.length} of ${names.length}`).count()).toBe(1);
    await context.close();
  });
});
