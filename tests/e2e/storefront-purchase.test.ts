import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { Purchase } from '../support/models';
import { createCoupon, createProduct, createPurchase, createUser } from '../../seeds/factories';
import { runSeeds } from '../../seeds/run';
import { keepScreenshot, signedInContext, useDemoSite } from '../support/browser';

describe('buying a course on the storefront with the built-in provider (Chromium)', () => {
  const site = useDemoSite(async (db) => {
    await runSeeds(db, { demo: true });
    await createCoupon(db, { code: 'HALF', percentageDiscount: 0.5 });
    await createProduct(db, {
      name: 'Spring Cohort',
      slug: 'spring-cohort',
      productType: 'cohort',
      enrollmentOpensAt: new Date(Date.now() + 7 * 86_400_000),
    });
    const full = await createProduct(db, { name: 'Tiny Workshop', slug: 'tiny-workshop', quantityAvailable: 1 });
    await createPurchase(db, { user: await createUser(db), product: full });
  });
  let page: Page;

  beforeAll(async () => {
    const context = await signedInContext(site().browser, site().baseUrl, site().db, ['learner']);
    page = await context.newPage();
  });

  it('buys with a coupon link, pays, and finds the purchase and its invoice', async () => {
    await page.goto(`${site().baseUrl}/products/typescript-fundamentals?code=HALF`);
    const price = page.getByRole('region', { name: 'Price' });
    await expect.poll(() => price.innerText(), { timeout: 10_000 }).toContain('$24.50');
    await keepScreenshot(page, 'storefront-product');
    // Billed in Oregon, where the demo school collects no sales tax: the price is what is charged.
    await page.getByLabel('State').selectOption('OR');
    await expect.poll(() => page.getByRole('button', { name: 'Buy now' }).innerText()).toBe('Buy now · $24.50');
    await page.getByRole('button', { name: 'Buy now' }).click();

    await page.waitForURL(/\/test-provider\/checkout\//);
    await expect.poll(() => page.getByText('$24.50').count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Pay' }).click();

    await page.waitForURL(/\/thanks\?checkout=/);
    await page.getByText('Your purchase is confirmed.').waitFor({ timeout: 20_000 });
    await page.getByRole('link', { name: 'My purchases' }).first().click();

    await page.getByRole('heading', { name: 'My purchases' }).waitFor();
    const item = page.getByRole('listitem').filter({ hasText: 'TypeScript Fundamentals' });
    await item.waitFor();
    expect(await item.innerText()).toContain('$24.50');
    await keepScreenshot(page, 'storefront-my-purchases');
    await item.getByRole('link', { name: /invoice/i }).click();

    await page.getByRole('heading', { name: 'Invoice' }).waitFor();
    await page.getByRole('button', { name: 'Print' }).waitFor();
    expect(await page.getByText('$24.50').count()).toBeGreaterThan(0);
    await keepScreenshot(page, 'storefront-invoice');

    const purchases = await Purchase.query(site().db).where({ totalAmount: 2450 });
    expect(purchases).toHaveLength(1);
    expect(purchases[0]!.status).toBe('Valid');
  });

  it('says when enrollment opens and when a course is sold out, instead of offering to buy', async () => {
    await page.goto(`${site().baseUrl}/`);
    const card = (name: string) => page.getByRole('listitem').filter({ has: page.getByRole('heading', { name }) });
    await expect.poll(() => card('Spring Cohort').innerText()).toContain('Enrollment closed — opens');
    expect(await card('Tiny Workshop').innerText()).toContain('Sold out');

    await page.goto(`${site().baseUrl}/products/spring-cohort`);
    await page.getByRole('heading', { name: /^Enrollment closed — opens / }).waitFor();
    expect(await page.getByRole('button', { name: /Buy/ }).count()).toBe(0);
    await page.goto(`${site().baseUrl}/products/tiny-workshop`);
    await page.getByRole('heading', { name: 'Sold out' }).waitFor(); // and a waitlist: storefront-waitlist.test.ts
    expect(await page.getByRole('button', { name: /Buy/ }).count()).toBe(0);
  });
});
