import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { Coupon, OutboxEmail, Product, Purchase } from '../support/models';
import { createPurchase } from '../../seeds/factories';
import { runSeeds } from '../../seeds/run';
import { testApp } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';

describe('an owner buying again from the product page (docs/domain.md §5.3, §5.5)', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let fundamentals: Product;
  const app = () => testApp(db());

  beforeAll(async () => {
    await runSeeds(db(), { demo: true });
    // Buyers here are US visitors who name no state: tax where it depends on one is checkout-tax.test.ts's.
    await db()('taxRegistrations').where({ country: 'US' }).delete();
    fundamentals = (await Product.query(db()).findOne({ key: 'typescript-fundamentals' }))!;
  });

  const quote = (who: SignedIn, query: Record<string, string | number> = {}) =>
    as(who, request(app()).get(`/api/store/products/${fundamentals.id}/quote`).query(query));
  const checkout = (who: SignedIn, body: object) =>
    as(who, request(app()).post('/api/store/checkout')).send({ productId: fundamentals.id, ...body });
  async function pay(url: string, checkoutId: string) {
    const { pathname } = new URL(url);
    expect((await request(app()).post(`${pathname}/pay`)).status).toBe(303);
    return (await request(app()).get(`/api/store/checkouts/${checkoutId}`)).body;
  }

  it('unlocks a regional purchase at the full price less what was paid, ending Valid and open from anywhere', async () => {
    const abroad = await signedIn(db());
    const regional = await createPurchase(db(), {
      user: abroad.user,
      product: fundamentals,
      status: 'Restricted',
      country: 'IN',
      totalAmount: 1225,
    });
    // $49.00 less the 20 % sale is $39.20; the $12.25 paid comes off: $26.95, with no regional price on offer.
    const unlock = await quote(abroad, { ppp: 'true' });
    expect(unlock.status).toBe(200);
    expect(unlock.body.quote).toMatchObject({ finalPrice: 2695, restricted: false });
    expect(unlock.body.upgrade).toMatchObject({ fromPurchaseId: regional.id, fromProductId: fundamentals.id });
    expect(unlock.body.team).toBeNull();

    const started = await checkout(abroad, { upgradeFrom: regional.id, ppp: true });
    expect(started.status).toBe(201);
    const outcome = await pay(started.body.url, started.body.checkoutId);
    expect(outcome).toMatchObject({ status: 'fulfilled', team: null, receipt: { amount: 2695 } });
    const bought = (await Purchase.query(db()).findById(outcome.purchaseId))!;
    expect(bought).toMatchObject({ status: 'Valid', upgradedFromId: regional.id, totalAmount: 2695 });

    const owned = await as(abroad, request(app()).get('/api/store/owned-products'));
    expect(owned.body.data).toEqual([fundamentals.id]);
    // Unlocked: nothing more to unlock, and another copy is a seat to give away.
    const after = await quote(abroad);
    expect(after.body.upgrade).toBeNull();
    expect(after.body.team).toMatchObject({ seats: 1 });
  });

  it('buys seats for a team as an owner: a team purchase whose seats are all to give away', async () => {
    const owner = await signedIn(db());
    await createPurchase(db(), { user: owner.user, product: fundamentals, totalAmount: 3920 });
    const priced = await quote(owner, { quantity: 3, team: 'true' });
    expect(priced.body.team).toEqual({ seats: 3, existingSeats: 0 });
    const started = await checkout(owner, { quantity: 3, team: true });
    expect(started.status).toBe(201);
    const outcome = await pay(started.body.url, started.body.checkoutId);
    expect(outcome.team).toMatchObject({ seats: 3, buyerHasCourse: true, ownerHasSeat: false, gift: false });
    expect(outcome.team.inviteUrl).toMatch(/\/invites\//);
    // The receipt does not ask an owner to take a seat of their own.
    const receipt = (await OutboxEmail.query(db())
      .where({ toAddress: owner.user.email, kind: 'receipt' })
      .orderBy('createdAt', 'desc')
      .first())!;
    expect(receipt.textBody).toContain('You already have the course, so every seat is one to give away.');
    expect(receipt.textBody).not.toContain('take your own seat');
  });

  it('gives one seat as a gift: a team of its own whose claim link the buyer sends, taken by one person', async () => {
    const owner = await signedIn(db());
    await createPurchase(db(), { user: owner.user, product: fundamentals, totalAmount: 3920 });
    // The owner's team for colleagues, bought first: the gift must not become one of its seats.
    const team = await checkout(owner, { quantity: 2, team: true });
    const teamOutcome = await pay(team.body.url, team.body.checkoutId);

    const refused = await checkout(owner, { quantity: 2, gift: true });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toMatchObject({ quantity: 'must be 1 for a gift' });

    const gift = await checkout(owner, { gift: true });
    expect(gift.status).toBe(201);
    expect(await db()('checkouts').where({ id: gift.body.checkoutId }).first('team', 'quantity', 'gift')).toEqual({
      team: true,
      quantity: 1,
      gift: true,
    });
    const outcome = await pay(gift.body.url, gift.body.checkoutId);
    expect(outcome.team).toMatchObject({ seats: 1, gift: true, buyerHasCourse: true });
    expect(outcome.team.teamId).not.toBe(teamOutcome.team.teamId);
    expect(outcome.team.inviteUrl).not.toBe(teamOutcome.team.inviteUrl);
    const giftCoupon = (await Coupon.query(db()).findOne({ bulkPurchaseId: outcome.purchaseId }))!;
    expect(giftCoupon.maxUses).toBe(1);

    // The receipt speaks of a gift and gives the claim link to send, not a seat to take.
    const receipt = (await OutboxEmail.query(db())
      .where({ toAddress: owner.user.email, kind: 'receipt' })
      .orderBy('createdAt', 'desc')
      .first())!;
    expect(receipt.textBody).toContain('Thank you for buying TypeScript Fundamentals as a gift');
    expect(receipt.textBody).toContain(`Send this claim link to the person you are giving TypeScript Fundamentals to`);
    expect(receipt.textBody).toContain(outcome.team.inviteUrl);
    expect(receipt.textBody).not.toContain('take your own seat');

    // More seats later go to the owner's team, never onto the gift.
    const more = await checkout(owner, { quantity: 1, team: true });
    await pay(more.body.url, more.body.checkoutId);
    expect((await Coupon.query(db()).findById(giftCoupon.id))!.maxUses).toBe(1);
    expect((await Coupon.query(db()).findOne({ bulkPurchaseId: teamOutcome.purchaseId }))!.maxUses).toBe(3);

    // The person it was given to claims it with the link; a second person cannot.
    const code = new URL(outcome.team.inviteUrl).pathname.split('/').pop()!;
    expect((await request(app()).get(`/api/store/invites/${code}`)).body).toMatchObject({ gift: true, seatsFree: 1 });
    const teamCode = new URL(teamOutcome.team.inviteUrl).pathname.split('/').pop()!;
    expect((await request(app()).get(`/api/store/invites/${teamCode}`)).body).toMatchObject({ gift: false });
    const friend = await signedIn(db());
    const claimed = await as(friend, request(app()).post(`/api/store/invites/${code}/redeem`)).send();
    expect(claimed.status).toBe(201);
    const seat = await Purchase.query(db()).findOne({ userId: friend.user.id, productId: fundamentals.id });
    expect(seat).toMatchObject({ status: 'Valid', redeemedBulkCouponId: giftCoupon.id });
    const stranger = await signedIn(db());
    const late = await as(stranger, request(app()).post(`/api/store/invites/${code}/redeem`)).send();
    expect({ status: late.status, code: late.body.code }).toEqual({ status: 409, code: 'coupon-used-up' });
  });
});
