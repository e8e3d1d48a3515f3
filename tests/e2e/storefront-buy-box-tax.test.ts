import { describe, expect, it } from 'vitest';
import type { Db } from '../../api/src/db/connection';
import { formatMoney } from '../../api/src/shared/money';
import { taxOnTop } from '../../api/src/tax/amounts';
import { runSeeds } from '../../seeds/run';
import { checkScreen, signedInContext, useDemoSite } from '../support/browser';

/**
 * The buy box's billing details and tax line as a buyer uses them (docs/domain.md §18): a US buyer asked for their
 * state, a ZIP code not written as one refused on its field, sales tax added on top and the button saying the total, the payment page charging it, Cancel bringing the
 * details back; and a signed-in business buyer's remembered details filled in.
 */

const WA_BP = 650;

/** The demo school, registered in Washington State and the UK, its dollar prices without tax (added on top). */
async function school(db: Db): Promise<void> {
  await runSeeds(db, { demo: true });
  await db('schoolSettings').update({ taxInclusiveCurrencies: ['eur'] });
  await db('taxRegistrations').whereIn('country', ['US', 'GB']).delete();
  await db('taxRegistrations').insert([
    { country: 'US', region: 'WA' },
    { country: 'GB', region: null },
  ]);
  await db('taxRates').where({ country: 'US', region: 'WA' }).delete();
  await db('taxRates').insert({ country: 'US', region: 'WA', rateBp: WA_BP, name: 'Sales tax' });
}

describe('the buy box with tax (Chromium)', () => {
  const site = useDemoSite(school, { usStateTax: true });

  it('asks a US buyer for their state, adds the sales tax, charges the total, and keeps the details on Cancel', async () => {
    const { browser, baseUrl, db } = site();
    const context = await browser.newContext();
    const page = await context.newPage();
    const product = await db('products').where({ key: 'typescript-fundamentals' }).first('id', 'slug');
    // What the API prices for Washington State, which the page must show and the payment page charge.
    const quoted = (await (await fetch(`${baseUrl}/api/store/products/${product.id}/quote?region=WA`)).json()) as {
      quote: { finalPrice: number; total: number; tax: { amount: number } };
    };
    const { finalPrice, total } = quoted.quote;
    const tax = taxOnTop(finalPrice, WA_BP);
    expect(quoted.quote.tax.amount).toBe(tax);
    expect(total).toBe(finalPrice + tax);
    await page.goto(`${baseUrl}/products/${product.slug}`);
    const price = page.getByRole('region', { name: 'Price' });
    await expect.poll(() => price.innerText(), { timeout: 10_000 }).toContain('Choose your state or province');

    // Buy before choosing: the state is asked for, and nothing leaves the page.
    await page.getByLabel('Email for your receipt').fill('wa.buyer@example.com');
    await page.getByRole('button', { name: /^Buy now/ }).click();
    const state = page.getByLabel('State');
    await expect.poll(() => state.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.getByRole('alert').filter({ hasText: 'Choose your state or province' }).waitFor();
    expect(page.url()).toContain(`/products/${product.slug}`);

    await state.selectOption('WA');
    const money = (amount: number) => formatMoney(amount, 'usd');
    const taxLine = `+ ${money(tax)} sales tax (6.5 %)`;
    await expect.poll(() => price.innerText(), { timeout: 10_000 }).toContain(taxLine);
    expect(await price.innerText()).toContain(money(total));
    const buy = page.getByRole('button', { name: /^Buy now/ });
    await expect.poll(() => buy.innerText()).toBe(`Buy now · ${money(total)}`);

    // A ZIP code is asked in the US (Stripe Tax places a buyer by it); one not written as a ZIP is refused on its
    // field, and nothing leaves the page.
    const zip = page.getByLabel('ZIP code');
    await zip.fill('981');
    await buy.click();
    await expect.poll(() => zip.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.getByRole('alert').filter({ hasText: 'Enter your ZIP code as 5 digits' }).waitFor();
    expect(await zip.getAttribute('aria-invalid')).toBe('true');
    expect(page.url()).toContain(`/products/${product.slug}`);
    await zip.fill('98101');
    await expect.poll(() => zip.getAttribute('aria-invalid')).toBeNull();
    await expect.poll(() => price.innerText(), { timeout: 10_000 }).toContain(taxLine);
    // The ZIP re-prices the box: it is looked at once the new price is in and the box no longer fades (stale).
    const priceBox = page.locator('.price-box');
    await expect
      .poll(
        () => priceBox.evaluate((box) => box.matches('.is-stale, [aria-busy="true"]') || getComputedStyle(box).opacity),
        {
          timeout: 10_000,
        },
      )
      .toBe('1');
    await checkScreen(page, 'tax-buy-box-us-wa', { axe: true });

    await buy.click();
    await page.waitForURL(/\/test-provider\/checkout\//);
    const hosted = await page.locator('main').innerText();
    expect(hosted).toContain(taxLine);
    expect(hosted).toContain(money(total));
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL(new RegExp(`/products/${product.slug}`));
    await expect.poll(() => page.getByLabel('State').inputValue()).toBe('WA');
    expect(await page.getByLabel('ZIP code').inputValue()).toBe('98101');
    // The checkout kept the ZIP code with the billing details (the invoice's buyer address names it).
    const checkout = await db('checkouts').where({ buyerEmail: 'wa.buyer@example.com' }).first('billingPostalCode');
    expect(checkout.billingPostalCode).toBe('98101');
    await expect.poll(() => price.innerText(), { timeout: 10_000 }).toContain(taxLine);
    await context.close();
  });

  it("fills in a signed-in business buyer's remembered details: reverse-charged", async () => {
    const { browser, baseUrl, db } = site();
    const context = await signedInContext(browser, baseUrl, db, ['learner'], 'buyer@acme.example');
    const business = await db('users').where({ email: 'buyer@acme.example' }).first('id');
    // Remembered from an earlier checkout.
    await db('billingProfiles').insert({
      userId: business.id,
      company: 'Acme Ltd',
      address: '1 High Street, London',
      country: 'GB',
      vatId: 'GB123456789',
    });
    const page = await context.newPage();
    const product = await db('products').where({ key: 'typescript-fundamentals' }).first('slug');
    await page.goto(`${baseUrl}/products/${product.slug}`);
    await expect.poll(() => page.getByLabel('Country').inputValue(), { timeout: 10_000 }).toBe('GB');
    expect(await page.getByLabel('Company').inputValue()).toBe('Acme Ltd');
    expect(await page.getByLabel('VAT ID').inputValue()).toBe('GB123456789');
    const price = page.getByRole('region', { name: 'Price' });
    await expect
      .poll(() => price.innerText(), { timeout: 10_000 })
      .toContain('Reverse charge: VAT is accounted for by the buyer');
    await checkScreen(page, 'tax-buy-box-gb-business', { axe: true });
    await context.close();
  });
});
