import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ContentResource, Coupon, LessonProgress, Purchase, PurchaseUserTransfer, User } from '../support/models';
import { runSeeds } from '../../seeds/run';
import { signedInByEmail } from '../support/auth';
import { shownName } from '../../api/src/shared/shown-name';
import { contextFor, keepScreenshot, payAndConfirm, signedInContext, useDemoSite } from '../support/browser';
import { lastEmailTo } from '../support/outbox';

const purchaseCard = (page: Page, name: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('heading', { name }) });

describe('teams and transfers on the storefront (Chromium)', () => {
  const site = useDemoSite((db) => runSeeds(db, { demo: true }));

  it('buys 5 seats, invites a colleague who takes a seat, then revokes it; the owner claims a seat and buys more', async () => {
    const { browser, baseUrl, db } = site();
    const ownerContext = await signedInContext(browser, baseUrl, db, ['learner']);
    await ownerContext.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
    const owner = await ownerContext.newPage();

    // Buy 5 seats through the product page.
    await owner.goto(`${baseUrl}/products/typescript-fundamentals`);
    await owner.getByRole('checkbox', { name: 'For my team' }).check();
    await owner.getByRole('spinbutton', { name: 'Seats' }).fill('5');
    await owner.getByLabel('State').selectOption('OR'); // billed where the demo school collects no sales tax
    await owner.getByRole('button', { name: 'Buy 5 seats' }).click();
    await payAndConfirm(owner);

    // My purchases → Manage team.
    await owner.getByRole('link', { name: 'My purchases' }).first().click();
    await owner.getByRole('heading', { name: 'My purchases' }).waitFor();
    const teamCard = purchaseCard(owner, 'TypeScript Fundamentals');
    await expect.poll(() => teamCard.innerText()).toContain('5 seats, 0 claimed');
    expect(await teamCard.innerText()).toContain('Active team purchase: take a seat yourself to start learning.');
    expect(await teamCard.getByRole('button', { name: 'Give to someone else' }).count()).toBe(0); // a team purchase is not transferable
    await teamCard.getByRole('link', { name: 'Manage team' }).click();

    await owner.getByRole('heading', { name: 'Your team for TypeScript Fundamentals' }).waitFor();
    const seats = owner.getByRole('region', { name: 'Seats', exact: true });
    await expect.poll(() => seats.innerText()).toContain('5 seats in all: 0 taken, 5 free');
    await owner.getByText('Nobody has taken a seat yet').waitFor();
    const team = (await Purchase.query(db).whereNotNull('bulkCouponId').first())!;
    expect(owner.url()).toBe(`${baseUrl}/teams/${team.id}`);

    // The invite link (it carries the team's invite code): read it from the field and copy it.
    const inviteUrl = await owner.getByRole('textbox', { name: 'Invite link' }).inputValue();
    const inviteCode = (await Coupon.query(db).findById(team.bulkCouponId!))!.inviteCode;
    expect(inviteUrl).toBe(`${baseUrl}/invites/${inviteCode}`);
    await owner.getByRole('button', { name: 'Copy' }).click();
    await owner.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
    expect(await owner.evaluate('navigator.clipboard.readText()')).toBe(inviteUrl);
    await keepScreenshot(owner, 'storefront-team');

    // Signed out, the invite explains that you sign in first, and comes back here afterwards.
    const visitorContext = await browser.newContext();
    const visitor = await visitorContext.newPage();
    await visitor.goto(inviteUrl);
    await visitor.getByRole('heading', { name: 'Join the team for TypeScript Fundamentals' }).waitFor();
    const signIn = visitor.getByRole('link', { name: 'Sign in to take your seat' });
    expect(await signIn.getAttribute('href')).toBe(
      `/login?${new URLSearchParams({ redirectTo: `/invites/${inviteCode}` })}`,
    );
    expect(await visitor.getByRole('button', { name: 'Take my seat' }).count()).toBe(0);
    await visitorContext.close();

    // A colleague, signed in, takes a seat.
    const memberContext = await signedInContext(browser, baseUrl, db, ['learner']);
    const member = await memberContext.newPage();
    await member.goto(inviteUrl);
    await member.getByRole('heading', { name: 'Join the team for TypeScript Fundamentals' }).waitFor();
    const ownerUser = (await User.query(db).findById(team.userId))!;
    expect(await member.getByText(`${ownerUser.name} bought seats for TypeScript Fundamentals`).count()).toBe(1);
    await keepScreenshot(member, 'storefront-invite');
    await member.getByRole('button', { name: 'Take my seat' }).click();
    await member.getByRole('heading', { name: 'You have a seat' }).waitFor();
    // Into the course the seat opens, not its sales page.
    expect(await member.getByRole('link', { name: 'Go to the course' }).getAttribute('href')).toMatch(
      /^\/courses\/typescript-fundamentals-/,
    );
    await member.getByRole('main').getByRole('link', { name: 'My purchases' }).click();
    await member.getByRole('heading', { name: 'My purchases' }).waitFor();
    await expect
      .poll(() => purchaseCard(member, 'TypeScript Fundamentals').innerText())
      .toContain('A seat from a team purchase');
    const seat = (await Purchase.query(db).where({ redeemedBulkCouponId: team.bulkCouponId }).first())!;
    const memberUser = (await User.query(db).findById(seat.userId))!;
    expect(seat.status).toBe('Valid');

    // The colleague studies: from My purchases to the course, then a paid lesson, which opens; they complete it.
    await purchaseCard(member, 'TypeScript Fundamentals').getByRole('link', { name: 'Go to the course' }).click();
    await member.getByRole('heading', { level: 1, name: 'TypeScript Fundamentals' }).waitFor();
    await member.getByRole('link', { name: 'Start the course' }).waitFor();
    expect(await member.getByText('Locked:').count()).toBe(0);
    const paidItem = member.getByRole('listitem').filter({ hasText: 'Types catch mistakes early' });
    expect(await paidItem.innerText()).not.toContain('Free');
    await paidItem.getByRole('link', { name: 'Types catch mistakes early' }).click();
    await member.getByRole('heading', { level: 1, name: 'Types catch mistakes early' }).waitFor();
    await member.getByText('A type checker reads your code before it runs.').waitFor();
    await member.getByRole('button', { name: 'Mark complete' }).click();
    await member.getByRole('status').filter({ hasText: 'Marked complete.' }).waitFor();
    await keepScreenshot(member, 'storefront-team-member-lesson');
    const paidLesson = (await ContentResource.query(db)
      .where({ type: 'lesson' })
      .whereRaw(`fields->>'title' = ?`, ['Types catch mistakes early'])
      .first())!;
    const studied = await LessonProgress.query(db).findOne({ userId: memberUser.id, lessonId: paidLesson.id });
    expect(studied?.completedAt).toBeTruthy();
    const paidLessonUrl = member.url();

    // Opening the link again: the seat is already theirs.
    await member.goto(inviteUrl);
    await member.getByRole('button', { name: 'Take my seat' }).click();
    await member.getByRole('alert').filter({ hasText: 'You already have a seat for this course.' }).waitFor();

    // The owner sees the colleague among the members, and revokes the seat.
    await owner.reload();
    const row = owner.getByRole('row').filter({ hasText: memberUser.email });
    await row.waitFor();
    expect(await seats.innerText()).toContain('1 taken, 4 free');
    await row.getByRole('button', { name: /^Revoke/ }).click();
    await row.getByRole('button', { name: 'Yes, revoke' }).click();
    await owner
      .getByRole('status')
      .filter({ hasText: `${memberUser.email} no longer has a seat` })
      .waitFor();
    await expect.poll(() => seats.innerText()).toContain('0 taken, 5 free');
    await owner.getByText('Nobody has taken a seat yet').waitFor();
    expect(await Purchase.query(db).findById(seat.id)).toMatchObject({ status: 'Revoked' }); // kept, for the history
    expect(await Coupon.query(db).findById(team.bulkCouponId!)).toMatchObject({ maxUses: 5, usedCount: 0 });

    // The colleague has lost access; their progress stays.
    await member.goto(`${baseUrl}/purchases`);
    await member.getByText(/^Seat removed: the team’s owner took this seat back\./).waitFor();
    await member.goto(paidLessonUrl);
    await member.getByRole('heading', { name: 'Your access has ended' }).waitFor();
    await member.getByText(/Your team seat was taken back by the team’s owner/).waitFor();
    expect(await member.getByText('A type checker reads your code before it runs.').count()).toBe(0);
    expect((await LessonProgress.query(db).findById(studied!.id))?.completedAt).toBeTruthy();

    // The owner takes a seat for themselves.
    await owner.getByRole('button', { name: 'Claim a seat for myself' }).click();
    await owner.getByRole('row').filter({ hasText: '(you)' }).waitFor();
    await expect.poll(() => seats.innerText()).toContain('1 taken, 4 free');
    expect(await owner.getByRole('button', { name: 'Claim a seat for myself' }).count()).toBe(0);
    expect(
      await Purchase.query(db).where({ redeemedBulkCouponId: team.bulkCouponId, userId: team.userId }).resultSize(),
    ).toBe(1);

    // Buy 2 more seats for the same team.
    await owner.getByRole('spinbutton', { name: 'Seats to add' }).fill('2');
    await owner.getByText(/^2 more seats: \$/).waitFor();
    await owner.getByRole('button', { name: 'Buy more seats' }).click();
    await payAndConfirm(owner);
    await owner.goto(`${baseUrl}/teams/${team.id}`);
    await expect
      .poll(() => owner.getByRole('region', { name: 'Seats', exact: true }).innerText())
      .toContain('7 seats in all: 1 taken, 6 free');
    expect(await owner.getByRole('textbox', { name: 'Invite link' }).inputValue()).toBe(inviteUrl);
    expect(await Coupon.query(db).findById(team.bulkCouponId!)).toMatchObject({ maxUses: 7, usedCount: 1 });

    // In My purchases the second purchase leads to the same team: one "Manage team", and the seats added.
    await owner.goto(`${baseUrl}/purchases`);
    const added = owner.getByRole('link', { name: /^Added (2 )?seats to your team$/ });
    await added.waitFor();
    expect(await added.getAttribute('href')).toBe(`/teams/${team.id}`);
    expect(await owner.getByRole('link', { name: 'Manage team' }).count()).toBe(1);
    expect(await owner.getByRole('link', { name: 'Manage team' }).getAttribute('href')).toBe(`/teams/${team.id}`);

    await memberContext.close();
    await ownerContext.close();
  }, 120_000); // a long flow through three browsers: more than the default 30 s on a busy machine

  it('gives a purchase to someone else from My purchases; the recipient accepts it and owns it, the giver keeps the invoice', async () => {
    const { browser, baseUrl, db } = site();
    const giverContext = await signedInContext(browser, baseUrl, db, ['learner']);
    const giver = await giverContext.newPage();

    await giver.goto(`${baseUrl}/products/typescript-pro`);
    await giver.getByLabel('State').selectOption('OR'); // billed where the demo school collects no sales tax
    await giver.getByRole('button', { name: 'Buy now' }).click();
    await payAndConfirm(giver);
    const purchase = (await Purchase.query(db)
      .joinRelated('product')
      .where('product.slug', 'typescript-pro')
      .select('purchases.*')
      .first())!;
    const giverUser = (await User.query(db).findById(purchase.userId))!;

    await giver.goto(`${baseUrl}/purchases`);
    const card = purchaseCard(giver, 'TypeScript Pro');
    await card.getByRole('button', { name: 'Give to someone else' }).click();
    const email = card.getByRole('textbox', { name: /Recipient.s email/ });

    // Not to yourself.
    await email.fill(giverUser.email);
    await card.getByRole('button', { name: 'Send' }).click();
    await card.getByRole('alert').filter({ hasText: 'Email is your own address.' }).waitFor();

    // Offered, canceled, offered again.
    await email.fill('friend@example.com');
    await card.getByRole('button', { name: 'Send' }).click();
    await card.getByText('Offered to friend@example.com').waitFor();
    // The deadline names its time zone (a date without one is a guess for anyone elsewhere).
    expect(await card.locator('.transfer-offered time').innerText()).toMatch(
      /\d:\d\d\s?[AP]M (UTC|GMT[+-]\d{1,2}(:\d\d)?|[A-Z]{3,5})$/,
    );
    await keepScreenshot(giver, 'storefront-transfer-offered');
    await card.getByRole('button', { name: 'Cancel offer' }).click();
    await card.getByRole('status').filter({ hasText: 'Offer canceled' }).waitFor();
    await card.getByRole('button', { name: 'Give to someone else' }).click();
    await card.getByRole('textbox', { name: /Recipient.s email/ }).fill('friend@example.com');
    await card.getByRole('button', { name: 'Send' }).click();
    await card.getByText('Offered to friend@example.com').waitFor();
    await giver.reload();
    await purchaseCard(giver, 'TypeScript Pro').getByText('Offered to friend@example.com').waitFor();

    const offer = await lastEmailTo(db, 'friend@example.com');
    expect(offer.kind).toBe('transfer-offer');
    const link = offer.link!;
    const transferId = link.pathname.split('/').pop()!;
    expect(link.pathname).toBe(`/transfers/${transferId}`);
    expect((await PurchaseUserTransfer.query(db).findById(transferId))!.transferState).toBe('INITIATED');

    // Signed out, the link leads through sign-in and back.
    const visitorContext = await browser.newContext();
    const visitor = await visitorContext.newPage();
    await visitor.goto(`${baseUrl}${link.pathname}`);
    await visitor.waitForURL(`${baseUrl}/login?${new URLSearchParams({ redirectTo: link.pathname })}`);
    await visitorContext.close();

    // The giver opening the link is told to sign in with the address it was sent to.
    await giver.goto(`${baseUrl}${link.pathname}`);
    await giver.getByRole('heading', { name: 'This offer is for another email address' }).waitFor();
    await giver.getByRole('button', { name: 'Sign out and sign in with that address' }).waitFor();

    // The recipient (whose account the offer created) signs in and accepts.
    const friend = await signedInByEmail(db, 'friend@example.com');
    const friendContext = await contextFor(browser, baseUrl, friend);
    const recipient = await friendContext.newPage();
    await recipient.goto(`${baseUrl}${link.pathname}`);
    await recipient.getByRole('heading', { name: 'A course for you: TypeScript Pro' }).waitFor();
    expect((await PurchaseUserTransfer.query(db).findById(transferId))!.transferState).toBe('VERIFIED');
    await keepScreenshot(recipient, 'storefront-transfer-accept');
    await recipient.getByRole('button', { name: 'Accept' }).click();
    await recipient.getByRole('heading', { name: 'It’s yours' }).waitFor();

    await recipient.getByRole('main').getByRole('link', { name: 'My purchases' }).click();
    await recipient.getByRole('heading', { name: 'My purchases' }).waitFor();
    const owned = purchaseCard(recipient, 'TypeScript Pro');
    await owned.waitFor();
    expect(await owned.getByRole('button', { name: 'Give to someone else' }).count()).toBe(0); // given away once
    // They paid nothing: no invoice, but who gave it to them.
    await owned.getByText(`Given to you by ${shownName(giverUser)}`).waitFor();
    expect(await owned.getByRole('link', { name: 'Invoice' }).count()).toBe(0);
    await keepScreenshot(recipient, 'storefront-transfer-given');

    // The giver no longer has the course, and keeps the invoice, billed to them as it was issued.
    await giver.goto(`${baseUrl}/purchases`);
    await giver.getByText('You have not bought anything yet.').waitFor();
    const invoice = await db('invoices')
      .where({ merchantChargeId: purchase.merchantChargeId, kind: 'invoice' })
      .first();
    await giver.goto(`${baseUrl}/invoices/${invoice.id}`);
    await giver.getByRole('heading', { name: `Invoice ${invoice.number}` }).waitFor();
    await expect.poll(() => giver.getByRole('main').innerText()).toContain(giverUser.email);
    await recipient.goto(`${baseUrl}/invoices/${invoice.id}`);
    await recipient.getByRole('heading', { name: /not found/i }).waitFor();

    expect((await Purchase.query(db).findById(purchase.id))!.userId).toBe(friend.user.id);
    const transfer = (await PurchaseUserTransfer.query(db).findById(transferId))!;
    expect(transfer.transferState).toBe('COMPLETED');
    expect(transfer.targetUserId).toBe(friend.user.id);
    expect(transfer.completedAt).toBeTruthy();

    await friendContext.close();
    await giverContext.close();
  });
});
