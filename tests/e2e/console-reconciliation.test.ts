import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../api/src/db/connection';
import { testProviderFee } from '../../api/src/payments/test-provider';
import { createProduct } from '../../seeds/factories';
import { runSeeds } from '../../seeds/run';
import { buyThroughSite, keepScreenshot, signedInContext, useDemoSite, waitForStillness } from '../support/browser';

/** A buyer pays at the built-in provider, but the fulfilment its page sets off never runs (the webhook missed). */
async function paidButMissed(baseUrl: string, db: Db, productId: string, email: string): Promise<string> {
  const created = await fetch(`${baseUrl}/api/store/checkout`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ productId, email, billing: { region: 'OR' } }),
  });
  expect(created.status).toBe(201);
  const { url } = (await created.json()) as { url: string };
  const identifier = new URL(url).pathname.split('/').at(-1)!;
  const chargeIdentifier = `ch_test_missed_${identifier.slice(-8)}`;
  // What the provider's Pay does at its end: the session paid, the payment in its balance.
  const [session] = await db('testProviderSessions')
    .where({ identifier })
    .update({ status: 'paid', paidAt: db.fn.now(), chargeIdentifier, customerIdentifier: `cus_${chargeIdentifier}` })
    .returning(['amount', 'currency']);
  await db('testProviderBalanceTransactions').insert({
    identifier: `txn_${chargeIdentifier}`,
    kind: 'charge',
    sourceIdentifier: chargeIdentifier,
    chargeIdentifier,
    amount: session.amount,
    fee: testProviderFee(session.amount),
    currency: session.currency,
  });
  return chargeIdentifier;
}

describe('reconciliation in the console: import, a difference, a missed sale recovered (Chromium)', () => {
  const site = useDemoSite((db) => runSeeds(db, { demo: false }));
  let context: BrowserContext;
  let page: Page;
  let productId = '';

  beforeAll(async () => {
    const { db, baseUrl } = site();
    productId = (await createProduct(db, { name: 'Reconciled Course', unitAmount: 7_000 })).id;
    const purchaseId = await buyThroughSite(baseUrl, productId, 'reconciled.buyer@example.com');
    // The provider changed the fee of this sale after the fact: a difference the books cannot recover.
    const { identifier } = await db('merchantCharges')
      .where({ id: (await db('purchases').where({ id: purchaseId }).first()).merchantChargeId })
      .first('identifier');
    await db('testProviderBalanceTransactions').where({ sourceIdentifier: identifier }).increment('fee', 9);
    context = await signedInContext(site().browser, baseUrl, db, ['finance']);
  });
  afterAll(() => context?.close());

  /** The page does not scroll sideways, and each essential is on screen, not cut off at the right. */
  async function expectOnScreen(width: number, name: string, ...essentials: Locator[]): Promise<void> {
    await waitForStillness(page);
    const scrollWidth = await page.evaluate<number>('document.documentElement.scrollWidth');
    expect(scrollWidth, `${name} scrolls sideways at ${width} px`).toBeLessThanOrEqual(width);
    for (const essential of essentials) {
      const box = (await essential.boundingBox())!;
      expect(box, `${name}: ${String(essential)} at ${width} px`).not.toBeNull();
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, `${name}: ${String(essential)} ends on screen`).toBeLessThanOrEqual(width);
    }
    await keepScreenshot(page, `${name}-${width}`);
  }

  it.each([
    [1440, 900],
    [390, 844],
  ] as const)(
    'at %i px: imports, shows the difference and the missed sale, recovers it and it matches',
    async (width, height) => {
      const { baseUrl, db } = site();
      // A fresh page at each width, as someone opening the console on that screen would have.
      await page?.close();
      page = await context.newPage();
      await page.setViewportSize({ width, height });
      const missed = await paidButMissed(baseUrl, db, productId, `missed.${width}@example.com`);
      await page.goto(`${baseUrl}/admin/#/reconciliation`);
      await page.getByRole('heading', { name: 'Reconciliation', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'Import from the processor' }).click();
      await page.getByText(/^Imported \d+ transactions/).waitFor();

      const difference = page.getByText('The processor’s fee differs from the books (the fee changed after the sale)');
      const missedRow = page.getByTestId('reconciliation-row').filter({ hasText: missed });
      await difference.waitFor();
      await missedRow.getByText('Paid at the processor, but its webhook was missed').waitFor();
      const recover = missedRow.getByRole('button', { name: 'Recover' });
      await expectOnScreen(width, 'console-reconciliation', difference, recover);
      // The tallies are a report of their own, read again beside the rows: they may land a moment after them.
      await expect
        .poll(() => page.getByTestId('tally-unmatchedAtProcessor').innerText())
        .toMatch(/^Only at the processor\s+1\s/);

      await recover.click();
      await page.getByText('Recovered: it now matches the books').waitFor();
      await missedRow.waitFor({ state: 'detached' });
      await page.getByTestId('tally-unmatchedAtProcessor').getByText('0', { exact: true }).waitFor();
      expect(await difference.isVisible()).toBe(true);
      const purchases = await db('purchases as p')
        .join('merchantCharges as c', 'c.id', 'p.merchantChargeId')
        .where('c.identifier', missed);
      expect(purchases).toHaveLength(1);
      await keepScreenshot(page, `console-reconciliation-recovered-${width}`);
    },
  );
});
