import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { Coupon, Product, Purchase, PurchaseUserTransfer } from '../support/models';
import type { User } from '../../api/src/identity/models';
import { createCoupon, createPurchase, createUser } from '../../seeds/factories';
import { runSeeds } from '../../seeds/run';
import { buyThroughSite, keepScreenshot, signedInContext, useDemoSite, chooseOption } from '../support/browser';

const DAY = 86_400_000;

describe('teams and transfers in the console (Chromium)', () => {
  const site = useDemoSite((db) => runSeeds(db, { demo: true }));
  let product: Product;
  let team: Purchase;
  let teamCoupon: Coupon;
  let emptyTeam: Purchase;
  let seats: Record<'one' | 'two', Purchase>;
  let giver: User;
  let friend: User;
  let offered: Purchase;
  let transfer: PurchaseUserTransfer;
  let moveId: string;

  const db = () => site().db;
  /** The code the team's invite link carries (the owner can replace it). */
  const inviteCodeOf = async (purchase: Purchase) =>
    (await Coupon.query(db()).findById(purchase.bulkCouponId!))!.inviteCode;

  /** A team purchase of `seats` seats, its team coupon, and a seat for each member (as redeeming one makes). */
  async function teamOf(buyer: User, total: number, members: User[]) {
    const purchase = await createPurchase(db(), { user: buyer, product, totalAmount: total * 4900 });
    const coupon = await createCoupon(db(), {
      code: null,
      percentageDiscount: 1,
      maxUses: total,
      restrictedToProductId: product.id,
      bulkPurchaseId: purchase.id,
    });
    await db()('purchases').where({ id: purchase.id }).update({ bulkCouponId: coupon.id });
    const memberSeats: Purchase[] = [];
    for (const member of members) {
      memberSeats.push(
        await Purchase.query(db()).insertAndFetch({
          userId: member.id,
          productId: product.id,
          status: 'Valid',
          totalAmount: 0,
          redeemedBulkCouponId: coupon.id,
          couponId: coupon.id,
        }),
      );
    }
    await db()('coupons').where({ id: coupon.id }).update({ usedCount: members.length });
    return { purchase: (await Purchase.query(db()).findById(purchase.id))!, coupon, memberSeats };
  }

  beforeAll(async () => {
    product = (await Product.query(db()).findOne({ key: 'typescript-fundamentals' }))!;

    const lead = await createUser(db(), { email: 'team.lead@example.com', name: 'Tess Lead' });
    const one = await createUser(db(), { email: 'member.one@example.com', name: 'Mo One' });
    const two = await createUser(db(), { email: 'member.two@example.com', name: 'Mia Two' });
    const made = await teamOf(lead, 3, [one, two]);
    team = made.purchase;
    teamCoupon = made.coupon;
    seats = { one: made.memberSeats[0]!, two: made.memberSeats[1]! };
    emptyTeam = (await teamOf(await createUser(db(), { email: 'new.team@example.com' }), 2, [])).purchase;

    // An individual purchase whose owner offered it to a friend (INITIATED), within the 7-day window.
    giver = await createUser(db(), { email: 'giver@example.com', name: 'Gil Giver' });
    friend = await createUser(db(), { email: 'friend@example.com' });
    offered = await createPurchase(db(), { user: giver, product, totalAmount: 4900 });
    transfer = await PurchaseUserTransfer.query(db()).insertAndFetch({
      purchaseId: offered.id,
      sourceUserId: giver.id,
      targetUserId: friend.id,
      transferState: 'INITIATED',
      expiresAt: new Date(new Date(offered.createdAt).getTime() + 7 * DAY),
    });

    // A purchase bought under the wrong address, paid through the provider (so it has a charge and a customer).
    moveId = await buyThroughSite(site().baseUrl, product.id, 'wrong.address@example.com');
  });

  const dialog = (page: Page) => page.getByRole('dialog');
  const memberRow = (page: Page, email: string) =>
    page.getByRole('table', { name: 'Members' }).getByRole('row', { name: new RegExp(email.replace(/\./g, '\\.')) });
  const transfersTable = (page: Page) => page.getByRole('table', { name: 'Transfers' });

  it('shows teams read-only to finance, with a useful empty state', async () => {
    const context = await signedInContext(site().browser, site().baseUrl, db(), ['finance']);
    const page = await context.newPage();
    await page.goto(`${site().baseUrl}/admin/#/bulk-purchases/${team.id}/show`);
    await page.getByText('3 seats: 2 used, 1 free').waitFor();
    await memberRow(page, 'member.two@example.com').waitFor();
    expect(await page.getByRole('button', { name: 'Revoke seat' }).count()).toBe(0); // support and admins only

    await page.goto(`${site().baseUrl}/admin/#/bulk-purchases/${emptyTeam.id}/show`);
    await page.getByText('No one has claimed a seat yet').waitFor();
    await page.getByText('2 seats are waiting.', { exact: false }).waitFor();
    await page.getByText(`/invites/${await inviteCodeOf(emptyTeam)}`).waitFor(); // the invite link to share
    await keepScreenshot(page, 'console-team-empty');

    await page.goto(`${site().baseUrl}/admin/#/purchases/${moveId}/show`);
    await page.getByText('Individual', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Move to another email' }).count()).toBe(0);
    await context.close();
  });

  it('lets support revoke a member’s seat, after a confirmation', async () => {
    const context = await signedInContext(site().browser, site().baseUrl, db(), ['support']);
    const page = await context.newPage();
    await page.goto(`${site().baseUrl}/admin/#/bulk-purchases/${team.id}/show`);
    await page.getByText('3 seats: 2 used, 1 free').waitFor();
    await page.getByText(`/invites/${await inviteCodeOf(team)}`).waitFor();
    await memberRow(page, 'member.one@example.com').getByText('Mo One').waitFor();
    await memberRow(page, 'member.two@example.com').getByText('Mia Two').waitFor();
    await keepScreenshot(page, 'console-team');

    await memberRow(page, 'member.one@example.com').getByRole('button', { name: 'Revoke seat' }).click();
    await dialog(page).getByRole('heading', { name: 'Revoke seat' }).waitFor();
    await dialog(page).getByText('Revoke the seat of member.one@example.com?').waitFor();
    await dialog(page)
      .getByText('They lose access to TypeScript Fundamentals at once and keep their progress, and we email them.', {
        exact: false,
      })
      .waitFor();
    await dialog(page)
      .getByText("the invite link will not let them back in unless the team's owner allows it", { exact: false })
      .waitFor();
    await keepScreenshot(page, 'console-team-revoke-confirm');
    // Backing out changes nothing.
    await dialog(page).getByRole('button', { name: 'Cancel' }).click();
    await dialog(page).waitFor({ state: 'detached' });
    expect(await Purchase.query(db()).findById(seats.one.id)).toBeDefined();

    await memberRow(page, 'member.one@example.com').getByRole('button', { name: 'Revoke seat' }).click();
    await dialog(page).getByRole('button', { name: 'Revoke seat' }).click();
    await page.getByText('Revoked the seat of member.one@example.com. 2 of 3 seats are free.').waitFor();
    await dialog(page).waitFor({ state: 'detached' });
    await page.getByText('3 seats: 1 used, 2 free').waitFor();
    await expect.poll(() => memberRow(page, 'member.one@example.com').count()).toBe(0);
    await memberRow(page, 'member.two@example.com').waitFor();
    expect(page.url()).toContain(`/bulk-purchases/${team.id}/show`); // the dialog's clicks did not open the member's row

    // The seat purchase is kept, marked Revoked: the audit log's link still opens it.
    expect(await Purchase.query(db()).findById(seats.one.id)).toMatchObject({ status: 'Revoked' });
    expect(await Purchase.query(db()).findById(seats.two.id)).toMatchObject({ status: 'Valid' });
    expect((await Coupon.query(db()).findById(teamCoupon.id))!.usedCount).toBe(1);
    expect(await db()('auditLogs').where({ action: 'team.seat-revoked', recordId: seats.one.id })).toHaveLength(1);
    // Removed from the team, as the owner sees it: the invite link refuses them until the owner lets them back in.
    expect(await db()('teamSeatRevocations').where({ couponId: teamCoupon.id, userId: seats.one.userId })).toHaveLength(
      1,
    );
    await context.close();
  });

  it('lets support cancel an initiated transfer, showing the purchase’s transfer history', async () => {
    const context = await signedInContext(site().browser, site().baseUrl, db(), ['support']);
    const page = await context.newPage();
    await page.goto(`${site().baseUrl}/admin/#/purchase-user-transfers`);
    // The list opens on the transfers owners started; the state filter then narrows it (wait for that answer, or a
    // click could land on the row being replaced).
    const narrowed = page.waitForResponse(
      (r) =>
        r.url().includes('/api/admin/purchase-user-transfers?') &&
        decodeURIComponent(r.url()).includes('"transferState":"INITIATED"'),
    );
    await chooseOption(page, 'State', 'Initiated');
    await narrowed;
    await page.getByText('1-1 of 1').waitFor();
    const row = page.getByRole('row', { name: /Gil Giver/ });
    await row.getByText('Initiated', { exact: true }).waitFor();
    await row.getByText('TypeScript Fundamentals').waitFor();
    await keepScreenshot(page, 'console-transfers');
    await row.getByRole('cell').first().click();

    await page.waitForURL(new RegExp(`/purchase-user-transfers/${transfer.id}/show`));
    const history = transfersTable(page);
    await history.getByRole('row', { name: /friend@example\.com/ }).waitFor();
    expect(await history.getByRole('row').count()).toBe(2); // the header and this transfer
    await page.getByRole('button', { name: 'Cancel transfer' }).click();
    await dialog(page).getByRole('heading', { name: 'Cancel transfer' }).waitFor();
    await dialog(page).getByText('Cancel the transfer of this purchase to friend@example.com?').waitFor();
    await keepScreenshot(page, 'console-transfer-cancel-confirm');
    await dialog(page).getByRole('button', { name: 'Cancel transfer' }).click();
    await page
      .getByText('Canceled the transfer to friend@example.com. The purchase can be offered again until', {
        exact: false,
      })
      .waitFor();
    await dialog(page).waitFor({ state: 'detached' });

    // The history now reads: this one canceled, a fresh one available with the same deadline.
    await history.getByRole('row', { name: /Available.*giver@example\.com/ }).waitFor();
    await history.getByRole('row', { name: /Canceled.*friend@example\.com/ }).waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'Cancel transfer' }).count()).toBe(0);
    await keepScreenshot(page, 'console-transfer-history');

    const rows = await PurchaseUserTransfer.query(db()).where({ purchaseId: offered.id }).orderBy('createdAt');
    expect(rows).toEqual([
      expect.objectContaining({ id: transfer.id, transferState: 'CANCELED', canceledAt: expect.any(Date) }),
      expect.objectContaining({
        transferState: 'AVAILABLE',
        sourceUserId: giver.id,
        targetUserId: null,
        expiresAt: transfer.expiresAt,
      }),
    ]);
    expect(await db()('auditLogs').where({ action: 'transfer.canceled', recordId: transfer.id })).toHaveLength(1);
    expect((await Purchase.query(db()).findById(offered.id))!.userId).toBe(giver.id);

    // The purchase's page lists the same history.
    await page.goto(`${site().baseUrl}/admin/#/purchases/${offered.id}/show/transfers`);
    await transfersTable(page)
      .getByRole('row', { name: /Canceled.*friend@example\.com/ })
      .waitFor();
    await transfersTable(page)
      .getByRole('row', { name: /Available.*giver@example\.com/ })
      .waitFor();
    await context.close();
  });

  it('lets support move a purchase to another email, with the API’s refusals on the field', async () => {
    const context = await signedInContext(site().browser, site().baseUrl, db(), ['support']);
    const page = await context.newPage();

    // Not for team seats or team purchases.
    await page.goto(`${site().baseUrl}/admin/#/purchases/${seats.two.id}/show`);
    await page.getByText('Team seat', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Move to another email' }).count()).toBe(0);

    await page.goto(`${site().baseUrl}/admin/#/purchases/${moveId}/show`);
    await page.getByRole('button', { name: 'Move to another email' }).click();
    await dialog(page).getByRole('heading', { name: 'Move to another email' }).waitFor();
    const email = dialog(page).getByLabel("New owner's email");
    await dialog(page).getByRole('button', { name: 'Continue' }).click();
    await dialog(page).getByText('Enter the email address of the new owner.').waitFor();
    await email.fill('not an email');
    await dialog(page).getByRole('button', { name: 'Continue' }).click();
    await dialog(page).getByText('Enter an email address, e.g. name@example.com.').waitFor();
    expect(await email.getAttribute('aria-invalid')).toBe('true');

    // Someone who already has the course (a team seat): the API refuses, on the email input.
    await email.fill('member.two@example.com');
    await dialog(page).getByRole('button', { name: 'Continue' }).click();
    await dialog(page)
      .getByText('Move this purchase from wrong.address@example.com to member.two@example.com?')
      .waitFor();
    await dialog(page).getByRole('button', { name: 'Move', exact: true }).click();
    await dialog(page).getByText('already owns this course').waitFor();
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    expect((await Purchase.query(db()).findById(moveId))!.userId).not.toBe(seats.two.userId);

    await email.fill('New@Example.com');
    await dialog(page).getByRole('button', { name: 'Continue' }).click();
    await dialog(page).getByText('Move this purchase from wrong.address@example.com to new@example.com?').waitFor();
    await keepScreenshot(page, 'console-purchase-move-confirm');
    await dialog(page).getByRole('button', { name: 'Move', exact: true }).click();
    await page.getByText('Moved the purchase from wrong.address@example.com to new@example.com.').waitFor();
    await dialog(page).waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'new@example.com' }).waitFor(); // the buyer shown is the new owner

    const recipient = await db()('users').where({ email: 'new@example.com' }).first();
    const previous = await db()('users').where({ email: 'wrong.address@example.com' }).first();
    const purchase = (await Purchase.query(db()).findById(moveId))!;
    expect(purchase.userId).toBe(recipient.id);
    // Who paid does not change: the charge and its invoice stay the payer's.
    expect((await db()('merchantCharges').where({ id: purchase.merchantChargeId }).first()).userId).toBe(previous.id);
    // Recorded as a completed transfer; the offer the checkout had opened (AVAILABLE) is closed.
    const transfers = await PurchaseUserTransfer.query(db()).where({ purchaseId: moveId }).orderBy('createdAt');
    expect(transfers.at(-1)).toMatchObject({
      transferState: 'COMPLETED',
      sourceUserId: previous.id,
      targetUserId: recipient.id,
      completedAt: expect.any(Date),
    });
    expect(transfers.slice(0, -1).map((t) => t.transferState)).toEqual(transfers.slice(0, -1).map(() => 'CANCELED'));
    expect(
      await db()('auditLogs').where({ action: 'transfer.moved-by-support', resource: 'purchases', recordId: moveId }),
    ).toEqual([
      expect.objectContaining({
        before: expect.objectContaining({ email: 'wrong.address@example.com' }),
        after: expect.objectContaining({ email: 'new@example.com' }),
      }),
    ]);

    await page.getByRole('tab', { name: 'Transfers' }).click();
    await transfersTable(page)
      .getByRole('row', { name: /Completed.*wrong\.address@example\.com.*new@example\.com/ })
      .waitFor();
    await keepScreenshot(page, 'console-purchase-moved', { still: true });
    await context.close();
  });
});
