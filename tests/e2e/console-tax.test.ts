import { describe, expect, it } from 'vitest';
import { DEMO_TAX } from '../../seeds/demo';
import { seriousViolations, signedInContext, useDemoSite } from '../support/browser';

describe('tax in the console (Chromium)', () => {
  const site = useDemoSite();

  it("the school's tax settings: the API's refusal of a tax ID (another country's, none) lights up the field, a good one is saved as invoices print it", async () => {
    const { browser, baseUrl, db } = site();
    const context = await signedInContext(browser, baseUrl, db, ['admin']);
    const page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${baseUrl}/admin/#/school`);
    const taxId = page.getByRole('textbox', { name: 'Tax ID' });
    await expect.poll(() => taxId.inputValue()).toBe(DEMO_TAX.taxId);
    expect(await page.getByRole('combobox', { name: 'Established in (for tax)' }).inputValue()).toBe('Germany (DE)');
    expect(await page.getByLabel('Registered for the EU One-Stop Shop (OSS)').isChecked()).toBe(true);

    await taxId.fill('FR40303265045');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText("is another country's VAT number than the school's").waitFor();
    expect((await db('schoolSettings').first('taxId')).taxId).toBe(DEMO_TAX.taxId);
    // a school that charges tax prints its VAT number on every invoice: it cannot be taken away
    await taxId.fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText("is needed to charge tax: the school's VAT number (such as DE123456789)").waitFor();
    expect((await db('schoolSettings').first('taxId')).taxId).toBe(DEMO_TAX.taxId);

    await taxId.fill('de 987 654 321');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => taxId.inputValue()).toBe('DE987654321');
    expect((await db('schoolSettings').first('taxId')).taxId).toBe('DE987654321');
    await context.close();
  });

  it('the rate table: rates read as percentages, one typed to three decimals kept exactly, a fourth refused on the field', async () => {
    const { browser, baseUrl, db } = site();
    const context = await signedInContext(browser, baseUrl, db, ['admin']);
    const page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${baseUrl}/admin/#/`);
    await page.getByRole('menuitem', { name: 'Tax rates' }).click();
    await page.waitForURL(/#\/tax-rates/);
    await page.getByRole('row', { name: /^AT\b/ }).getByText('20 %').waitFor();
    // filtered by country (the console's filter, in its address)
    const only = (country: string) =>
      `${baseUrl}/admin/#/tax-rates?filter=${encodeURIComponent(`{"country":"${country}"}`)}`;
    // A fresh load of the filtered list (a change of the address's hash alone may be read before the list settles).
    const openFiltered = async (country: string) => {
      await page.goto('about:blank');
      await page.goto(only(country));
    };
    await openFiltered('CA');
    await page
      .getByRole('row', { name: /\bCA\b.*\bQC\b/ })
      .getByText('14.975 %')
      .waitFor();
    expect(await page.getByRole('row', { name: /^AT\b/ }).count()).toBe(0);
    expect(await seriousViolations(page, 'table')).toEqual([]);

    const washington = await db('taxRates').where({ country: 'US', region: 'WA' }).first('id');
    await page.goto(`${baseUrl}/admin/#/tax-rates/${washington.id}`);
    const rate = page.getByRole('textbox', { name: 'Rate (%)' });
    await expect.poll(() => rate.inputValue()).toBe('6.5');
    await rate.fill('6.5555');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Type a percentage with up to three decimals, such as 19 or 14.975.').waitFor();
    await rate.fill('10.375');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/#\/tax-rates/);
    await expect
      .poll(async () => (await db('taxRates').where({ id: washington.id }).first('rateBp')).rateBp)
      .toBe(1037.5);
    await openFiltered('US');
    await page
      .getByRole('row', { name: /\bUS\b.*\bWA\b/ })
      .getByText('10.375 %')
      .waitFor();

    // finance reads the table; only administrators change it
    const finance = await signedInContext(browser, baseUrl, db, ['finance']);
    const reader = await finance.newPage();
    await reader.goto(only('CA'));
    await reader.getByRole('row', { name: /\bCA\b.*\bQC\b/ }).waitFor();
    expect(await reader.getByRole('link', { name: 'Create' }).count()).toBe(0);
    await finance.close();
    await context.close();
  });
});
