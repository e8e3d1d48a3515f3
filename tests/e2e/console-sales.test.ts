import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { Price, Product } from '../support/models';
import { CONSOLE_WIDTHS, chooseOption, keepScreenshot, signedInContext, useDemoSite } from '../support/browser';
import { seedEverything } from '../support/everything';

describe('catalog, sales and the dashboard in the console (Chromium)', () => {
  const site = useDemoSite(async (db) => {
    const fixture = await seedEverything(db);
    await db('purchases').where({ id: fixture.purchase.id }).update({ status: 'Refunded' });
  });
  let page: Page;

  beforeAll(async () => {
    const context = await signedInContext(site().browser, site().baseUrl, site().db, ['admin']);
    page = await context.newPage();
  });

  it("shows the API's refusal under each field it names, and saves nothing", async () => {
    await page.goto(`${site().baseUrl}/admin/#/products/create`);
    await page.getByLabel('Name').fill('A');
    await page.getByLabel('Slug').fill('Not A Slug');
    await page.getByRole('button', { name: 'Save', exact: true }).click();

    // The form holds no copy of the API's rules: these words come from the API's answer (400, errors per field).
    await expect.poll(() => page.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => page.getByLabel('Slug').getAttribute('aria-invalid')).toBe('true');
    await page.getByText('at least 2 characters', { exact: true }).waitFor();
    await page.getByText('lower-case letters, digits and dashes', { exact: true }).waitFor();
    expect(await Product.query(site().db).where({ name: 'A' })).toEqual([]);
    await page.goto(`${site().baseUrl}/admin/#/products`); // leave the refused form
  });

  it('creates a product with its price', async () => {
    await page.goto(`${site().baseUrl}/admin/#/products/create`);
    await page.getByLabel('Name').fill('Advanced Generics');
    await page.getByRole('checkbox', { name: 'Unlimited' }).uncheck(); // a new product's seats start unlimited
    await page.getByLabel('Seats').fill('25');
    await page.getByLabel('First price (in dollars)').fill('129.50');
    await keepScreenshot(page, 'console-product-create');
    await page.getByRole('button', { name: 'Save', exact: true }).click();

    await expect
      .poll(async () => (await Product.query(site().db).findOne({ name: 'Advanced Generics' }))?.quantityAvailable, {
        timeout: 10_000,
      })
      .toBe(25);
    const product = (await Product.query(site().db).findOne({ name: 'Advanced Generics' }))!;
    expect(await Price.query(site().db).where({ productId: product.id, status: 'active' })).toEqual([
      expect.objectContaining({ unitAmount: 12950, currency: 'usd' }),
    ]);
    // The console moves to the new product once the API has answered: let it, or that move lands on the next page.
    await page.waitForURL(new RegExp(`#/products/${product.id}/show$`));
    await page.getByText('Product: Advanced Generics').waitFor();
  });

  for (const [width, height] of CONSOLE_WIDTHS) {
    it(`takes a price in yen as whole yen (4000 typed is ¥4,000, never ¥400,000) at ${width} px`, async () => {
      await page.setViewportSize({ width, height });
      const name = `Yen Course ${width}`;
      await page.goto(`${site().baseUrl}/admin/#/products/create`);
      await page.getByLabel('Name').fill(name);
      // Typed in dollars, then the currency changed: the amount stays as typed, now in yen, and says so.
      await page.getByLabel('First price (in dollars)').fill('49');
      await chooseOption(page, 'Currency', 'JPY — Japanese yen');
      const price = page.getByLabel('First price (in yen)');
      await expect.poll(() => price.inputValue()).toBe('49');
      await price.fill('4000.5');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('Whole JPY only: this currency has no decimals (e.g. 4000).').waitFor();
      expect(await Product.query(site().db).where({ name })).toEqual([]);

      await price.fill('4000');
      await keepScreenshot(page, `console-product-create-yen-${width}`);
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await expect
        .poll(async () => (await Product.query(site().db).findOne({ name }))?.id, { timeout: 10_000 })
        .toBeDefined();
      const product = (await Product.query(site().db).findOne({ name }))!;
      expect(await Price.query(site().db).where({ productId: product.id, status: 'active' })).toEqual([
        expect.objectContaining({ unitAmount: 4000, currency: 'jpy' }),
      ]);
      await page.waitForURL(new RegExp(`#/products/${product.id}/show$`));
      // Its prices, as the console shows them.
      await page.goto(`${site().baseUrl}/admin/#/products/${product.id}/show/prices`);
      await page.getByText('¥4,000').first().waitFor();
      expect(await page.getByText('¥40', { exact: true }).count()).toBe(0);
    });
  }

  it('filters purchases by status', async () => {
    await page.goto(`${site().baseUrl}/admin/#/purchases`);
    await page.getByText('1-3 of 3').waitFor();
    await keepScreenshot(page, 'console-purchases');
    await chooseOption(page, 'Status', 'Refunded'); // an always-on filter: it waits for the form to render
    await page.getByText('1-1 of 1').waitFor();
    expect(await page.getByRole('link', { name: 'Lee Learner' }).count()).toBe(1);
    await chooseOption(page, 'Status', 'Valid');
    await page.getByText('1-2 of 2').waitFor();
    expect(await page.getByRole('link', { name: 'Lee Learner' }).count()).toBe(0);
  });

  it('shows the dashboard with its revenue chart', async () => {
    await page.goto(`${site().baseUrl}/admin/#/`);
    const chart = page.getByRole('figure', { name: 'Revenue per day, last 30 days' });
    await chart.waitFor();
    await chart.locator('.MuiChartsSurface-root').first().waitFor(); // the lazily loaded chart has drawn its surface
    await keepScreenshot(page, 'console-dashboard', { still: true });
    await page.getByText('Show the figures as a table').click();
    const table = page.getByRole('table', { name: 'Revenue per day, last 30 days' });
    expect(await table.getByRole('row').count()).toBe(31);
    expect(await page.getByRole('table', { name: 'Top products' }).getByText('TypeScript Fundamentals').count()).toBe(
      1,
    );
  });
});
