import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../api/src/db/connection';
import { formatMoney } from '../../api/src/shared/money';
import { taxInside } from '../../api/src/tax/amounts';
import { createProduct } from '../../seeds/factories';
import { runSeeds } from '../../seeds/run';
import { ARTIFACTS_DIR, checkScreen, seriousViolations, signedInContext, useDemoSite } from '../support/browser';

/**
 * Tax before paying and the invoice after it, as a buyer meets them: the buy box's tax line, the payment page's, the
 * invoice page, and its PDF rendered by Poppler and looked at (docs/domain.md §18).
 */

const run = promisify(execFile);
const SCHOOL_TAX_ID = 'DE811907980';
const FRENCH_VAT_ID = 'FR40303265045';

let productId = '';

/** A school established in Germany, registered for the EU One-Stop Shop, its euro prices including tax. */
async function germanSchool(db: Db): Promise<void> {
  await runSeeds(db, { demo: true });
  await db('schoolSettings').update({
    address: 'Beispielstraße 1\n10115 Berlin\nGermany',
    taxCountry: 'DE',
    taxId: SCHOOL_TAX_ID,
    taxEuOss: true,
    taxInclusiveCurrencies: ['eur', 'usd'],
  });
  await db('taxRates').whereIn('country', ['DE', 'FR']).whereNull('region').delete();
  await db('taxRates').insert([
    { country: 'DE', region: null, rateBp: 1900, name: 'VAT' },
    { country: 'FR', region: null, rateBp: 2000, name: 'VAT' },
  ]);
  const product = await createProduct(db, { name: 'Rust for Analysts', currency: 'eur', unitAmount: 4900 });
  productId = product.id;
}

interface QuoteTax {
  country: string;
  rate: number;
  amount: number;
  inclusive: boolean;
  reverseCharge: boolean;
  name: string;
}

/** The quote the storefront asks for, read beside the page: what the page must show and the checkout charge. */
async function quoteFor(baseUrl: string, query: Record<string, string>) {
  const url = new URL(`${baseUrl}/api/store/products/${productId}/quote`);
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return (await response.json()) as {
    currency: string;
    quote: { finalPrice: number; total: number; tax: QuoteTax | null };
  };
}

interface PdfWord {
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

const DPI = 100;

/** The PDF's first page as Poppler draws it (pdftoppm), where its words are (pdftotext -bbox), and its text. */
async function renderPdf(bytes: Buffer, name: string) {
  const dir = await mkdtemp(path.join(tmpdir(), 'invoice-pdf-'));
  try {
    const file = path.join(dir, 'invoice.pdf');
    await writeFile(file, bytes);
    await run('pdftoppm', [
      '-r',
      String(DPI),
      '-png',
      '-singlefile',
      '-f',
      '1',
      '-l',
      '1',
      file,
      path.join(dir, 'page'),
    ]);
    const png = await readFile(path.join(dir, 'page.png'));
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
    await writeFile(path.join(ARTIFACTS_DIR, `${name}.png`), png); // for a person to look at
    const { stdout: bbox } = await run('pdftotext', ['-bbox', '-f', '1', '-l', '1', file, '-']);
    const { stdout: text } = await run('pdftotext', ['-layout', file, '-']);
    const unescape = (s: string) =>
      s
        .replace(/&amp;/g, '&')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"');
    const words: PdfWord[] = [
      ...bbox.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g),
    ].map(([, xMin, yMin, xMax, yMax, word]) => ({
      text: unescape(word!),
      xMin: Number(xMin),
      yMin: Number(yMin),
      xMax: Number(xMax),
      yMax: Number(yMax),
    }));
    const pageSize = /<page width="([\d.]+)" height="([\d.]+)"/.exec(bbox)!;
    return { png, text, words, width: Number(pageSize[1]), height: Number(pageSize[2]) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The share of dark pixels (below half grey) in a band of the rendered page, given in PDF points from the top. */
async function darkShare(png: Buffer, band: { top: number; bottom: number }): Promise<number> {
  const scale = DPI / 72;
  const { width, height } = await sharp(png).metadata();
  const top = Math.max(0, Math.floor(band.top * scale));
  const bottom = Math.min(height!, Math.ceil(band.bottom * scale));
  const pixels = await sharp(png)
    .extract({ left: 0, top, width: width!, height: bottom - top })
    .greyscale()
    .raw()
    .toBuffer();
  return pixels.filter((value) => value < 128).length / pixels.length;
}

/** Opens the invoice's PDF link, checks what it answers, and reads the PDF back as a picture and as text. */
async function invoicePdf(page: Page, context: BrowserContext, number: string, name: string) {
  const link = page.getByRole('link', { name: /PDF/ });
  const href = (await link.getAttribute('href'))!;
  expect(href).toMatch(/^\/api\/store\/invoices\/[^/]+\.pdf$/);
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  expect(download.suggestedFilename()).toContain(number);
  const response = await context.request.get(new URL(href, page.url()).toString());
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('application/pdf');
  const bytes = await readFile((await download.path())!);
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  return renderPdf(bytes, name);
}

/** The PDF is not blank: the header (down to the invoice number) and the totals (the line saying Total) are drawn. */
async function expectDrawn(pdf: Awaited<ReturnType<typeof renderPdf>>, number: string): Promise<void> {
  const numberWord = pdf.words.find((w) => w.text === number);
  expect(numberWord, `the number ${number} is on the first page`).toBeDefined();
  const header = await darkShare(pdf.png, { top: 0, bottom: numberWord!.yMax + 4 });
  const totalWord = pdf.words.findLast((w) => /^Total/.test(w.text));
  expect(totalWord, 'a Total line').toBeDefined();
  const totals = await darkShare(pdf.png, { top: totalWord!.yMin - 4, bottom: totalWord!.yMax + 4 });
  expect(header, 'dark pixels in the header').toBeGreaterThan(0.005);
  expect(totals, 'dark pixels in the totals').toBeGreaterThan(0.01);
}

describe('tax before paying and the invoice after it (Chromium)', () => {
  const site = useDemoSite(germanSchool);

  describe('a German consumer', () => {
    let page: Page;
    let context: BrowserContext;
    beforeAll(async () => {
      context = await signedInContext(site().browser, site().baseUrl, site().db, ['learner'], 'lena@example.com');
      page = await context.newPage();
    });

    it('sees the VAT inside the price before paying, pays exactly that, and gets an invoice with it', async () => {
      const { baseUrl } = site();
      const { quote, currency } = await quoteFor(baseUrl, { billingCountry: 'DE' });
      const money = (amount: number) => formatMoney(amount, currency);
      expect(quote.tax).toMatchObject({ country: 'DE', rate: 1900, inclusive: true, reverseCharge: false });
      expect(quote.tax!.amount).toBe(taxInside(quote.finalPrice, 1900));
      expect(quote.total).toBe(quote.finalPrice);

      await page.goto(`${baseUrl}/products/rust-for-analysts`);
      await page.getByLabel('Country').selectOption('DE');
      const price = page.getByRole('region', { name: 'Price' });
      await expect.poll(() => price.innerText()).toContain(`Includes ${money(quote.tax!.amount)} VAT (19 %)`);
      await checkScreen(page, 'tax-buy-box-de', { axe: true });

      const buy = page.getByRole('button', { name: /Buy now/ });
      expect(await buy.innerText()).toContain(money(quote.total)); // the button says what is charged
      await buy.click();
      await page.waitForURL(/\/test-provider\/checkout\//);
      const hosted = await page.locator('main').innerText();
      expect(hosted).toContain(money(quote.total));
      expect(hosted).toContain(money(quote.tax!.amount));
      expect(hosted).toMatch(/VAT \(19 %\)/);
      await page.getByRole('button', { name: 'Pay' }).click();
      await page.waitForURL(/\/thanks\?checkout=/);
      await page.getByText('Your purchase is confirmed.').waitFor({ timeout: 20_000 });

      await page.getByRole('link', { name: 'View or print your invoice' }).click();
      await page.waitForURL(/\/invoices\//);
      const invoice = await site()
        .db('invoices as i')
        .join('users as u', 'u.id', 'i.payerUserId')
        .where('u.email', 'lena@example.com')
        .first('i.number', 'i.total', 'i.taxAmount');
      expect(invoice).toMatchObject({ total: quote.total, taxAmount: quote.tax!.amount });
      expect(invoice.number).toMatch(/^\d{4}-\d{6}$/);
      const article = page.locator('article.invoice');
      await expect.poll(() => article.innerText()).toContain(invoice.number);
      const shown = await article.innerText();
      expect(shown).toContain(SCHOOL_TAX_ID);
      expect(shown).toContain(money(quote.tax!.amount));
      expect(shown).toMatch(/VAT \(?19 %/);
      // The school's address ends with its country: the seller's block names it once.
      const seller = shown.slice(shown.indexOf('From'), shown.indexOf('Billed to'));
      expect(seller.match(/Germany/g)).toHaveLength(1);
      await checkScreen(page, 'tax-invoice-de', { axe: true });

      const pdf = await invoicePdf(page, context, invoice.number, 'tax-invoice-de-pdf');
      await expectDrawn(pdf, invoice.number);
      expect(pdf.text).toContain(invoice.number);
      expect(pdf.text).toContain(SCHOOL_TAX_ID);
      expect(pdf.text).toContain(money(quote.tax!.amount));
      expect(pdf.text).toContain(money(quote.total));
      expect(pdf.text).toMatch(/VAT \(?19 %/);
      const sellerColumn = pdf.words.filter((w) => w.xMax < pdf.width / 2);
      expect(sellerColumn.filter((w) => w.text === 'Germany')).toHaveLength(1);
    });
  });

  describe('a French business with a VAT ID', () => {
    let page: Page;
    let context: BrowserContext;
    beforeAll(async () => {
      context = await signedInContext(site().browser, site().baseUrl, site().db, ['learner'], 'claire@example.com');
      page = await context.newPage();
    });

    it('sees the reverse charge before paying, pays the price without VAT, and the invoice says so', async () => {
      const { baseUrl } = site();
      const { quote, currency } = await quoteFor(baseUrl, { billingCountry: 'FR', vatId: FRENCH_VAT_ID });
      const money = (amount: number) => formatMoney(amount, currency);
      expect(quote.tax).toMatchObject({ country: 'FR', rate: 0, amount: 0, reverseCharge: true });
      expect(quote.total).toBe(quote.finalPrice);

      await page.goto(`${baseUrl}/products/rust-for-analysts`);
      await page.getByLabel('Country').selectOption('FR');
      await page.getByText('Buying for a business').click();
      await page.getByLabel('Company').fill('Atelier Durand SARL');
      await page.getByLabel('Address').fill('12 rue des Lilas, 69003 Lyon');
      await page.getByLabel('VAT ID').fill(FRENCH_VAT_ID);
      const price = page.getByRole('region', { name: 'Price' });
      await expect.poll(() => price.innerText()).toContain('Reverse charge');
      expect(await price.innerText()).toContain(money(quote.total));
      expect(await seriousViolations(page, '.pricing-widget')).toEqual([]);
      await checkScreen(page, 'tax-buy-box-fr-business');

      const buy = page.getByRole('button', { name: /Buy now/ });
      expect(await buy.innerText()).toContain(money(quote.total)); // the button says what is charged
      await buy.click();
      await page.waitForURL(/\/test-provider\/checkout\//);
      expect(await page.locator('main').innerText()).toContain(money(quote.total));
      await page.getByRole('button', { name: 'Pay' }).click();
      await page.waitForURL(/\/thanks\?checkout=/);
      await page.getByText('Your purchase is confirmed.').waitFor({ timeout: 20_000 });
      await page.getByRole('link', { name: 'View or print your invoice' }).click();
      await page.waitForURL(/\/invoices\//);

      const article = page.locator('article.invoice');
      await expect.poll(() => article.innerText()).toContain('Reverse charge');
      const shown = await article.innerText();
      expect(shown).toContain(FRENCH_VAT_ID);
      expect(shown).toContain('Atelier Durand SARL');
      await checkScreen(page, 'tax-invoice-fr-business', { axe: true });

      const number = (/\d{4}-\d{6}/.exec(shown) ?? [''])[0];
      const pdf = await invoicePdf(page, context, number, 'tax-invoice-fr-business-pdf');
      await expectDrawn(pdf, number);
      expect(pdf.text).toContain(FRENCH_VAT_ID);
      expect(pdf.text.replace(/\s+/g, ' ')).toContain('Reverse charge');

      // The payer's list of invoices holds it, and its link leads back to the same document.
      await page.getByRole('link', { name: '← Invoices' }).click();
      await page.waitForURL(/\/invoices$/);
      const listed = page.getByRole('link', { name: `Invoice ${number}` });
      await listed.click();
      await page.waitForURL(/\/invoices\/[^/]+$/);
      await expect.poll(() => article.innerText()).toContain(FRENCH_VAT_ID);
    });
  });
});
