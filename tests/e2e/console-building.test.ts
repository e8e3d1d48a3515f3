import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { Coupon, Product, Purchase } from '../support/models';
import { ContentResource } from '../../api/src/learning/models';
import { createCoupon, createPurchase, createResource, createUser } from '../../seeds/factories';
import { runSeeds } from '../../seeds/run';
import { signedInByEmail } from '../support/auth';
import {
  CONSOLE_WIDTHS,
  checkScreen,
  contextFor,
  keepScreenshot,
  signedInContext,
  useDemoSite,
} from '../support/browser';

/** Support's daily tools in the console: a team's seats and invite link, an outline built in place, a draft product. */
describe('support builds teams, outlines and products in the console (Chromium)', () => {
  const site = useDemoSite((db) => runSeeds(db, { demo: true }));
  const db = () => site().db;
  const SUPPORT = 'support.builder@example.com';
  let page: Page;
  let product: Product;
  let team: Purchase;
  let coupon: Coupon;

  beforeAll(async () => {
    product = (await Product.query(db()).findOne({ key: 'typescript-fundamentals' }))!;
    const owner = await createUser(db(), { email: 'team.owner@example.com', name: 'Olga Owner' });
    team = await createPurchase(db(), { user: owner, product, totalAmount: 3 * 4900 });
    coupon = await createCoupon(db(), {
      code: null,
      percentageDiscount: 1,
      maxUses: 3,
      restrictedToProductId: product.id,
      bulkPurchaseId: team.id,
    });
    await db()('purchases').where({ id: team.id }).update({ bulkCouponId: coupon.id });
    for (const [email, name] of [
      ['member.kept@example.com', 'Kim Kept'],
      ['member.gone@example.com', 'Gus Gone'],
    ]) {
      const member = await createUser(db(), { email, name });
      await Purchase.query(db()).insert({
        userId: member.id,
        productId: product.id,
        status: 'Valid',
        totalAmount: 0,
        redeemedBulkCouponId: coupon.id,
        couponId: coupon.id,
      });
    }
    await db()('coupons').where({ id: coupon.id }).update({ usedCount: 2 });
    const context = await signedInContext(site().browser, site().baseUrl, db(), ['support'], SUPPORT);
    page = await context.newPage();
  });

  const dialog = () => page.getByRole('dialog');
  const inviteCode = async () => (await Coupon.query(db()).findById(coupon.id))!.inviteCode;

  it('adds seats and rotates the invite link of a team, and shows its revoked members', async () => {
    await page.goto(`${site().baseUrl}/admin/#/bulk-purchases/${team.id}/show`);
    await page.getByText('3 seats: 2 used, 1 free').waitFor();
    await page.getByText('The buyer (team.owner@example.com) has not claimed a seat', { exact: false }).waitFor();

    // Add seats: a comp with a reason, audited.
    await page.getByRole('button', { name: 'Add seats' }).click();
    await dialog().getByLabel('Seats to add').fill('4');
    await dialog().getByText('The team will have 7 seats.').waitFor();
    await dialog().getByLabel('Reason').fill('Sales promised four more seats');
    await keepScreenshot(page, 'console-building-add-seats');
    await dialog().getByRole('button', { name: 'Add seats' }).click();
    await page.getByText('Added 4 seats: the team has 7, 5 free.').waitFor();
    await dialog().waitFor({ state: 'detached' });
    await page.getByText('7 seats: 2 used, 5 free').waitFor();
    expect((await Coupon.query(db()).findById(coupon.id))!.maxUses).toBe(7);
    expect(await db()('auditLogs').where({ action: 'team.seats-added', recordId: team.id }).first()).toMatchObject({
      actorEmail: SUPPORT,
      after: { seats: 7, added: 4, reason: 'Sales promised four more seats', charged: 0 },
    });

    // Rotate the invite link: the new one is shown, the old one refused on the storefront at once.
    const old = await inviteCode();
    await page.getByText(`/invites/${old}`).waitFor();
    await page.getByRole('button', { name: 'Rotate link' }).click();
    await dialog().getByText('Replace the invite link with a new one?').waitFor();
    await dialog().getByRole('button', { name: 'Rotate link' }).click();
    await page.getByText('New invite link made; the old one no longer works.').waitFor();
    await expect.poll(inviteCode).not.toBe(old);
    await page.getByText(`/invites/${await inviteCode()}`).waitFor();
    expect(await page.getByText(`/invites/${old}`).count()).toBe(0);

    // A member's seat revoked: listed with when and by whom, and kept out until let back in.
    const members = page.getByRole('table', { name: 'Members' });
    await members
      .getByRole('row', { name: /member\.gone@example\.com/ })
      .getByRole('button', { name: 'Revoke seat' })
      .click();
    await dialog().getByRole('button', { name: 'Revoke seat' }).click();
    await page.getByText('7 seats: 1 used, 6 free').waitFor();
    const ended = page.getByRole('table', { name: 'Revoked and ended seats' }).getByRole('row', { name: /Gus Gone/ });
    await ended.getByText('Seat revoked', { exact: true }).waitFor();
    await ended.getByText(SUPPORT).waitFor();
    await ended.getByText('Support removed this seat from the team.').waitFor();
    const removed = page.getByRole('table', { name: 'Removed from the team' });
    await removed.getByRole('button', { name: 'Let member.gone@example.com back in' }).waitFor();
    await checkScreen(page, 'console-building-team', { widths: CONSOLE_WIDTHS });

    // The owner's team page on the storefront shows the new total; the old invite link explains itself.
    const owner = await contextFor(
      site().browser,
      site().baseUrl,
      await signedInByEmail(db(), 'team.owner@example.com'),
    );
    const storefront = await owner.newPage();
    await storefront.goto(`${site().baseUrl}/teams/${team.id}`);
    const seats = storefront.getByRole('region', { name: 'Seats', exact: true });
    await expect.poll(async () => (await seats.textContent()) ?? '').toContain('7 seats in all: 1 taken, 6 free');
    await storefront.goto(`${site().baseUrl}/invites/${old}`);
    await storefront.getByRole('heading', { name: 'This invite link is not valid' }).waitFor();
    await storefront.getByText('the team’s owner may have replaced it with a new one', { exact: false }).waitFor();
    await owner.close();
  });

  it('builds a course outline in place: a module and a lesson, titled, with their slugs', async () => {
    const course = await createResource(db(), 'course', { title: 'Outline Building Course' });
    await page.goto(`${site().baseUrl}/admin/#/content-resources/${course.id}/show`);
    await page.getByText('Nothing inside this course yet.').waitFor();

    await page.getByRole('button', { name: 'Add a new module to Outline Building Course' }).click();
    const moduleTitle = page.getByLabel('Module title');
    await moduleTitle.fill('Café & Crème');
    await moduleTitle.press('Enter');
    const module = page.getByRole('listitem', { name: 'Module: Café & Crème' });
    await module.getByText('cafe-creme', { exact: true }).waitFor();
    // The field stays open for the next one: the same title gets the next free slug.
    await expect.poll(() => moduleTitle.inputValue()).toBe('');
    await moduleTitle.fill('Café & Crème');
    await moduleTitle.press('Enter');
    await page.getByText('cafe-creme-2', { exact: true }).waitFor();
    await moduleTitle.press('Escape');

    await module.first().getByRole('button', { name: 'Add new content inside Café & Crème' }).first().click();
    await page.getByRole('button', { name: 'Add a new lesson to Café & Crème' }).first().click();
    const lessonTitle = page.getByLabel('Lesson title');
    await lessonTitle.fill('First Steps');
    await lessonTitle.press('Enter');
    await page
      .getByRole('listitem', { name: 'Lesson: First Steps' })
      .getByText('first-steps', { exact: true })
      .waitFor();
    await lessonTitle.press('Escape');
    await checkScreen(page, 'console-building-outline', { widths: CONSOLE_WIDTHS });

    const made = await ContentResource.query(db()).whereRaw(`fields->>'slug' IN ('cafe-creme', 'first-steps')`);
    expect(made.map((r) => [r.type, r.fields.slug, r.fields.state]).sort()).toEqual([
      ['lesson', 'first-steps', 'draft'],
      ['module', 'cafe-creme', 'draft'],
    ]);
    const modules = await db()('contentResourceResources').where({ resourceOfId: course.id }).orderBy('position');
    expect(modules).toHaveLength(2);
    const lesson = made.find((r) => r.type === 'lesson')!;
    expect(
      await db()('contentResourceResources').where({ resourceOfId: modules[0].resourceId, resourceId: lesson.id }),
    ).toHaveLength(1);
  });

  it('creates a product as a draft, said on the form, and shows it as Draft', async () => {
    await page.goto(`${site().baseUrl}/admin/#/products/create`);
    await page.getByText('A new product starts as a draft', { exact: false }).waitFor();
    await page.getByLabel('Name').fill('Draft Patterns');
    await page.getByLabel('First price (in dollars)').fill('59');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect
      .poll(async () => (await Product.query(db()).findOne({ name: 'Draft Patterns' }))?.status, { timeout: 10_000 })
      .toBe('draft');
    const draft = (await Product.query(db()).findOne({ name: 'Draft Patterns' }))!;
    await page.waitForURL(new RegExp(`#/products/${draft.id}/show$`));
    await page.getByText('Draft', { exact: true }).first().waitFor();
    await page.goto(`${site().baseUrl}/admin/#/products`);
    await page
      .getByRole('row', { name: /Draft Patterns/ })
      .getByText('Draft', { exact: true })
      .waitFor();
    await checkScreen(page, 'console-building-products', { widths: CONSOLE_WIDTHS });
  });
});
