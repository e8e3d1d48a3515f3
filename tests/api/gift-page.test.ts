import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { Product, Purchase } from '../support/models';
import { createPurchase } from '../../seeds/factories';
import { runSeeds } from '../../seeds/run';
import { testApp } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';
import { lastEmailTo } from '../support/outbox';

describe("a gift's own page: the team answers say gift (docs/domain.md §7)", () => {
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

  const call = (who: SignedIn, method: 'get' | 'post' | 'delete', path: string) =>
    as(who, request(app())[method](`/api/store${path}`)).send();
  /** Checks out and pays on the built-in provider's page: the checkout's outcome. */
  async function bought(who: SignedIn, body: object) {
    const started = await as(who, request(app()).post('/api/store/checkout')).send({
      productId: fundamentals.id,
      ...body,
    });
    expect(started.status).toBe(201);
    expect((await request(app()).post(`${new URL(started.body.url).pathname}/pay`)).status).toBe(303);
    return (await request(app()).get(`/api/store/checkouts/${started.body.checkoutId}`)).body;
  }

  it('answers gift on the team page, the teams list and My purchases; the buyer cannot claim it; one friend can', async () => {
    const buyer = await signedIn(db());
    await createPurchase(db(), { user: buyer.user, product: fundamentals, totalAmount: 3920 });
    const team = (await bought(buyer, { quantity: 2, team: true })).purchaseId as string;
    const outcome = await bought(buyer, { gift: true });
    const gift = outcome.purchaseId as string;

    const page = await call(buyer, 'get', `/teams/${gift}`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ purchaseId: gift, gift: true, seats: { total: 1, used: 0, free: 1 } });
    expect((await call(buyer, 'get', `/teams/${team}`)).body).toMatchObject({ gift: false });
    const listed = (await call(buyer, 'get', '/teams')).body.data as { purchaseId: string; gift: boolean }[];
    expect(listed.map((t) => [t.purchaseId, t.gift])).toEqual([
      [gift, true],
      [team, false],
    ]);
    const mine = (await call(buyer, 'get', '/purchases')).body.data as { id: string; team: { gift: boolean } }[];
    expect(mine.find((p) => p.id === gift)!.team).toMatchObject({ gift: true, seats: 1, used: 0 });
    expect(mine.find((p) => p.id === team)!.team).toMatchObject({ gift: false });

    // The buyer spends it on nobody: neither from the gift's page nor through its claim link.
    const code = new URL(outcome.team.inviteUrl).pathname.split('/').pop()!;
    for (const attempt of [
      call(buyer, 'post', `/teams/${gift}/claim`),
      call(buyer, 'post', `/invites/${code}/redeem`),
    ]) {
      const refused = await attempt;
      expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 409, code: 'gift-not-for-buyer' });
    }
    expect((await call(buyer, 'get', `/teams/${gift}`)).body.seats).toEqual({ total: 1, used: 0, free: 1 });

    // The friend claims it; the buyer's page shows who and when, as a team's members are shown to its owner.
    const friend = await signedIn(db());
    const seat = (await call(friend, 'post', `/invites/${code}/redeem`)).body.purchaseId as string;
    expect(seat).toBeTruthy();
    const theirs = (await call(friend, 'get', '/purchases')).body.data as { id: string; seatFromGift: boolean }[];
    expect(theirs.find((p) => p.id === seat)).toMatchObject({ seatFromGift: true });
    const claimed = (await call(buyer, 'get', `/teams/${gift}`)).body;
    expect(claimed).toMatchObject({ gift: true, seats: { used: 1, free: 0 }, ownerHasSeat: false });
    expect(claimed.members).toEqual([expect.objectContaining({ userId: friend.user.id, you: false })]);
    expect(await Purchase.query(db()).where({ userId: buyer.user.id }).whereNotNull('redeemedBulkCouponId')).toEqual(
      [],
    );

    // Taken back: said as a gift, to the friend and on their purchase, not as a team's seat.
    expect((await call(buyer, 'delete', `/teams/${gift}/members/${seat}`)).status).toBe(200);
    expect(await Purchase.query(db()).findById(seat)).toMatchObject({
      status: 'Revoked',
      statusReason: 'The gift’s buyer took it back.',
    });
    const told = await lastEmailTo(db(), friend.user.email);
    expect(told.subject).toBe('Your gift of TypeScript Fundamentals was taken back');
    expect(told.textBody).toContain(`taken back by the person who gave it to you (${buyer.user.email})`);
    expect(told.textBody).not.toContain('team');
  });

  it("still lets a team's buyer take one of its seats", async () => {
    const buyer = await signedIn(db());
    const team = (await bought(buyer, { quantity: 2, team: true })).purchaseId as string;
    const claimed = await call(buyer, 'post', `/teams/${team}/claim`);
    expect(claimed.status).toBe(200);
    expect(claimed.body).toMatchObject({ gift: false, ownerHasSeat: true });
  });
});
