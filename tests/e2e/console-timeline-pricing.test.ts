import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_WIDTHS, checkScreen, keepScreenshot, signedInContext, useDemoSite } from '../support/browser';
import { seedEverything } from '../support/everything';

/**
 * Issue 19 §1–§3 in the console: a customer's timeline with a note, the pricing simulator's scenarios, and support
 * viewing the storefront as a learner.
 */
describe('customer timeline, pricing simulator and view-as (Chromium)', () => {
  let fixture: Awaited<ReturnType<typeof seedEverything>>;
  const site = useDemoSite(async (db) => {
    fixture = await seedEverything(db);
  });
  let context: BrowserContext;
  let staffEmail: string;

  beforeAll(async () => {
    staffEmail = 'timeline.support@example.com';
    context = await signedInContext(site().browser, site().baseUrl, site().db, ['support', 'finance'], staffEmail);
  });

  async function open(path: string): Promise<Page> {
    const page = await context.newPage();
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${site().baseUrl}/admin/#/${path}`);
    return page;
  }

  /** The console at both widths it is used at. */
  const screens = (page: Page, name: string) => checkScreen(page, name, { widths: CONSOLE_WIDTHS });

  it('shows a customer’s timeline newest first and keeps a note staff add, on the person and the purchase', async () => {
    const page = await open(`users/${fixture.buyer.id}/show/timeline`);
    const timeline = page.getByRole('list', { name: 'Timeline' });
    await timeline.getByText('Bought TypeScript Fundamentals for $49.00').waitFor();
    await timeline.getByText(/^Refund of \$9\.00/).waitFor();
    await timeline.getByText('Paid $49.00').waitFor();

    await page.getByLabel('Internal note').fill('Asked for a receipt with their company name.');
    await page.getByRole('button', { name: 'Add note' }).click();
    await page.getByText('Note added.').waitFor();
    const first = timeline.getByRole('listitem').first();
    await first.getByText('Asked for a receipt with their company name.').waitFor();
    await first.getByText(`By ${staffEmail}`).waitFor();
    const notes = await site().db('staffNotes').where({ userId: fixture.buyer.id });
    expect(notes).toMatchObject([{ body: 'Asked for a receipt with their company name.', authorEmail: staffEmail }]);

    // An empty note is refused on the field, and nothing is written.
    await page.getByRole('button', { name: 'Add note' }).click();
    await page.getByText('Write the note first.').waitFor();
    expect(await site().db('staffNotes').where({ userId: fixture.buyer.id })).toHaveLength(1);
    await screens(page, 'console-customer-timeline');

    // The purchase's own timeline: its payment and refund; a note there lands on the person's too.
    const purchase = await open(`purchases/${fixture.purchase.id}/show/timeline`);
    const ofPurchase = purchase.getByRole('list', { name: 'Timeline' });
    await ofPurchase.getByText('Paid $49.00').waitFor();
    await purchase.getByLabel('Internal note').fill('Refund agreed by phone.');
    await purchase.getByRole('button', { name: 'Add note' }).click();
    await ofPurchase.getByText('Refund agreed by phone.').waitFor();
    expect(await site().db('staffNotes').where({ purchaseId: fixture.purchase.id })).toHaveLength(1);
    await page.reload();
    await timeline.getByText('Refund agreed by phone.').waitFor();
  });

  it('prices a team purchase line by line, saves it, and flags the scenario after a price change until accepted', async () => {
    const page = await open('pricing-scenarios');
    await page.getByRole('heading', { name: 'Pricing simulator', level: 1 }).waitFor();
    const product = page.getByRole('combobox', { name: 'Product' });
    await product.fill('TypeScript Pro');
    await page.getByRole('option', { name: 'TypeScript Pro' }).click();
    await page.getByLabel('Country').fill('US');
    await page.getByLabel('Seats').fill('12');
    await page.getByRole('switch', { name: 'For a team' }).check();
    await page.getByRole('button', { name: 'Simulate' }).click();

    // 12 × $199.00 = $2,388.00; the 25 % team tier beats the 20 % sale.
    const lines = page.getByRole('table', { name: 'The quote, line by line' });
    await lines.getByRole('row', { name: /12 × \$199\.00 list price \$2,388\.00/ }).waitFor();
    await lines.getByRole('row', { name: /Team seats discount \(25%\) −\$597\.00/ }).waitFor();
    await lines.getByRole('row', { name: /Total charged \$1,791\.00/ }).waitFor();
    await page.getByText('Sale: another discount saves more (one discount applies, the largest)').waitFor();
    await page.getByText(/A team of 12 seats: the buyer takes one like anyone else\./).waitFor();

    await page.getByLabel('Scenario name').fill('Pro for a team of 12');
    await page.getByRole('button', { name: 'Save as scenario' }).click();
    await page.getByText('Scenario “Pro for a team of 12” saved.').waitFor();
    const row = page.locator('tr[data-scenario="Pro for a team of 12"]');
    await row.getByText('Same answer').waitFor();
    await screens(page, 'console-pricing-simulator');

    // The price goes up: Run all flags the scenario, with both answers; accepting makes the new one expected.
    const pro = await site().db('products').where({ key: 'typescript-pro' }).first('id');
    await site().db('prices').where({ productId: pro.id, status: 'active' }).update({ unitAmount: 24_900 });
    await page.getByRole('button', { name: 'Run all' }).click();
    // Ours and the demo's three quotes of Pro changed; the others did not.
    await page.getByText('7 scenarios run: 4 changed.').waitFor();
    await row.getByText('Changed').waitFor();
    await row.getByRole('cell', { name: '$1,791.00' }).waitFor();
    await row.getByRole('cell', { name: '$2,241.00' }).waitFor(); // 12 × $249 − 25 %
    // Why, as a buyer would see it.
    const changes = row.getByRole('list', { name: 'What a buyer would see change' });
    await changes.getByText('Unit price: $199.00 → $249.00').waitFor();
    await changes.getByText('Total: $1,791.00 → $2,241.00').waitFor();
    await screens(page, 'console-pricing-scenario-changed');
    await row.getByRole('button', { name: 'Accept new answer' }).click();
    await row.getByText('Same answer').waitFor();
    const saved = await site().db('pricingScenarios').where({ name: 'Pro for a team of 12' }).first();
    expect(saved.expected.quote.finalPrice).toBe(224_100);
    expect(
      await site().db('auditLogs').where({ action: 'pricing-scenario.accepted', recordId: saved.id }),
    ).toHaveLength(1);

    // Deleting asks first, naming the scenario: cancelled, it stays; confirmed, it goes.
    const remove = row.getByRole('button', { name: 'Delete scenario Pro for a team of 12' });
    await remove.click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Delete the scenario “Pro for a team of 12”?').waitFor();
    await screens(page, 'console-pricing-scenario-delete');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await site().db('pricingScenarios').where({ id: saved.id })).toHaveLength(1);
    await remove.click();
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByText('Scenario “Pro for a team of 12” deleted.').waitFor();
    await row.waitFor({ state: 'detached' });
    expect(await site().db('pricingScenarios').where({ id: saved.id })).toEqual([]);
  });

  it('opens the storefront as a learner, read-only, with a banner on every page, audited, until ended or expired', async () => {
    const page = await open(`users/${fixture.buyer.id}/show`);
    await page.getByRole('button', { name: 'View as' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Reason').fill('Ticket 512: cannot see the invoice');
    const [storefront] = await Promise.all([
      context.waitForEvent('page'),
      dialog.getByRole('button', { name: 'View as' }).click(),
    ]);
    await storefront.waitForLoadState();
    const banner = storefront.getByRole('region', { name: 'Support view' });
    await banner.getByText(`Viewing as ${fixture.buyer.email}`).waitFor();
    await banner.getByText(/Reason: Ticket 512: cannot see the invoice/).waitFor();
    // It lands on the learner's own page, showing their courses, not on a page the storefront does not have.
    expect(new URL(storefront.url()).pathname).toBe('/learning');
    await storefront.getByRole('heading', { name: 'My learning', level: 1 }).waitFor();
    await storefront.locator('.my-course').first().waitFor();
    expect(await storefront.getByRole('heading', { name: 'Page not found' }).count()).toBe(0);

    // On another page too, and every change refused with a plain message.
    await storefront.goto(`${site().baseUrl}/settings`);
    await banner.waitFor();
    await storefront.getByLabel('Display name').fill('Not mine to change');
    await storefront.getByRole('button', { name: 'Save name' }).click();
    await storefront.getByText(/You are viewing this account as support: nothing can be changed\./).waitFor();
    const buyer = await site().db('users').where({ id: fixture.buyer.id }).first('name');
    expect(buyer.name).not.toBe('Not mine to change');
    for (const width of [1280, 390]) {
      await storefront.setViewportSize({ width, height: 844 });
      await keepScreenshot(storefront, `storefront-view-as-${width}`);
    }
    const audited = await site().db('auditLogs').where({ resource: 'users', recordId: fixture.buyer.id }).orderBy('id');
    expect(audited.map((a) => a.action)).toEqual(expect.arrayContaining(['view-as.started', 'view-as.entered']));

    // End view: back to the console, on the learner's timeline, which shows the view.
    await banner.getByRole('button', { name: 'End view' }).click();
    await storefront.waitForURL(/\/admin\/#\/users\/.+\/show\/timeline$/);
    await storefront.getByRole('list', { name: 'Timeline' }).getByText('View as ended').waitFor();

    // A second view that runs out: the banner goes, and the browser is the staff member's own again.
    const again = await open(`users/${fixture.buyer.id}/show`);
    await again.getByRole('button', { name: 'View as' }).click();
    await again.getByRole('dialog').getByLabel('Reason').fill('Checking once more');
    const [second] = await Promise.all([
      context.waitForEvent('page'),
      again.getByRole('dialog').getByRole('button', { name: 'View as' }).click(),
    ]);
    await second.getByRole('region', { name: 'Support view' }).waitFor();
    await site()
      .db('viewAsSessions')
      .whereNull('endedAt')
      .update({ expiresAt: new Date(Date.now() - 1000) });
    await second.reload();
    await second
      .getByRole('link', { name: /my learning/i })
      .first()
      .waitFor();
    expect(await second.getByRole('region', { name: 'Support view' }).count()).toBe(0);
  });
});
