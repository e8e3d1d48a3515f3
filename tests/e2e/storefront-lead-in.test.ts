import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { Purchase, User, VerificationToken } from '../support/models';
import { buyThroughSite, checkScreen, payAndConfirm, useDemoSite } from '../support/browser';
import { lastEmailTo } from '../support/outbox';

const PRODUCT_PATH = '/products/typescript-fundamentals';

/**
 * Emails and pages that lead people in (issue 17, point 4), in Chromium: a guest's receipt link into the course, the
 * thank-you page, sign-in pages that say why and fill in the address, and Cancel at the payment page.
 */
describe('pages and emails that lead in (Chromium)', () => {
  const site = useDemoSite();

  async function signedOutPage(): Promise<Page> {
    const context = await site().browser.newContext({ viewport: { width: 1280, height: 800 } });
    return context.newPage();
  }

  const fundamentals = async () => (await site().db('products').where({ slug: 'typescript-fundamentals' }).first())!;

  it("a guest buys; the thank-you page names it all; the receipt's link signs them in on the course", async () => {
    const email = 'guest.lead-in@example.com';
    const page = await signedOutPage();
    await page.goto(`${site().baseUrl}${PRODUCT_PATH}`);
    await page.getByRole('textbox', { name: 'Email for your receipt' }).fill(email);
    await page.getByRole('button', { name: 'Buy now' }).click();
    await payAndConfirm(page);

    const buyer = (await User.query(site().db).findOne({ email }))!;
    const purchase = (await Purchase.query(site().db).findOne({ userId: buyer.id }))!;
    const paid = `$${(purchase.totalAmount / 100).toFixed(2)}`;
    const summary = page.locator('.receipt-summary');
    await expect.poll(() => summary.innerText()).toContain('TypeScript Fundamentals');
    const text = await summary.innerText();
    expect(text).toContain(paid);
    expect(text).toContain(email);
    const invoice = page.getByRole('link', { name: 'View or print your invoice' });
    const issued = await site()
      .db('invoices')
      .where({ merchantChargeId: purchase.merchantChargeId, kind: 'invoice' })
      .first('id');
    expect(await invoice.getAttribute('href')).toBe(
      `/login?${new URLSearchParams({ redirectTo: `/invoices/${issued.id}`, email })}`,
    );
    expect(await page.getByRole('link', { name: 'Sign in to start learning' }).count()).toBe(1);
    await checkScreen(page, 'storefront-thanks-lead-in', { axe: true });

    // The receipt's first link: opening it (twice, as a mail scanner and then the person) signs nobody in.
    const receipt = await lastEmailTo(site().db, email);
    expect(receipt.kind).toBe('receipt');
    const link = new URL(receipt.link!.pathname + receipt.link!.search, site().baseUrl).toString();
    const scanner = await signedOutPage();
    await scanner.goto(link);
    await scanner.getByRole('heading', { name: 'Finish signing in' }).waitFor();
    await page.goto(link);
    await page.getByRole('heading', { name: 'Finish signing in' }).waitFor();
    expect(await VerificationToken.query(site().db).where('identifier', email).resultSize()).toBe(1);

    // Continue signs in and lands on the course the purchase opens.
    const course = await site()
      .db('productContentResources as pc')
      .join('contentResources as r', 'r.id', 'pc.resourceId')
      .where('pc.productId', purchase.productId)
      .orderBy('pc.position')
      .first(site().db.raw(`r.fields->>'slug' as slug`), site().db.raw(`r.fields->>'title' as title`));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${site().baseUrl}/courses/${course.slug}`);
    await page.getByRole('heading', { name: course.title, level: 1 }).waitFor();
    expect(await VerificationToken.query(site().db).where('identifier', email).resultSize()).toBe(0);
    // Signed in: the invoice opens.
    await page.goto(`${site().baseUrl}/invoices/${purchase.merchantChargeId}`);
    await page.getByRole('heading', { name: 'Invoice' }).waitFor();

    // The scanner's tab, used afterwards, finds the link spent.
    await scanner.getByRole('button', { name: 'Continue' }).click();
    await scanner.getByRole('heading', { name: 'This sign-in link cannot be used' }).waitFor();
  });

  it('a signed-out invite link leads to a sign-in page that says why', async () => {
    const product = await fundamentals();
    const created = await fetch(`${site().baseUrl}/api/store/checkout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ productId: product.id, email: 'team.buyer.lead-in@example.com', quantity: 3, team: true }),
    });
    const { checkoutId, url } = (await created.json()) as { checkoutId: string; url: string };
    await fetch(`${site().baseUrl}${new URL(url).pathname}/pay`, { method: 'POST', redirect: 'manual' });
    const outcome = (await (await fetch(`${site().baseUrl}/api/store/checkouts/${checkoutId}`)).json()) as {
      team: { inviteUrl: string };
    };
    const invitePath = new URL(outcome.team.inviteUrl).pathname;

    // The thank-you page (in the first hour) offers the invite link ready to copy.
    const thanksContext = await site().browser.newContext({ viewport: { width: 390, height: 800 } });
    await thanksContext.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site().baseUrl });
    const thanks = await thanksContext.newPage();
    await thanks.goto(`${site().baseUrl}/thanks?checkout=${checkoutId}`);
    expect(await thanks.getByRole('textbox', { name: 'Invite link' }).inputValue()).toBe(outcome.team.inviteUrl);
    await thanks.getByRole('button', { name: 'Copy' }).click();
    await thanks.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
    expect(await thanks.evaluate('navigator.clipboard.readText()')).toBe(outcome.team.inviteUrl);
    await checkScreen(thanks, 'storefront-thanks-team-copy', { axe: true });
    await thanksContext.close();

    const page = await signedOutPage();
    await page.goto(`${site().baseUrl}${invitePath}`);
    await page.getByRole('link', { name: 'Sign in to take your seat' }).click();
    await page.getByRole('heading', { name: 'Sign in to take your seat in TypeScript Fundamentals' }).waitFor();
    expect(await page.locator('.sign-in-reason').innerText()).toContain('invited you to take one');
    await checkScreen(page, 'storefront-login-invite', { axe: true });

    // Asking for the link from here comes back to the invite.
    await page.getByRole('textbox', { name: 'Email' }).fill('invited.lead-in@example.com');
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();
    const { link } = await lastEmailTo(site().db, 'invited.lead-in@example.com');
    await page.goto(new URL(link!.pathname + link!.search, site().baseUrl).toString());
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${site().baseUrl}${invitePath}`);
  });

  it('a signed-out transfer link leads to a sign-in page that says why, with the address filled in', async () => {
    const product = await fundamentals();
    const ownerEmail = 'giver.lead-in@example.com';
    const purchaseId = await buyThroughSite(site().baseUrl, product.id, ownerEmail);
    const recipient = await User.query(site().db).insertAndFetch({ email: 'receiver.lead-in@example.com' });
    // The offer as the owner makes it (their transfer page is tested elsewhere): named, INITIATED.
    const [offer] = await site()
      .db('purchaseUserTransfers')
      .where({ purchaseId, transferState: 'AVAILABLE' })
      .update({ transferState: 'INITIATED', targetUserId: recipient.id })
      .returning('id');

    const page = await signedOutPage();
    await page.goto(`${site().baseUrl}/transfers/${offer.id}`);
    const heading = `Sign in to accept TypeScript Fundamentals from ${ownerEmail}`;
    await page.getByRole('heading', { name: heading }).waitFor();
    expect(new URL(page.url()).searchParams.get('redirectTo')).toBe(`/transfers/${offer.id}`);
    const field = page.getByRole('textbox', { name: 'Email' });
    await expect.poll(() => field.inputValue()).toBe('receiver.lead-in@example.com');
    expect(await page.locator('.sign-in-reason').innerText()).toContain(
      'The offer was sent to receiver.lead-in@example.com',
    );
    await checkScreen(page, 'storefront-login-transfer', { axe: true });
  });

  it('Cancel at the payment page comes back with a message and the form as it was', async () => {
    const page = await signedOutPage();
    await page.goto(`${site().baseUrl}${PRODUCT_PATH}`);
    await page.getByRole('textbox', { name: 'Email for your receipt' }).fill('changed.mind.lead-in@example.com');
    await page.getByRole('checkbox', { name: 'For my team' }).check();
    await page.getByRole('spinbutton', { name: 'Seats' }).fill('4');
    await page.getByRole('textbox', { name: 'Coupon code' }).fill('WELCOME10');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByRole('button', { name: 'Remove coupon' }).waitFor();
    await page.getByRole('button', { name: 'Buy 4 seats' }).click();

    await page.waitForURL(/\/test-provider\/checkout\//);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL((url) => url.pathname === PRODUCT_PATH);
    const notice = page.getByRole('status').filter({ hasText: 'Payment canceled: nothing was charged.' });
    await notice.waitFor();
    await expect.poll(() => page.evaluate('document.activeElement?.className')).toContain('canceled-notice');
    expect(await page.getByRole('textbox', { name: 'Email for your receipt' }).inputValue()).toBe(
      'changed.mind.lead-in@example.com',
    );
    expect(await page.getByRole('checkbox', { name: 'For my team' }).isChecked()).toBe(true);
    expect(await page.getByRole('spinbutton', { name: 'Seats' }).inputValue()).toBe('4');
    expect(await page.getByRole('textbox', { name: 'Coupon code' }).inputValue()).toBe('WELCOME10');
    await page.getByRole('button', { name: 'Buy 4 seats' }).waitFor();
    // The address keeps the coupon, not the message: a reload does not say it again.
    expect(new URL(page.url()).searchParams.get('canceled')).toBeNull();
    expect(new URL(page.url()).searchParams.get('code')).toBe('WELCOME10');
    await checkScreen(page, 'storefront-product-canceled', { axe: true });
    await page.reload();
    await page.getByRole('button', { name: 'Buy now' }).waitFor();
    expect(await page.getByText('Payment canceled').count()).toBe(0);
  });
});
