import { describe, expect, it } from 'vitest';
import { Product } from '../support/models';
import { keepScreenshot, signedInContext, useDemoSite } from '../support/browser';

/** A course's payment plan in the console (docs/domain.md §23): shown on its Prices tab, replaced by a new one. */
describe('payment plans in the console (Chromium)', () => {
  const site = useDemoSite();

  it("shows TypeScript Pro's plan beside its prices and offers a new one in its place", async () => {
    const { browser, baseUrl, db } = site();
    const context = await signedInContext(browser, baseUrl, db, ['support']);
    const page = await context.newPage();
    await page.setViewportSize({ width: 1440, height: 900 });
    const pro = (await Product.query(db).findOne({ key: 'typescript-pro' }))!;

    await page.goto(`${baseUrl}/admin/#/products/${pro.id}/show/prices`);
    await page.getByText('$69.00').first().waitFor();
    await page.getByText('Offered').first().waitFor();
    await keepScreenshot(page, 'console-payment-plan-of-product');

    await page.getByRole('link', { name: 'Add payment plan' }).click();
    await page.getByRole('heading', { name: 'New payment plan' }).waitFor();
    await page.getByLabel('Instalments').fill('6');
    await page.getByLabel('Each instalment (in dollars)').fill('35.00');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(new RegExp(`#/products/${pro.id}/show/prices$`));
    await page.getByText('$35.00').first().waitFor();

    const plans = await db('paymentPlans').where({ productId: pro.id }).orderBy('createdAt');
    expect(plans.map((p) => [p.instalments, p.instalmentAmount, p.status])).toEqual([
      [3, 6900, 'archived'],
      [6, 3500, 'active'],
    ]);
    // The sales page offers the new plan.
    const answer = await fetch(`${baseUrl}/api/store/products/typescript-pro`);
    expect((await answer.json()).paymentPlan).toMatchObject({ instalments: 6, instalmentAmount: 3500 });
    await context.close();
  });
});
