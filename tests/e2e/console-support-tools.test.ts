import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { AuditLog, Product } from '../support/models';
import { createUser } from '../../seeds/factories';
import { signedIn } from '../support/auth';
import {
  CONSOLE_WIDTHS,
  buyThroughSite,
  checkScreen,
  keepScreenshot,
  signedInContext,
  useDemoSite,
} from '../support/browser';

/** Support on a person's page: resend one of their emails, block them (the storefront then refuses them), change their email. */
describe("support's tools on a person's page (Chromium)", () => {
  const site = useDemoSite();

  const notice = (page: Page, text: string) => page.getByText(text).waitFor({ timeout: 15_000 });

  it('resends an email once per click, blocks the person with a reason, and changes their email', async () => {
    const { db, baseUrl, browser } = site();
    const person = await signedIn(db, ['learner'], 'helped.person@example.com');
    const who = person.user.name!;
    await createUser(db, { email: 'taken.address@example.com' });
    const [refund] = await db('outboxEmails')
      .insert({
        toAddress: 'helped.person@example.com',
        subject: 'Refund for TypeScript Fundamentals',
        textBody: 'We refunded your purchase of TypeScript Fundamentals in full ($49.00).\n',
        htmlBody: '<p>We refunded your purchase of TypeScript Fundamentals in full ($49.00).</p>',
        kind: 'refund',
        status: 'sent',
        sentAt: new Date(),
      })
      .returning('id');

    const context = await signedInContext(browser, baseUrl, db, ['support']);
    const page = await context.newPage();
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${baseUrl}/admin/#/users/${person.user.id}/show`);
    await page.getByText('helped.person@example.com').first().waitFor();

    // Their emails, and Resend: a double click is one copy, to their current address.
    await page.getByRole('tab', { name: 'Emails' }).click();
    const resend = page.getByRole('button', { name: 'Resend: Refund for TypeScript Fundamentals' });
    await resend.waitFor();
    await checkScreen(page, 'console-person-emails', { widths: CONSOLE_WIDTHS });
    await resend.dblclick();
    await notice(page, 'A copy of “Refund for TypeScript Fundamentals” is on its way to helped.person@example.com.');
    await expect.poll(() => page.getByText('Copy resent from the console').count()).toBe(1);
    const copies = await db('outboxEmails').where({ resentFromId: refund.id });
    expect(copies).toHaveLength(1);
    expect(copies[0].toAddress).toBe('helped.person@example.com');

    // Block, with a reason: signed out at once, and the storefront refuses them as a guest.
    await page.getByRole('tab', { name: 'Summary' }).click();
    await page.getByRole('button', { name: 'Block', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(`Block ${who}?`).waitFor();
    await dialog.getByLabel('Reason').fill('Ticket 4521: chargebacks on three cards');
    await keepScreenshot(page, 'console-person-block-dialog');
    await dialog.getByRole('button', { name: 'Block', exact: true }).click();
    await notice(page, `Blocked ${who}: 1 session and 0 device tokens ended.`);
    await page.getByText('Blocked on').first().waitFor();
    await page.getByText('Ticket 4521: chargebacks on three cards').first().waitFor();
    await checkScreen(page, 'console-person-blocked', { widths: CONSOLE_WIDTHS });
    expect((await fetch(`${baseUrl}/api/store/me`, { headers: { cookie: person.cookie } })).status).toBe(401);

    const guest = await browser.newContext();
    const store = await guest.newPage();
    await store.goto(`${baseUrl}/products/typescript-fundamentals`);
    await store.getByLabel('Email for your receipt').fill(' Helped.Person@Example.com ');
    await store.getByRole('button', { name: 'Buy now' }).click();
    await store.getByText('Email cannot be used to buy here: contact our support team.').waitFor();
    await keepScreenshot(store, 'storefront-blocked-buyer');
    expect(store.url()).toContain('/products/typescript-fundamentals');
    expect(await db('checkouts').whereRaw('lower(buyer_email) = ?', ['helped.person@example.com'])).toHaveLength(0);
    await guest.close();

    // Change their email: a taken address is refused on the field, then a free one goes through.
    await page.getByRole('button', { name: 'Change email' }).click();
    const form = page.getByRole('dialog');
    await form.getByLabel('New email').fill('Taken.Address@example.com');
    await form.getByRole('button', { name: 'Continue' }).click();
    await form
      .getByText(`Change the email of ${who} from helped.person@example.com to taken.address@example.com?`)
      .waitFor();
    await form.getByRole('button', { name: 'Change email' }).click();
    await form.getByText('taken.address@example.com already has an account').waitFor();
    await keepScreenshot(page, 'console-person-change-email-taken');
    await form.getByLabel('New email').fill('helped.new@example.com');
    await form.getByRole('button', { name: 'Continue' }).click();
    await form.getByRole('button', { name: 'Change email' }).click();
    await notice(page, 'Changed the email to helped.new@example.com; 0 sessions and 0 device tokens ended.');
    await page.getByText('helped.new@example.com').first().waitFor();
    expect((await db('users').where({ id: person.user.id }).first()).email).toBe('helped.new@example.com');

    // Their emails now: the two notices, and what went to the old address (Resend sends it to the new one).
    await page.getByRole('tab', { name: 'Emails' }).click();
    await page.getByText('This is now your account’s email address').waitFor();
    await page.getByText('sent to helped.person@example.com').first().waitFor();
    await checkScreen(page, 'console-person-emails-after-change', { widths: CONSOLE_WIDTHS });

    // All of it on their timeline, with who did it and why.
    await page.getByRole('tab', { name: 'Timeline' }).click();
    await page.getByText('User email changed').waitFor();
    await page.getByText('helped.person@example.com → helped.new@example.com').waitFor();
    await page.getByText('User blocked').waitFor();
    await page.getByText('Reason: Ticket 4521: chargebacks on three cards').waitFor();
    const actions = await AuditLog.query(db).where({ recordId: person.user.id }).orderBy('id');
    expect(actions.map((a) => a.action)).toEqual(['user.blocked', 'user.email-changed']);
    await context.close();
  });

  it("sends a purchase's receipt again from its page, once per click, and finds it in the email outbox", async () => {
    const { db, baseUrl, browser } = site();
    const product = (await Product.query(db).findOne({ key: 'typescript-fundamentals' }))!;
    const purchaseId = await buyThroughSite(baseUrl, product.id, 'lost.my.receipt@example.com');
    const receipts = () => db('outboxEmails').where({ toAddress: 'lost.my.receipt@example.com', kind: 'receipt' });
    expect(await receipts()).toHaveLength(1);

    const context = await signedInContext(browser, baseUrl, db, ['support']);
    const page = await context.newPage();
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${baseUrl}/admin/#/purchases/${purchaseId}/show`);
    await page.getByRole('button', { name: 'Send receipt again' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Send the receipt of this purchase to lost.my.receipt@example.com?').waitFor();
    await dialog.getByRole('button', { name: 'Send', exact: true }).dblclick();
    await notice(page, 'Receipt sent again to lost.my.receipt@example.com.');
    expect(await receipts()).toHaveLength(2);
    const [entry] = await AuditLog.query(db).where({ action: 'receipt-resent', recordId: purchaseId });
    expect(entry).toBeDefined();

    // Support opens the outbox itself too: both receipts, the sign-in links hidden.
    await page.getByRole('menuitem', { name: 'Email outbox' }).click();
    await page.getByPlaceholder('Search address or subject').fill('lost.my.receipt');
    await expect.poll(() => page.getByText('Your receipt for TypeScript Fundamentals').count()).toBe(2);
    await checkScreen(page, 'console-outbox-support', { widths: CONSOLE_WIDTHS });
    await context.close();
  });
});
