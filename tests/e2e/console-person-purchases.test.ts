import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { formatMoney } from '../../api/src/shared/money';
import { AuditLog, Product } from '../support/models';
import { createProduct, createUser } from '../../seeds/factories';
import {
  CONSOLE_WIDTHS,
  buyThroughSite,
  checkScreen,
  keepScreenshot,
  signedInContext,
  useDemoSite,
} from '../support/browser';
import { lastEmailTo } from '../support/outbox';

/**
 * A person's purchases on their page in the console, and Give a course: support sees what they bought and their
 * lifetime totals, gives them a course with a reason, sees it appear as a comp, and the person, following the email's
 * link, finds the course theirs in the storefront. At the console's two widths.
 */
describe("a person's purchases and Give a course (Chromium)", () => {
  const site = useDemoSite();

  const notice = (page: Page, text: string) => page.getByText(text).waitFor({ timeout: 15_000 });

  it.each(CONSOLE_WIDTHS)(
    'at %i px: shows their purchases and totals, gives a course with a reason, and the course opens for them',
    async (width, height) => {
      const { db, baseUrl, browser } = site();
      const email = `given.at.${width}@example.com`;
      const person = await createUser(db, { email, name: `Learner ${width}` });
      const side = await createProduct(db, { name: `Side Course ${width}`, unitAmount: 2_500 });
      const bought = await buyThroughSite(baseUrl, side.id, email);
      // What the charge took (the demo's sale applies): the totals must say exactly that.
      const charge = await db('purchases as p')
        .join('merchantCharges as ch', 'ch.id', 'p.merchantChargeId')
        .where('p.id', bought)
        .first('ch.amount');
      const paid = formatMoney(charge.amount, 'usd');
      const fundamentals = (await Product.query(db).findOne({ key: 'typescript-fundamentals' }))!;

      const context = await signedInContext(browser, baseUrl, db, ['support']);
      const page = await context.newPage();
      await page.setViewportSize({ width, height });
      await page.goto(`${baseUrl}/admin/#/users/${person.id}/show`);
      await page.getByText(email).first().waitFor();

      // Their purchases and lifetime totals, from the charge Finance lists.
      await page.getByRole('tab', { name: 'Purchases' }).click();
      const totals = page.getByRole('table', { name: 'Lifetime totals' });
      const usd = totals.locator('tr[data-currency="usd"]');
      await usd.waitFor();
      expect(await usd.locator('td').allInnerTexts()).toEqual(['USD', paid, '$0.00', paid, '1', '0', '0']);
      const rows = page.locator('.RaDatagrid-tbody tr');
      await expect.poll(() => rows.count()).toBe(1);
      await rows.first().getByText(`Side Course ${width}`).waitFor();
      if (width === CONSOLE_WIDTHS[0][0])
        await checkScreen(page, 'console-person-purchases', { widths: CONSOLE_WIDTHS });

      // Give a course: the product, and a reason, required.
      await page.getByRole('button', { name: 'Give a course' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText(`Give Learner ${width} a course, free?`).waitFor();
      await dialog.getByRole('button', { name: 'Give the course' }).click();
      await dialog.getByText('Choose the product to give.').first().waitFor();
      await dialog.getByRole('combobox', { name: 'Product' }).fill('TypeScript Fun');
      await page.getByRole('option', { name: 'TypeScript Fundamentals' }).click();
      await dialog.getByRole('button', { name: 'Give the course' }).click();
      await dialog.getByText('Say why, in a few words.').first().waitFor();
      await dialog.getByLabel('Reason').fill('Scholarship, ticket 812');
      await keepScreenshot(page, `console-give-course-dialog-${width}`);
      await dialog.getByRole('button', { name: 'Give the course' }).click();
      await notice(page, `Gave TypeScript Fundamentals to Learner ${width}; the email is on its way to ${email}.`);

      // It appears among their purchases as a comp, and the totals count it without a cent more.
      await expect.poll(() => rows.count()).toBe(2);
      const given = rows.filter({ hasText: 'TypeScript Fundamentals' });
      await given.getByText('Comp (given by staff)').waitFor();
      await expect.poll(() => usd.locator('td').allInnerTexts()).toEqual(['USD', paid, '$0.00', paid, '2', '0', '1']);
      await keepScreenshot(page, `console-person-purchases-given-${width}`);
      const comp = await db('purchases').where({ userId: person.id, productId: fundamentals.id }).first();
      expect(comp).toMatchObject({ kind: 'comp', status: 'Valid', totalAmount: 0, merchantChargeId: null });
      expect(await AuditLog.query(db).where({ action: 'purchase.comped', recordId: comp.id })).toHaveLength(1);

      // The link to the purchase opens its page.
      await given.getByRole('link', { name: 'Open' }).click();
      await page.waitForURL(new RegExp(`/purchases/${comp.id}/show`));
      await page.getByText('Comp (given by staff)').first().waitFor();
      await page.getByText('Scholarship, ticket 812').waitFor();
      await keepScreenshot(page, `console-given-purchase-${width}`);
      await context.close();

      // Finance counts it as a course given, never as revenue.
      const financeContext = await signedInContext(browser, baseUrl, db, ['finance']);
      const finance = await financeContext.newPage();
      await finance.setViewportSize({ width, height });
      await finance.goto(`${baseUrl}/admin/#/finance`);
      const comps = await db('purchases').where({ kind: 'comp', currency: 'usd' }).count({ n: '*' });
      const givenFigure = finance
        .getByRole('region', { name: 'Totals' })
        .locator('.MuiCard-root', { has: finance.getByRole('heading', { name: 'Courses given' }) });
      await expect.poll(() => givenFigure.locator('p').innerText()).toBe(String(comps[0]!.n));
      await givenFigure.getByText('Comps: no charge, not revenue').waitFor();
      await financeContext.close();

      // The person follows the email's link: signed in, onto the course, which is theirs.
      const learner = await browser.newContext({ viewport: { width, height } });
      const store = await learner.newPage();
      const { link, kind } = await lastEmailTo(db, email);
      expect(kind).toBe('course-given');
      await store.goto(new URL(link!.pathname + link!.search, baseUrl).toString());
      await store.getByRole('button', { name: 'Continue' }).click();
      await store.waitForURL(/\/courses\//);
      await store.getByRole('heading', { name: 'TypeScript Fundamentals', level: 1 }).waitFor();
      await store.goto(`${baseUrl}/learning`);
      await store.getByRole('heading', { name: 'My learning' }).waitFor();
      await store.getByRole('heading', { name: 'TypeScript Fundamentals' }).waitFor();
      await keepScreenshot(store, `storefront-given-course-${width}`);
      await learner.close();
    },
  );
});
