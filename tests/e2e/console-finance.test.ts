import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../api/src/identity/models';
import { testProviderFee } from '../../api/src/payments/test-provider';
import { createProduct, createRevenueSplit, createUser } from '../../seeds/factories';
import { runSeeds } from '../../seeds/run';
import {
  ARTIFACTS_DIR,
  CONSOLE_WIDTHS,
  buyThroughSite,
  checkScreen,
  keepScreenshot,
  signedInContext,
  useDemoSite,
  waitForStillness,
  chooseOption,
} from '../support/browser';

/** "$1,234.56", "−$10.00" (a minus sign, not a hyphen): how the console writes cents. */
const money = (cents: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100).replace(/^-/, '\u2212');

/** "¥4,980", "−¥1,000": yen are whole, with no decimals. */
const inYen = (yen: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'JPY' }).format(yen).replace(/^-/, '\u2212');

interface Sale {
  purchaseId: string;
  buyer: string;
  product: string;
  charge: { id: string; identifier: string; amount: number; taxAmount: number; fee: number; net: number };
}

type CsvRow = Record<string, string>;

describe('the Finance page in the console (Chromium)', () => {
  const site = useDemoSite((db) => runSeeds(db, { demo: false }));
  const contexts: BrowserContext[] = [];
  const sales: Sale[] = [];
  let owner: User;
  let contributor: User;
  let page: Page;

  beforeAll(async () => {
    const { db, baseUrl } = site();
    owner = await createUser(db, { name: 'Olive Owner', email: 'olive.owner@example.com', roles: ['contributor'] });
    contributor = await createUser(db, {
      name: 'Carl Contributor',
      email: 'carl.contributor@example.com',
      roles: ['contributor'],
    });
    const course = await createProduct(db, { name: 'Ledger Course', unitAmount: 10_000 });
    const workshop = await createProduct(db, { name: 'Ledger Workshop', unitAmount: 4_900 });
    await createRevenueSplit(db, { productId: course.id, type: 'platform', percent: 0.2 });
    await createRevenueSplit(db, { productId: course.id, type: 'owner', percent: 0.5, userId: owner.id });
    await createRevenueSplit(db, { productId: course.id, type: 'contributor', percent: 0.3, userId: contributor.id });
    await createRevenueSplit(db, { productId: workshop.id, type: 'platform', percent: 0.3 });
    await createRevenueSplit(db, { productId: workshop.id, type: 'owner', percent: 0.7, userId: owner.id });

    for (const [product, buyer] of [
      [course, 'first.buyer@example.com'],
      [workshop, 'second.buyer@example.com'],
      [course, 'third.buyer@example.com'],
    ] as const) {
      const purchaseId = await buyThroughSite(baseUrl, product.id, buyer);
      const purchase = await db('purchases').where({ id: purchaseId }).first();
      const charge = await db('merchantCharges').where({ id: purchase.merchantChargeId }).first();
      sales.push({ purchaseId, buyer, product: product.name, charge });
    }

    // A partial refund by support, so the charts have a negative side.
    const support = await signedInContext(site().browser, baseUrl, db, ['support']);
    contexts.push(support);
    const csrf = (await support.cookies(baseUrl)).find((c) => c.name === 'lp_csrf')!.value;
    const refund = await support.request.post(`${baseUrl}/api/admin/purchases/${sales[0]!.purchaseId}/refund`, {
      headers: { 'X-CSRF-Token': csrf },
      data: { amount: 1_000, reasonCode: 'customer-request', reason: 'Partial refund for the finance test' },
    });
    expect(refund.status()).toBe(200);

    const finance = await signedInContext(site().browser, baseUrl, db, ['finance']);
    contexts.push(finance);
    page = await finance.newPage();
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
  });

  /** What the ledger holds, summed as the page should show it. */
  async function ledger(column: 'product_id' | 'user_id' | null, value?: string | null) {
    const query = site().db('splitLines');
    if (column === 'user_id' && value === null) query.whereNull('userId');
    else if (column) query.where(column === 'product_id' ? 'productId' : 'userId', value!);
    const rows = (await query.select('kind', 'amount')) as { kind: string; amount: number }[];
    const sum = (kinds: string[]) => rows.filter((r) => kinds.includes(r.kind)).reduce((s, r) => s + r.amount, 0);
    return { sales: sum(['sale']), refunds: sum(['refund']), total: sum(['sale', 'refund', 'dispute', 'dispute-won']) };
  }

  const figure = (name: string) => page.getByRole('figure', { name });

  /** Every amount of money on the page, as written: each text (a cell, a caption, a chart's tick) read on its own. */
  const amountsShown = () =>
    page.evaluate(() => {
      const texts: string[] = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      while (walker.nextNode()) texts.push(walker.currentNode.textContent ?? '');
      return texts.flatMap((text) => text.match(/-?[$¥][\d,.]*\d/g) ?? []);
    });

  it('shows the three charts of the ledger with their tables', async () => {
    await page.goto(`${site().baseUrl}/admin/`);
    await page.getByRole('menuitem', { name: 'Finance' }).click();
    await page.waitForURL(/#\/finance$/);
    await page.getByRole('heading', { name: 'Finance', level: 1 }).waitFor();
    expect(await page.getByRole('button', { name: 'This month' }).getAttribute('aria-pressed')).toBe('true');

    for (const name of ['Revenue per day', 'Revenue per product', 'Revenue per recipient']) {
      await figure(name).locator('.MuiChartsSurface-root').first().waitFor(); // the lazily loaded chart has drawn its surface
    }
    const all = await ledger(null);
    expect(all.sales).toBe(sales.reduce((s, sale) => s + sale.charge.net, 0)); // sales lines are the nets
    expect(all.refunds).toBe(-1_000);
    await page.getByRole('region', { name: 'Totals' }).getByText(money(all.sales)).waitFor();
    await page.getByRole('region', { name: 'Totals' }).getByText(money(all.total)).waitFor();
    await waitForStillness(page);
    await keepScreenshot(page, 'console-finance');

    // The accessible tables.
    for (const summary of await page.getByText('Show the figures as a table').all()) await summary.click();

    const perDay = page.getByRole('table', { name: 'Revenue per day' });
    const totalRow = perDay.getByRole('row', { name: /^Total/ });
    expect(await totalRow.getByRole('cell').allInnerTexts()).toEqual([
      money(all.sales),
      money(all.refunds),
      money(0),
      money(all.total),
    ]);

    const perProduct = page.getByRole('table', { name: 'Revenue per product' });
    for (const sale of [sales[0]!, sales[1]!]) {
      const product = await site().db('products').where({ name: sale.product }).first();
      const sums = await ledger('product_id', product.id);
      const row = perProduct.getByRole('row', { name: new RegExp(`^${sale.product}`) });
      expect(await row.getByRole('cell').allInnerTexts()).toEqual([
        money(sums.sales),
        money(sums.refunds),
        money(0),
        money(sums.total),
      ]);
    }

    const perRecipient = page.getByRole('table', { name: 'Revenue per recipient' });
    for (const [label, type, userId] of [
      ['Platform', 'Platform', null],
      ['Olive Owner', 'Owner', owner.id],
      ['Carl Contributor', 'Contributor', contributor.id],
    ] as const) {
      const sums = await ledger('user_id', userId);
      const row = perRecipient.getByRole('row', { name: new RegExp(`^${label}`) });
      const cells = await row.getByRole('cell').allInnerTexts();
      expect(cells.slice(0, 5)).toEqual([type, money(sums.sales), money(sums.refunds), money(0), money(sums.total)]);
      expect(cells[5]).toMatch(/%$/);
    }
    await keepScreenshot(page, 'console-finance-tables');
  });

  it('exports the charges CSV, reports its row count, and shows the API’s date errors', async () => {
    const button = page.getByRole('button', { name: 'Charges', exact: true });
    const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
    expect(download.suggestedFilename()).toMatch(/^charges-.*\.csv$/);
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
    const file = path.join(ARTIFACTS_DIR, 'console-finance-charges.csv');
    await download.saveAs(file);
    await page.getByText(`Charges exported: ${download.suggestedFilename()}, 3 rows.`).waitFor();
    await keepScreenshot(page, 'console-finance-exported');

    const text = readFileSync(file, 'utf8');
    expect(text.charCodeAt(0)).toBe(0xfeff); // the byte-order mark spreadsheets need
    const rows = parse(text, { bom: true, columns: true, record_delimiter: '\r\n' }) as CsvRow[];
    expect(rows).toHaveLength(sales.length);
    for (const [index, sale] of sales.entries()) {
      const { amount, identifier, taxAmount } = sale.charge;
      const fee = testProviderFee(amount);
      expect(sale.charge).toMatchObject({ fee, net: amount - fee });
      expect(rows.find((r) => r['Charge'] === identifier)).toMatchObject({
        Purchase: sale.purchaseId,
        Product: sale.product,
        'Buyer email': sale.buyer,
        'Gross (cents)': String(amount),
        'Tax (cents)': String(taxAmount),
        'Fee (cents)': String(fee),
        // Revenue: what the split ledger shares out, net of tax and fee.
        'Net (cents)': String(amount - taxAmount - fee),
        'Refunded (cents)': index === 0 ? '1000' : '0',
        Currency: 'usd',
      });
    }

    // From after To: the API's message shows next to the From input, for the charts and for the exports.
    const from = page.getByLabel('From', { exact: true });
    const to = await page.getByLabel('To', { exact: true }).inputValue();
    const later = new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    await from.fill(later);
    await page.getByText('Must not be after "to"').waitFor();
    await page.getByText('No figures for these dates: see the date inputs above.').waitFor();
    expect(await from.getAttribute('aria-invalid')).toBe('true');
    await button.click();
    await page.getByText('The API refused these dates: see the date inputs above.').waitFor();
    await page.getByText('Must not be after "to"').waitFor();
    await keepScreenshot(page, 'console-finance-date-error');

    // A preset puts it right; over a year the bars are per week or month (unless the year is young).
    await page.getByRole('button', { name: 'This year' }).click();
    await page
      .getByRole('figure', { name: /^Revenue per (day|week|month)$/ })
      .locator('.MuiChartsSurface-root')
      .first()
      .waitFor();
    expect(await page.getByText('Must not be after "to"').count()).toBe(0);
    expect(await page.getByText('The API refused these dates').count()).toBe(0);
    await waitForStillness(page);
    await keepScreenshot(page, 'console-finance-year');
  });

  it('shows an export’s progress, cancels it, and exports split lines and the per-recipient summary', async () => {
    // Hold the response back: the progress report shows (no total yet), and Cancel aborts it.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const pattern = '**/api/admin/exports/split-lines.csv*';
    await page.route(pattern, async (route) => {
      await held;
      await route.continue().catch(() => undefined); // the page gave up on it
    });
    const splitLines = page.getByRole('button', { name: 'Split lines', exact: true });
    await splitLines.click();
    await page.getByText('Exporting split lines… 0 rows').waitFor();
    await page.getByRole('progressbar', { name: 'Exporting split lines' }).waitFor();
    expect(await splitLines.isDisabled()).toBe(true); // one export at a time
    await keepScreenshot(page, 'console-finance-exporting');
    let downloads = 0;
    page.on('download', () => downloads++);
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.getByText('Split lines export canceled: nothing was saved.').waitFor();
    release();
    await page.unroute(pattern);
    expect(downloads).toBe(0);

    // Then for real: every ledger line of the period.
    const lines = Number((await site().db('splitLines').count({ n: '*' }))[0]!.n);
    expect(lines).toBeGreaterThan(sales.length);
    const [download] = await Promise.all([page.waitForEvent('download'), splitLines.click()]);
    await page.getByText(`Split lines exported: ${download.suggestedFilename()}, ${lines} rows.`).waitFor();
    const file = path.join(ARTIFACTS_DIR, 'console-finance-split-lines.csv');
    await download.saveAs(file);
    const rows = parse(readFileSync(file, 'utf8'), { bom: true, columns: true, record_delimiter: '\r\n' }) as CsvRow[];
    expect(rows).toHaveLength(lines);
    expect(rows.filter((r) => r['Kind'] === 'refund').reduce((sum, r) => sum + Number(r['Amount (cents)']), 0)).toBe(
      -1_000,
    );

    // The per-recipient summary, by week.
    await chooseOption(page, 'Grouped', 'Per week');
    const [summary] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Per-recipient summary' }).click(),
    ]);
    expect(summary.suggestedFilename()).toMatch(/^recipients-.*-by-week\.csv$/);
    const summaryFile = path.join(ARTIFACTS_DIR, 'console-finance-recipients.csv');
    await summary.saveAs(summaryFile);
    const perRecipient = parse(readFileSync(summaryFile, 'utf8'), {
      bom: true,
      columns: true,
      record_delimiter: '\r\n',
    }) as CsvRow[];
    expect(perRecipient.map((r) => r['Recipient email']).sort()).toEqual([
      '',
      'carl.contributor@example.com',
      'olive.owner@example.com',
    ]);
    await page.getByText(`Per-recipient summary exported: ${summary.suggestedFilename()}, 3 rows.`).waitFor();
  });

  it('shows a product’s revenue splits with a sale worked through by the ledger, and lets finance delete and add one', async () => {
    const { db, baseUrl } = site();
    const workshop = (await db('products').where({ name: 'Ledger Workshop' }).first())!;
    const splitsOf = async () =>
      (await db('productRevenueSplits').where({ productId: workshop.id }).orderBy('type')).map(
        (s) => `${s.type} ${Number(s.percent)}`,
      );
    await page.goto(`${baseUrl}/admin/#/products/${workshop.id}/show/splits`);
    await page.getByText('Shares: 100% in total, of 100% at most.').waitFor();
    // The platform's 30 % comes off the gross ($30.00); the owner bears the $3.20 fee.
    await page
      .getByText(
        /\$100\.00 sale with a \$3\.20 fee \(net \$96\.80\) is shared: The platform \$30\.00 · .+ \(owner\) \$66\.80/,
      )
      .waitFor();

    const platformRow = page.getByRole('row').filter({ hasText: 'The platform' });
    await platformRow.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByText('Delete this revenue split?').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    // With the platform's split gone the owner takes the whole net: nothing is left unassigned.
    await page.getByText('Shares: 70% in total, of 100% at most.').waitFor();
    await page.getByText(/is shared: .+ \(owner\) \$96\.80$/).waitFor();
    expect(await splitsOf()).toEqual(['owner 0.7']);

    // More than what is left: the API's refusal shows on the share.
    await page.getByRole('link', { name: 'Add revenue split' }).click();
    await chooseOption(page, 'Type', 'Platform');
    await page.getByLabel('Share (%)').fill('40');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(/would total 110\.00 %/).waitFor();
    await page.getByLabel('Share (%)').fill('30');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(new RegExp(`#/products/${workshop.id}/show/splits$`));
    await page.getByText('Shares: 100% in total, of 100% at most.').waitFor();
    await keepScreenshot(page, 'console-product-splits');
    expect(await splitsOf()).toEqual(['owner 0.7', 'platform 0.3']);
  });

  it('shows the page and the refunds report in one currency at a time: yen in whole yen, as the API sums them', async () => {
    const { db, baseUrl, browser } = site();
    // One sale in yen, partly refunded, beside the three in dollars (still the default: sold most).
    const yenCourse = await createProduct(db, { name: 'Yen Course', unitAmount: 4_980, currency: 'jpy' });
    await createRevenueSplit(db, { productId: yenCourse.id, type: 'platform', percent: 0.2 });
    await createRevenueSplit(db, { productId: yenCourse.id, type: 'owner', percent: 0.8, userId: owner.id });
    const purchaseId = await buyThroughSite(baseUrl, yenCourse.id, 'yen.buyer@example.com');
    const support = await signedInContext(browser, baseUrl, db, ['support']);
    contexts.push(support);
    const csrf = (await support.cookies(baseUrl)).find((c) => c.name === 'lp_csrf')!.value;
    const refund = await support.request.post(`${baseUrl}/api/admin/purchases/${purchaseId}/refund`, {
      headers: { 'X-CSRF-Token': csrf },
      data: { amount: 1_000, reasonCode: 'customer-request', reason: 'Partial refund in yen' },
    });
    expect(refund.status()).toBe(200);

    // What the API sums for this month in yen: the page must show exactly that.
    const today = new Date().toISOString().slice(0, 10);
    const query = new URLSearchParams({ from: `${today.slice(0, 8)}01`, to: today, currency: 'jpy' });
    const answer = async (url: string) => (await page.request.get(`${baseUrl}${url}?${query}`)).json();
    const summary = await answer('/api/admin/finance/summary');
    expect(summary).toMatchObject({ currency: 'jpy', currencies: ['jpy', 'usd'], totals: { refunds: -1_000 } });
    const amounts = (row: { sales: number; refunds: number; disputes: number; total: number }) =>
      [row.sales, row.refunds, row.disputes, row.total].map(inYen);

    await page.goto(`${baseUrl}/admin/#/finance`);
    await page.getByRole('heading', { name: 'Finance', level: 1 }).waitFor();
    const totals = page.getByRole('region', { name: 'Totals' });
    const totalValues = () => totals.locator('.MuiCard-root p').allTextContents();
    await totals
      .getByText(/^\$[\d,]+\.\d\d$/)
      .first()
      .waitFor();
    expect(await page.getByRole('combobox', { name: 'Currency' }).textContent()).toBe('USD');

    await chooseOption(page, 'Currency', 'JPY', { exact: true });
    await expect.poll(totalValues).toEqual([...amounts(summary.totals), String(summary.comps)]);
    const overTime = figure('Revenue per day');
    // The chart's axis in yen too (drawn in its own chunk).
    await overTime.locator('svg text', { hasText: '¥' }).first().waitFor();
    for (const name of ['Revenue per day', 'Revenue per product']) {
      expect(await figure(name).locator('svg text').allTextContents(), name).not.toContainEqual(
        expect.stringMatching(/\$/),
      );
    }
    for (const summaryToggle of await page.getByText('Show the figures as a table').all()) await summaryToggle.click();
    const perDay = page.getByRole('table', { name: 'Revenue per day' });
    expect(
      await perDay
        .getByRole('row', { name: /^Total/ })
        .getByRole('cell')
        .allInnerTexts(),
    ).toEqual(amounts(summary.totals));
    expect(summary.products).toHaveLength(1);
    const perProduct = page.getByRole('table', { name: 'Revenue per product' });
    expect(
      await perProduct
        .getByRole('row', { name: /^Yen Course/ })
        .getByRole('cell')
        .allInnerTexts(),
    ).toEqual(amounts(summary.products[0]));
    const perRecipient = page.getByRole('table', { name: 'Revenue per recipient' });
    for (const [label, type] of [
      ['Platform', 'platform'],
      ['Olive Owner', 'owner'],
    ] as const) {
      const sums = summary.recipients.find((r: { type: string }) => r.type === type);
      const cells = await perRecipient
        .getByRole('row', { name: new RegExp(`^${label}`) })
        .getByRole('cell')
        .allInnerTexts();
      expect(cells.slice(1, 5), label).toEqual(amounts(sums));
    }
    // Nothing in dollars, no yen with decimals.
    const onPage = await amountsShown();
    expect(onPage).toContain(inYen(summary.totals.total));
    expect(onPage).not.toContainEqual(expect.stringMatching(/\$|¥[\d,]*\.\d/));
    for (const [width, height] of CONSOLE_WIDTHS) {
      await page.setViewportSize({ width, height });
      expect(await page.getByRole('combobox', { name: 'Currency' }).isVisible(), `menu at ${width} px`).toBe(true);
      expect(await totals.getByText(inYen(summary.totals.total), { exact: true }).isVisible()).toBe(true);
    }
    await checkScreen(page, 'console-finance-yen', { widths: CONSOLE_WIDTHS });

    // The refunds report, in yen once chosen: the yen refund, its chart's axis in yen.
    const report = await answer('/api/admin/reports/refunds');
    expect(report.total).toEqual({ count: 1, amountCents: 1_000 });
    await page.getByRole('menuitem', { name: 'Refunds report' }).click();
    await page.getByRole('heading', { name: 'Refunds', level: 1 }).waitFor();
    await totals.getByText(money(1_000), { exact: true }).waitFor(); // the dollar refund, by default
    await chooseOption(page, 'Currency', 'JPY', { exact: true });
    await expect.poll(totalValues).toEqual([inYen(report.total.amountCents), '1']);
    for (const name of ['By reason', 'By product']) {
      await figure(name).locator('svg text', { hasText: '¥' }).first().waitFor();
      expect(await figure(name).locator('svg text').allTextContents(), name).not.toContainEqual(
        expect.stringMatching(/\$/),
      );
      await figure(name).locator('..').getByText('Show the figures as a table').click();
      const rows = page.getByRole('table', { name }).getByRole('row');
      expect(await rows.last().getByRole('cell').allInnerTexts(), name).toEqual(['1', inYen(1_000)]);
    }
    const onReport = await amountsShown();
    expect(onReport).toContain(inYen(1_000));
    expect(onReport).not.toContainEqual(expect.stringMatching(/\$|¥[\d,]*\.\d/));
    for (const [width, height] of CONSOLE_WIDTHS) {
      await page.setViewportSize({ width, height });
      expect(await page.getByRole('combobox', { name: 'Currency' }).isVisible(), `menu at ${width} px`).toBe(true);
      expect(await totals.getByText(inYen(1_000), { exact: true }).isVisible()).toBe(true);
    }
    await checkScreen(page, 'console-refunds-report-yen', { widths: CONSOLE_WIDTHS });
  });

  it('works a yen product’s split example through in yen: whole yen, no dollar', async () => {
    const { db, baseUrl } = site();
    const yenWorkshop = await createProduct(db, { name: 'Yen Workshop', unitAmount: 9_800, currency: 'jpy' });
    await createRevenueSplit(db, { productId: yenWorkshop.id, type: 'platform', percent: 0.2 });
    await createRevenueSplit(db, { productId: yenWorkshop.id, type: 'owner', percent: 0.8, userId: owner.id });
    await page.goto(`${baseUrl}/admin/#/products/${yenWorkshop.id}/show/splits`);
    // The platform's 20 % comes off the gross (¥2,000); the owner bears the ¥320 fee.
    await page
      .getByText(/^A ¥10,000 sale with a ¥320 fee \(net ¥9,680\) is shared: The platform ¥2,000 · .+ \(owner\) ¥7,680$/)
      .waitFor();
    expect(await amountsShown()).not.toContainEqual(expect.stringMatching(/\$|¥[\d,]*\.\d/));
  });

  it('shows the tax collected per month and country, and downloads the tax report for filing', async () => {
    const { db, baseUrl } = site();
    // Documents as a German school registered for the EU's One-Stop Shop issues them: a German sale, a French one
    // partly refunded (its credit note gives back tax in proportion). Written to the tables, on charges of their own.
    const { merchantAccountId, merchantProductId } = sales[0]!.charge as unknown as Record<string, string>;
    const vat = (country: string, rateBp: number) => ({
      ...{ taxCountry: country, taxRateBp: rateBp, taxName: 'VAT', taxInclusive: true },
    });
    const document = async (n: number, kind: string, amounts: Record<string, number>, extra: object = {}) => {
      const year = new Date().getUTCFullYear();
      return {
        kind,
        number: `${kind === 'invoice' ? '' : 'CN-'}${year}-95000${n}`,
        year,
        sequence: 950000 + n,
        suppliedAt: new Date(),
        payerUserId: owner.id,
        seller: JSON.stringify({ name: 'School', country: 'DE' }),
        buyer: JSON.stringify({ name: 'Buyer', email: 'tax.buyer@example.com' }),
        lines: JSON.stringify([]),
        currency: 'eur',
        ...amounts,
        ...extra,
      };
    };
    const [de, fr] = await db('merchantCharges')
      .insert(
        [
          { identifier: 'ch_tax_de', amount: 11_900, ...vat('DE', 1900), taxAmount: 1_900 },
          { identifier: 'ch_tax_fr', amount: 11_900, ...vat('FR', 2000), taxAmount: 1_983 },
        ].map((c) => ({
          ...{ ...c, merchantAccountId, merchantProductId, userId: owner.id },
          ...{ fee: 0, net: c.amount, currency: 'eur' },
        })),
      )
      .returning('id');
    const [frInvoice] = await db('invoices')
      .insert([
        await document(
          1,
          'invoice',
          { subtotal: 11_900, taxable: 9_917, taxAmount: 1_983, total: 11_900 },
          {
            merchantChargeId: fr.id,
            taxScheme: 'eu-oss',
            ...vat('FR', 2000),
          },
        ),
        await document(
          2,
          'invoice',
          { subtotal: 11_900, taxable: 10_000, taxAmount: 1_900, total: 11_900 },
          {
            merchantChargeId: de.id,
            taxScheme: 'domestic',
            ...vat('DE', 1900),
          },
        ),
      ])
      .returning('id');
    await db('invoices').insert(
      await document(
        3,
        'credit-note',
        { subtotal: 5_950, taxable: 4_958, taxAmount: 992, total: 5_950 },
        {
          merchantChargeId: fr.id,
          invoiceId: frInvoice.id,
          refundedTo: 5_950,
          taxScheme: 'eu-oss',
          ...vat('FR', 2000),
        },
      ),
    );

    await page.goto(`${baseUrl}/admin/#/finance`);
    await page.getByRole('button', { name: 'This month' }).click();
    const card = figure('Tax collected per month and country');
    await card.locator('.MuiChartsSurface-root').first().waitFor();
    await card
      .getByText('in EUR: €38.83 tax on invoices, €9.92 given back by credit notes, €28.91 net', { exact: false })
      .waitFor();
    // Its table, folded under the chart.
    await page.locator('.MuiCard-root', { has: card }).locator('summary').click();
    const table = page.getByRole('table', { name: 'Tax collected per month and country' });
    expect(
      await table
        .getByRole('row', { name: /^Germany/ })
        .getByRole('cell')
        .allInnerTexts(),
    ).toEqual(['€19.00', '€0.00', '€19.00']);
    expect(
      await table
        .getByRole('row', { name: /^France/ })
        .getByRole('cell')
        .allInnerTexts(),
    ).toEqual(['€19.83', '€9.92', '€9.91']);
    await waitForStillness(page);
    await keepScreenshot(page, 'console-finance-tax');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Tax report (CSV)' }).click(),
    ]);
    const monthStart = `${new Date().toISOString().slice(0, 7)}-01`;
    expect(download.suggestedFilename()).toMatch(
      new RegExp(`^tax-report-${monthStart}-to-\\d{4}-\\d{2}-\\d{2}\\.csv$`),
    );
    const file = path.join(ARTIFACTS_DIR, 'console-finance-tax-report.csv');
    await download.saveAs(file);
    const rows = parse(readFileSync(file, 'utf8'), { bom: true, columns: true, record_delimiter: '\r\n' }) as CsvRow[];
    const taxed = rows.filter((r) => r.Currency === 'eur');
    expect(taxed).toEqual([
      expect.objectContaining({ Scheme: 'domestic', Country: 'DE', 'Rate (%)': '19.00', 'Net tax due': '19.00' }),
      expect.objectContaining({
        Scheme: 'eu-oss',
        Country: 'FR',
        'Rate (%)': '20.00',
        Tax: '19.83',
        'Refunded tax': '9.92',
        'Net tax due': '9.91',
      }),
    ]);
    // The dollar sales of a school not registered anywhere are there too, untaxed.
    expect(rows.filter((r) => r.Currency === 'usd').every((r) => r.Scheme === 'not-taxed')).toBe(true);
  });
});
