import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ContentResource, Coupon, Product } from '../support/models';
import { createCoupon } from '../../seeds/factories';
import { chooseOption, signedInContext, useDemoSite } from '../support/browser';
import { seedEverything } from '../support/everything';

/** What the console QA found (issue 19), each fixed in the console: one page per test, so a dirty form stays put. */
describe('console QA fixes (Chromium)', () => {
  let fixture: Awaited<ReturnType<typeof seedEverything>>;
  const site = useDemoSite(async (db) => {
    fixture = await seedEverything(db);
    await createCoupon(db, { code: null, default: true, percentageDiscount: 0.2 });
    await db('products').where({ id: fixture.product.id }).update({ quantityAvailable: -1 });
    await db('outboxEmails').where({ subject: 'Hello' }).update({ status: 'sent', sentAt: new Date() });
  });
  let context: BrowserContext;

  beforeAll(async () => {
    context = await signedInContext(site().browser, site().baseUrl, site().db, ['admin']);
  });

  async function open(path: string): Promise<Page> {
    const page = await context.newPage();
    await page.goto(`${site().baseUrl}/admin/#/${path}`);
    return page;
  }

  it('refuses fractions of a cent and of a hundredth of a percent on the field, saving nothing', async () => {
    const page = await open('products/create');
    await page.getByLabel('Name').fill('Fractions of a cent');
    const price = page.getByLabel('First price (in dollars)');
    await price.fill('79.999');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Whole cents only: at most two decimals (e.g. 79.99).').waitFor();
    expect(await price.getAttribute('aria-invalid')).toBe('true');
    expect(await price.inputValue()).toBe('79.999'); // as typed, never rounded to 80
    await price.fill('79.99');
    await page.getByText('Whole cents only: at most two decimals (e.g. 79.99).').waitFor({ state: 'detached' });
    expect(await Product.query(site().db).where({ name: 'Fractions of a cent' })).toEqual([]);

    const split = await open('product-revenue-splits/create');
    const share = split.getByLabel('Share (%)');
    await share.fill('12.345');
    await share.blur();
    await split.getByRole('button', { name: 'Save', exact: true }).click();
    await split.getByText(/^At most two decimals \(e\.g\. 12\.34 %\)/).waitFor();
    expect(await share.inputValue()).toBe('12.345');

    const coupon = await open('coupons/create');
    await coupon.getByLabel('Discount (%)').fill('12.345');
    await coupon.getByRole('button', { name: 'Save', exact: true }).click();
    await coupon.getByText(/^At most two decimals \(e\.g\. 12\.34 %\)/).waitFor();
    expect(await Coupon.query(site().db).where({ percentageDiscount: 0.1235 })).toEqual([]);
  });

  it('refuses a refund above what is left before asking for a confirmation, saying how much is left', async () => {
    const page = await open(`purchases/${fixture.purchase.id}/show`);
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('radio', { name: 'Full refund (amount left: $40.00)' }).waitFor(); // $49 paid, $9 refunded
    await dialog.getByRole('radio', { name: 'Partial refund' }).check();
    const amount = dialog.getByLabel('Amount to refund (in dollars)');
    await amount.fill('45');
    await chooseOption(page, 'Reason', 'Requested by the customer');
    await dialog.getByLabel('Note').fill('Asked for more than was paid');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await dialog.getByText('At most $40.00 can still be refunded.').waitFor();
    expect(await amount.getAttribute('aria-invalid')).toBe('true');
    expect(await dialog.getByText(/^Refund \$45\.00 to/).count()).toBe(0); // no confirmation asked

    await amount.fill('12.345');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await dialog.getByText('Whole cents only: at most two decimals (e.g. 79.99).').waitFor();
    expect(await dialog.getByRole('button', { name: 'Confirm' }).count()).toBe(0);
    expect((await site().db('merchantCharges').where({ id: fixture.charge.id }).first()).refundAmount).toBe(900);
  });

  it("refuses javascript: and data: links in the editor's link dialog, with a message, never as http://javascript:", async () => {
    const lesson = (await ContentResource.query(site().db).findById(fixture.lesson.id))!;
    const page = await open(`content-resources/${lesson.id}`);
    const body = page.getByRole('textbox', { name: 'Body' });
    await body.waitFor();
    await body.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Click here');
    await page.keyboard.press('Shift+Home');
    await page.getByRole('button', { name: 'Link', exact: true }).click();
    const href = page.getByRole('textbox', { name: 'Link' });
    for (const refused of ['javascript:alert(document.cookie)', ' JaVa\tScript:alert(1)', 'data:text/html,<b>x</b>']) {
      await href.fill(refused);
      await href.press('Enter');
      const scheme = refused.includes('data:') ? 'data' : 'javascript';
      await page.getByText(`A ${scheme}: link is refused: use an http, https or mailto link.`).waitFor();
      expect(await href.inputValue()).not.toMatch(/^http:/);
      expect(await href.evaluate((input: HTMLInputElement) => input.validity.customError)).toBe(true);
      expect(await body.locator('a').count()).toBe(0);
    }
    await href.fill('example.com/guide');
    await page.getByRole('button', { name: 'Save link' }).click();
    await expect.poll(() => body.locator('a').getAttribute('href')).toBe('http://example.com/guide');
  });

  it('asks before leaving a product edited but not saved', async () => {
    const page = await open(`products/${fixture.product.id}`);
    const name = page.getByLabel('Name');
    await name.waitFor();
    await name.fill('A name not saved');
    const asked = new Promise<string>((resolve) =>
      page.once('dialog', (dialog) => {
        resolve(dialog.message());
        void dialog.dismiss();
      }),
    );
    await page.getByRole('menuitem', { name: 'Coupons' }).click();
    expect(await asked).toMatch(/changes/i);
    expect(page.url()).toMatch(new RegExp(`#/products/${fixture.product.id}$`));
    expect(await name.inputValue()).toBe('A name not saved');
  });

  it('shows and takes "unlimited" as Unlimited, never −1', async () => {
    const page = await open(`products/${fixture.product.id}`);
    const unlimited = page.getByRole('checkbox', { name: 'Unlimited' });
    await unlimited.waitFor();
    expect(await unlimited.isChecked()).toBe(true);
    const seats = page.getByRole('spinbutton', { name: 'Seats' });
    expect(await seats.isDisabled()).toBe(true);
    expect(await seats.inputValue()).toBe('');
    await unlimited.uncheck();
    await seats.fill('30');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect
      .poll(async () => (await Product.query(site().db).findById(fixture.product.id))!.quantityAvailable, {
        timeout: 10_000,
      })
      .toBe(30);
    await page.waitForURL(/\/show$/); // the save's redirect, before this page is left

    const coupon = await open('coupons/create');
    await coupon.getByLabel('Code').fill('NOLIMIT');
    await coupon.getByLabel('Discount (%)').fill('15');
    expect(await coupon.getByRole('checkbox', { name: 'Unlimited' }).isChecked()).toBe(true);
    await coupon.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(async () => (await Coupon.query(site().db).findOne({ code: 'NOLIMIT' }))?.maxUses).toBe(-1);
    await coupon.waitForURL(/\/show$/);
    await coupon.getByText('0 / unlimited').waitFor();
    // Whole texts only: the coupon's id (a UUID) may well contain "-1".
    expect(await coupon.getByText(/^\s*[-−]1\s*$/).count()).toBe(0);
  });

  it('tells site-wide sales and team coupons apart in the coupon list', async () => {
    const page = await open('coupons');
    await page.getByText('USEDONCE').waitFor();
    await page.getByText('Site-wide sale', { exact: true }).first().waitFor();
    await page.getByText('Team seats', { exact: true }).first().waitFor();
    expect(await page.getByText('(no code)').count()).toBe(0);
  });

  it("shows a comment's lesson linked, not its context as JSON", async () => {
    const comment = await site().db('comments').where({ text: 'Great lesson!' }).first();
    const page = await open(`comments/${comment.id}/show`);
    const lesson = page.getByRole('link', { name: new RegExp(`^${fixture.lesson.fields.title} \\(Lesson\\)`) });
    await lesson.waitFor();
    expect(await lesson.getAttribute('href')).toContain(`#/content-resources/${fixture.lesson.id}/show`);
    expect(await page.getByText('"resourceId"').count()).toBe(0);
  });

  it('shows "Next attempt" on no sent email', async () => {
    const email = await site().db('outboxEmails').where({ subject: 'Hello' }).first();
    const page = await open(`outbox-emails/${email.id}/show`);
    await page.getByText('Sent', { exact: true }).first().waitFor();
    expect(await page.getByText(/next attempt/i).count()).toBe(0);
  });

  it('offers up to 250 rows a page in lists', async () => {
    const page = await open('coupons');
    await page.getByText('USEDONCE').waitFor();
    await page.getByRole('combobox', { name: /rows per page/i }).click();
    for (const rows of ['10', '25', '50', '100', '250'])
      await page.getByRole('option', { name: rows, exact: true }).waitFor();
    const request = page.waitForRequest((r) => r.url().includes('/api/admin/coupons') && r.url().includes('range'));
    await page.getByRole('option', { name: '250', exact: true }).click();
    expect(decodeURIComponent((await request).url())).toContain('range=[0,249]');
  });

  it('offers a contributor no Edit on another author’s lesson, and withholds its body', async () => {
    const other = await signedInContext(site().browser, site().baseUrl, site().db, ['contributor']);
    const page = await other.newPage();
    await page.goto(`${site().baseUrl}/admin/#/content-resources/${fixture.lesson.id}/show`);
    await page.getByText('Only its author and staff can change this content.').waitFor();
    await page.getByText('Written by another author: only they and staff read its body.').waitFor();
    expect(await page.getByRole('link', { name: 'Edit' }).count()).toBe(0);
    await page.goto(`${site().baseUrl}/admin/#/content-resources/${fixture.lesson.id}`);
    await page.getByRole('alert').getByText('Only its author and staff can change this content.').waitFor();
    expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0);
    await other.close();
  });
});
