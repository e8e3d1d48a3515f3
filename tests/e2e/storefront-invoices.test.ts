import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { issueInvoice } from '../../api/src/invoices/issue';
import { taxOnTop } from '../../api/src/tax/amounts';
import { createProduct } from '../../seeds/factories';
import { runSeeds } from '../../seeds/run';
import { buyThroughSite, checkScreen, signedInContext, useDemoSite } from '../support/browser';

/**
 * The payer's invoices in the storefront: the Invoices page from the account menu, an invoice, and the correction of
 * its billing details, which issues a corrected invoice and keeps the original (docs/domain.md §18.5).
 */

const EMAIL = 'ines.invoices@example.com';
let productId = '';

describe('the payer’s invoices (Chromium)', () => {
  const site = useDemoSite(async (db) => {
    await runSeeds(db, { demo: true });
    productId = (await createProduct(db, { name: 'Invoiced Course', unitAmount: 4900 })).id;
  });
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    context = await signedInContext(site().browser, site().baseUrl, site().db, ['learner'], EMAIL);
    page = await context.newPage();
  });

  it('lists the invoice from the account menu, opens it, and corrects its billing details into a new invoice', async () => {
    const { baseUrl, db } = site();
    await buyThroughSite(baseUrl, productId, EMAIL);
    const original = await db('invoices as i')
      .join('users as u', 'u.id', 'i.payerUserId')
      .where('u.email', EMAIL)
      .first('i.id', 'i.number');

    await page.goto(`${baseUrl}/purchases`);
    await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Invoices' }).click();
    await page.waitForURL(/\/invoices$/);
    const row = page.getByRole('link', { name: `Invoice ${original.number}` });
    await row.waitFor();
    await checkScreen(page, 'invoices-list', { axe: true });

    await row.click();
    await page.waitForURL(new RegExp(`/invoices/${original.id}$`));
    await page.getByRole('heading', { name: `Invoice ${original.number}` }).waitFor();
    const article = page.locator('article.invoice');
    expect(await article.innerText()).toContain('Invoiced Course');
    expect(await page.getByRole('link', { name: 'Download PDF' }).getAttribute('href')).toBe(
      `/api/store/invoices/${original.id}.pdf`,
    );

    // The form opens from its button, by keyboard, and says what a correction does before it is sent.
    await page.getByRole('button', { name: 'Correct billing details' }).focus();
    await page.keyboard.press('Enter');
    const form = page.getByRole('form', { name: 'Correct billing details' });
    await form.waitFor();
    expect(await form.innerText()).toContain('does not refund VAT');
    await form.getByLabel('Company').fill('Ines Consulting LLC');
    await form.getByLabel('Address').fill('1 Main Street\nSpringfield');
    // A VAT ID that does not fit the billing country: the field says why, and nothing is issued.
    await form.getByLabel('VAT ID').fill('DE123456789');
    await form.getByRole('button', { name: 'Issue a corrected invoice' }).click();
    const vatId = form.getByLabel('VAT ID');
    await expect.poll(() => vatId.getAttribute('aria-invalid')).toBe('true');
    expect(await form.getByRole('alert').first().innerText()).toMatch(/VAT ID must be a VAT number/);
    await checkScreen(page, 'invoice-correct-error', { axe: true });
    expect(await db('invoices').where({ correctsId: original.id }).first()).toBeUndefined();

    await vatId.fill('');
    await form.getByRole('button', { name: 'Issue a corrected invoice' }).click();
    await page.getByRole('status').filter({ hasText: 'Corrected invoice' }).waitFor();
    const corrected = await db('invoices').where({ correctsId: original.id }).first('id', 'number');
    expect(corrected.number).not.toBe(original.number);
    await expect.poll(() => article.innerText()).toContain('Ines Consulting LLC');
    expect(await article.innerText()).toContain(`Invoice ${original.number}`); // "Corrects: Invoice …"
    await checkScreen(page, 'invoice-corrected', { axe: true });

    // The original stays as issued and says it was corrected, by which.
    await page.goto(`${baseUrl}/invoices/${original.id}`);
    await page.getByRole('link', { name: `invoice ${corrected.number}` }).waitFor();
    expect(await article.innerText()).not.toContain('Ines Consulting LLC');
    expect(await page.getByRole('button', { name: 'Correct billing details' }).count()).toBe(0);
  });

  it('prints a rate to the tenth of a basis point exactly, and an earlier sale’s date of supply', async () => {
    const { baseUrl, db } = site();
    await buyThroughSite(baseUrl, productId, EMAIL);
    const bought = await db('merchantCharges as ch')
      .join('users as u', 'u.id', 'ch.userId')
      .where('u.email', EMAIL)
      .orderBy('ch.createdAt', 'desc')
      .first('ch.*');
    // A Quebec sale of last year whose invoice is issued now (as the job issues earlier charges' invoices).
    const tax = taxOnTop(4900, 1497.5);
    const [quebec] = await db('merchantCharges')
      .insert({
        ...bought,
        id: undefined,
        identifier: `ch_quebec_${bought.id}`,
        createdAt: new Date('2025-03-14T12:00:00Z'),
        amount: 4900 + tax,
        refundAmount: 0,
        metadata: JSON.stringify({}),
        taxCountry: 'CA',
        taxRegion: 'QC',
        taxRateBp: 1497.5,
        taxName: 'GST/QST',
        taxInclusive: false,
        taxReverseCharge: false,
        taxAmount: tax,
      })
      .returning('id');
    const invoice = await db.transaction((trx) => issueInvoice(trx, quebec.id));

    await page.goto(`${baseUrl}/invoices/${invoice.id}`);
    await page.getByRole('heading', { name: `Invoice ${invoice.number}` }).waitFor();
    const text = await page.locator('article.invoice').innerText();
    expect(text).toContain('GST/QST 14.975 % (added)');
    expect(text).not.toContain('14.98 %');
    expect(text).toMatch(/Date of supply\s+Mar 14, 2025/);
    await checkScreen(page, 'invoice-quebec', { axe: true });
  });
});
