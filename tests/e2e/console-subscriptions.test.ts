import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, createRevenueSplit } from '../../seeds/factories';
import { runSeeds } from '../../seeds/run';
import { signedIn } from '../support/auth';
import { checkScreen, CONSOLE_WIDTHS, signedInContext, useDemoSite } from '../support/browser';

describe('subscriptions in the console: a period refunded with its reason, its credit note, the Finance charts (Chromium)', () => {
  const site = useDemoSite((db) => runSeeds(db, { demo: false }));
  let context: BrowserContext | undefined;
  let page: Page;
  const subscriptions: string[] = [];

  /** A learner subscribed at the test provider's page, then renewed once: their subscription's id. */
  async function subscribe(productId: string, email: string): Promise<string> {
    const { baseUrl, db } = site();
    const learner = await signedIn(db, ['learner'], email);
    const headers = { 'content-type': 'application/json', cookie: learner.cookie, 'x-csrf-token': learner.csrfToken };
    const started = await fetch(`${baseUrl}/api/store/subscriptions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ productId }),
    });
    expect(started.status).toBe(201);
    const { url } = ((await started.json()) as { data: { url: string } }).data;
    const paid = await fetch(`${baseUrl}${new URL(url).pathname}/pay`, { method: 'POST', redirect: 'manual' });
    expect(paid.status).toBe(303);
    const mine = await fetch(`${baseUrl}/api/store/subscriptions`, { headers });
    const id = ((await mine.json()) as { data: { id: string }[] }).data[0]!.id;
    const renewed = await fetch(`${baseUrl}/test-provider/subscriptions/${id}/renew`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ outcome: 'paid' }),
    });
    expect(renewed.status).toBe(200);
    return id;
  }

  beforeAll(async () => {
    const { db } = site();
    const membership = await createProduct(db, {
      name: 'Console Club',
      productType: 'membership',
      billingInterval: 'month',
      grantsWholeCatalog: true,
      unitAmount: 2900,
    });
    await createRevenueSplit(db, { productId: membership.id, type: 'platform', percent: 1 });
    subscriptions.push(await subscribe(membership.id, 'club.wide@example.com'));
    subscriptions.push(await subscribe(membership.id, 'club.phone@example.com'));
    // A second currency's recurring revenue: the Finance page draws it too.
    const euroClub = await createProduct(db, {
      name: 'Euro Club',
      productType: 'membership',
      billingInterval: 'month',
      unitAmount: 1900,
      currency: 'eur',
    });
    await subscribe(euroClub.id, 'club.euro@example.com');
  });
  afterAll(() => context?.close());

  const dialog = () => page.getByRole('dialog');

  it('lists subscriptions, opens one, refunds a period with a reason and finds its credit note', async () => {
    const { baseUrl, db } = site();
    const id = subscriptions[0]!;
    context = await signedInContext(site().browser, baseUrl, db, ['finance']);
    page = await context.newPage();

    await page.goto(`${baseUrl}/admin/#/subscriptions`);
    await page.getByText('Console Club').first().waitFor();
    await checkScreen(page, 'console-subscriptions', { widths: CONSOLE_WIDTHS });
    await page.goto(`${baseUrl}/admin/#/subscriptions/${id}/show`);

    // Two paid periods; the first is refunded with a reason, the subscription going on.
    const periods = page.getByRole('table', { name: 'Periods' });
    await periods.getByRole('row').nth(2).waitFor();
    await periods.getByRole('button', { name: 'Refund' }).first().click();
    await dialog().getByRole('combobox', { name: /Why/ }).click();
    await page.getByRole('option', { name: 'Requested by the customer' }).click();
    await dialog().getByRole('textbox', { name: /Note/ }).fill('charged twice by mistake');
    await dialog().getByRole('button', { name: 'Continue' }).click();
    await dialog().getByText('Refund $29.00 for this period? The subscription goes on.').waitFor();
    await dialog().getByRole('button', { name: 'Refund' }).click();
    await page.getByText('$29.00 refunded; a credit note is issued').first().waitFor();
    await periods.getByRole('cell', { name: '$29.00' }).nth(1).waitFor();
    await page
      .getByRole('list', { name: 'Timeline' })
      .getByText(/charged twice by mistake/)
      .waitFor();
    await checkScreen(page, 'console-subscription-refunded', { widths: CONSOLE_WIDTHS });

    const [first] = await db('subscriptionPeriods')
      .where({ subscriptionId: id, outcome: 'paid' })
      .orderBy('periodStart');
    const note = await db('invoices').where({ merchantChargeId: first.merchantChargeId, kind: 'credit-note' }).first();
    expect(note).toBeDefined();
    expect((await db('subscriptions').where({ id }).first()).status).toBe('active');

    // The credit note, opened in the console.
    await page.goto(`${baseUrl}/admin/#/invoices/${note.id}/show`);
    await page.getByText(note.number).first().waitFor();
    await page.getByText('Credit note').first().waitFor();

    // The Finance page draws recurring revenue's charts.
    await page.goto(`${baseUrl}/admin/#/finance`);
    await page.getByRole('heading', { name: 'Memberships' }).waitFor();
    await page.locator('#subscribers-over-time-title').waitFor();
    await page.locator('figure[aria-labelledby="subscribers-over-time-title"] svg').first().waitFor();
    // One MRR chart per currency billed: dollars and euros alike.
    for (const currency of ['usd', 'eur']) {
      await page.locator(`figure[aria-labelledby="mrr-over-time-${currency}-title"] svg`).first().waitFor();
    }
    await page.getByText('MRR in EUR, day by day').first().waitFor();
    await checkScreen(page, 'console-finance-memberships', { widths: CONSOLE_WIDTHS });
  });
});
