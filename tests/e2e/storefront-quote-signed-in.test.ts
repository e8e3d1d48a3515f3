import { describe, expect, it } from 'vitest';
import { createPurchase } from '../../seeds/factories';
import { runSeeds } from '../../seeds/run';
import { signedInContext, useDemoSite } from '../support/browser';
import { Product, User } from '../support/models';

/**
 * The product page's server-rendered price is a visitor's. Someone signed in has theirs asked for at once, not when
 * the browser is next idle: here the browser never is, and the owner of a course still sees its upgrade credit on the
 * next course's page rather than the visitor's price.
 */
describe('the product page prices a signed-in buyer at once (Chromium)', () => {
  const site = useDemoSite(async (db) => {
    await runSeeds(db, { demo: true });
    await db('taxRegistrations').where({ country: 'US' }).delete();
  });

  it('shows an upgrader their credit on a page that is never idle', async () => {
    const { browser, baseUrl, db } = site();
    const fundamentals = (await Product.query(db).findOne({ key: 'typescript-fundamentals' }))!;
    const pro = (await Product.query(db).findOne({ key: 'typescript-pro' }))!;
    const context = await signedInContext(browser, baseUrl, db, [], 'busy-page-owner@example.com');
    const user = (await User.query(db).findOne({ email: 'busy-page-owner@example.com' }))!;
    await createPurchase(db, { user, product: fundamentals, totalAmount: 4900 });
    // A page that stays busy: idle callbacks never run (nor their timeout).
    await context.addInitScript(() => {
      window.requestIdleCallback = () => 0;
    });
    const page = await context.newPage();

    await page.goto(`${baseUrl}/products/${pro.slug}`);
    const price = page.getByRole('region', { name: 'Buy this course' }).getByRole('region', { name: 'Price' });
    await expect.poll(() => price.innerText()).toContain('Credit for TypeScript Fundamentals');
    expect(await price.innerText()).toContain('−$49.00');
    await context.close();
  });
});
