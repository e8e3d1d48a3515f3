import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, createUser } from '../../seeds/factories';
import {
  CONSOLE_WIDTHS,
  buyThroughSite,
  checkScreen,
  chooseOption,
  signedInContext,
  useDemoSite,
} from '../support/browser';
import { seedEverything } from '../support/everything';

/**
 * The console as support and admins use it day to day: a role change read on the person's timeline, support's
 * dashboard (their work, no finance figure), finance's dashboard in one currency at a time, and a count left empty
 * saying so in words.
 */
describe('role changes, support’s dashboard and counts left empty (Chromium)', () => {
  let fixture: Awaited<ReturnType<typeof seedEverything>>;
  const site = useDemoSite(async (db) => {
    fixture = await seedEverything(db);
    const [charge] = await db('merchantCharges').select('id', 'merchantAccountId').limit(1);
    await db('merchantDisputes').insert({
      merchantAccountId: charge.merchantAccountId,
      identifier: 'dp_open_console',
      merchantChargeId: charge.id,
      amount: 4_900,
    });
    await db('outboxEmails').insert({
      toAddress: 'bounced@example.com',
      subject: 'Your receipt',
      textBody: 'Hello',
      kind: 'receipt',
      status: 'failed',
      attempts: 5,
    });
  });
  const contexts: BrowserContext[] = [];

  async function open(roles: Parameters<typeof signedInContext>[3], path: string, email?: string): Promise<Page> {
    const context = await signedInContext(site().browser, site().baseUrl, site().db, roles, email);
    contexts.push(context);
    const page = await context.newPage();
    await page.setViewportSize({ width: CONSOLE_WIDTHS[0][0], height: CONSOLE_WIDTHS[0][1] });
    await page.goto(`${site().baseUrl}/admin/#/${path}`);
    return page;
  }

  beforeAll(() => expect(fixture.buyer).toBeTruthy());
  afterAll(async () => {
    for (const context of contexts) await context.close();
  });

  it('says on the timeline which role an admin granted and revoked, and who', async () => {
    const person = await createUser(site().db, { email: 'new.finance@example.com', roles: ['support'] });
    const page = await open(['admin'], `users/${person.id}`, 'role.admin@example.com');
    await page.getByRole('checkbox', { name: 'Finance' }).check();
    await page.getByRole('checkbox', { name: 'Support' }).uncheck();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect
      .poll(async () => (await site().db('users').where({ id: person.id }).first('roles')).roles)
      .toEqual(['finance']);

    // Saved, the console shows the person: their timeline is a tab there.
    await page.waitForURL(new RegExp(`#/users/${person.id}/show$`));
    await page.getByRole('tab', { name: 'Timeline' }).click();
    const entry = page
      .getByRole('list', { name: 'Timeline' })
      .getByRole('listitem')
      .filter({ hasText: 'Role granted: finance · Role revoked: support' });
    await entry.getByText('By role.admin@example.com').waitFor();
    expect(await entry.getByText(/→/).count()).toBe(0); // no address "changed" to itself
    expect(await page.getByText('Updated (users)').count()).toBe(0);
    await checkScreen(page, 'console-timeline-role-change', { widths: CONSOLE_WIDTHS });
  });

  it('shows support their work on the dashboard, without a finance figure', async () => {
    const page = await open(['support'], '');
    const totals = page.getByRole('region', { name: 'Totals' });
    for (const figure of ['Purchases', 'Refunds', 'Open disputes', 'Failed emails', 'Active learners'])
      await totals.getByRole('heading', { name: figure }).waitFor();
    for (const finance of ['Net revenue', 'Revenue', 'Fees'])
      expect(await page.getByText(finance, { exact: true }).count(), finance).toBe(0);
    expect(await page.getByRole('figure', { name: /Revenue per day/ }).count()).toBe(0);
    expect(await page.getByText(/\$\d/).count()).toBe(0); // not a sum of money anywhere
    await page.getByRole('table', { name: 'Top products' }).waitFor();
    await checkScreen(page, 'console-dashboard-support', { widths: CONSOLE_WIDTHS });

    // The failed emails open the outbox, narrowed to them.
    await totals
      .locator('.MuiCard-root')
      .filter({ has: page.getByRole('heading', { name: 'Failed emails' }) })
      .getByRole('link')
      .click();
    await page.getByText('bounced@example.com').waitFor();
    expect(decodeURIComponent(page.url())).toContain('"status":"failed"');
  });

  it('shows finance the dashboard’s money in one currency at a time, yen in whole yen', async () => {
    // The seeded dollar sales, and now one course sold in yen (¥4,980 less the site's default coupon): amounts in
    // jpy are whole yen.
    const yen = await createProduct(site().db, { name: 'Yen Course', unitAmount: 4_980, currency: 'jpy' });
    await buyThroughSite(site().baseUrl, yen.id, 'yen.buyer@example.com');
    const { amount: gross, fee } = await site().db('merchantCharges').where({ currency: 'jpy' }).first('amount', 'fee');
    const net = Number(
      (await site().db('splitLines').where({ currency: 'jpy' }).sum({ total: 'amount' }).first())!.total,
    );
    expect(net).toBe(gross - fee);
    const inYen = (amount: number) =>
      new Intl.NumberFormat('en-US', { style: 'currency', currency: 'JPY' }).format(amount);

    const page = await open(['finance'], '');
    const totals = page.getByRole('region', { name: 'Totals' });
    const figure = (name: string) =>
      totals.locator('.MuiCard-root').filter({ has: page.getByRole('heading', { name, exact: true }) });
    // By default the currency sold most in the period: the seeded dollars.
    await figure('Revenue')
      .getByText(/^\$[\d,]+\.\d\d$/)
      .waitFor();
    expect(await page.getByRole('combobox', { name: 'Currency' }).textContent()).toBe('USD');
    expect(await page.getByText(/¥/).count()).toBe(0);

    await chooseOption(page, 'Currency', 'JPY', { exact: true });
    await figure('Revenue').getByText(inYen(gross), { exact: true }).waitFor();
    await figure('Net revenue').getByText(inYen(net), { exact: true }).waitFor();
    await figure('Purchases').getByText('1', { exact: true }).waitFor();
    expect(await figure('Net revenue').textContent()).toContain(`After ${inYen(fee)} in fees, ¥0 refunded`);
    // Only the yen sale, and every figure in whole yen: no dollar amount, no decimals.
    const topProducts = page.getByRole('table', { name: 'Top products' });
    expect(await topProducts.getByRole('row').allTextContents()).toEqual([
      'ProductPurchasesNet revenue',
      `Yen Course1${inYen(net)}`,
    ]);
    await page.getByText('Show the figures as a table').click();
    const today = page.getByRole('table', { name: 'Revenue per day, last 30 days' }).getByRole('row').last();
    // Charged, its tax (none here), refunded, net, purchases.
    expect(await today.getByRole('cell').allTextContents()).toEqual([inYen(gross), '¥0', '¥0', inYen(net), '1']);
    expect(await page.getByText(/\$\d/).count()).toBe(0);
    expect(await page.getByText(/¥[\d,]*\.\d/).count()).toBe(0);
    for (const [width, height] of CONSOLE_WIDTHS) {
      await page.setViewportSize({ width, height });
      expect(await page.getByRole('combobox', { name: 'Currency' }).isVisible(), `switch at ${width} px`).toBe(true);
      expect(await figure('Revenue').getByText(inYen(gross), { exact: true }).isVisible()).toBe(true);
    }
    await checkScreen(page, 'console-dashboard-yen', { widths: CONSOLE_WIDTHS });
  });

  it('says in words that a coupon’s Max uses and a product’s Seats need a count, never a code', async () => {
    const page = await open(['admin'], '');
    for (const [form, count, name] of [
      ['coupons/create', 'Max uses', 'console-coupon-max-uses-empty'],
      ['products/create', 'Seats', 'console-product-seats-empty'],
    ]) {
      await page.goto(`${site().baseUrl}/admin/#/${form}`);
      await page.getByRole('checkbox', { name: 'Unlimited' }).uncheck();
      await page.getByLabel(count!).fill('');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('A whole number of at least 0, or tick Unlimited.').waitFor();
      expect(await page.getByText(/@@react-admin@@|console\.limit/).count()).toBe(0);
      await checkScreen(page, name!, { widths: CONSOLE_WIDTHS });
    }
  });
});
