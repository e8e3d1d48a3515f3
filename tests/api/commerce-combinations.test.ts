import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { seatsSold } from '../../api/src/catalog/seats-sold';
import { Coupon, Purchase } from '../support/models';
import { createServices, type Services } from '../../api/src/services';
import { createCoupon, createCourse, createProduct, makeUpgradable } from '../../seeds/factories';
import { testDeps } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { boughtWithTestProvider, sessionOfCheckout } from '../support/checkout';
import { useTestDatabase } from '../support/db';
import { GRANTING_STATUSES } from '../../api/src/shared/purchase-status';

/**
 * The combinations of features that broke money and access (each case fails on the code before the fix); the
 * model-based test in tests/reliability/commerce-model.test.ts explores the rest.
 */
describe('commerce combinations', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let services: Services;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;

  beforeAll(async () => {
    const deps = testDeps(db());
    services = createServices(deps);
    app = createApp(deps, { services }).callback();
  });

  const store = (who: SignedIn | undefined, method: 'get' | 'post' | 'delete', path: string, body?: object) =>
    as(who, request(app)[method](`/api/store${path}`)).send(body);
  const teamCoupon = async (teamId: string) =>
    (await Coupon.query(db()).findById((await Purchase.query(db()).findById(teamId))!.bulkCouponId!))!;

  it('counts a team once however many purchases added seats to it (5 + 3 is 8 seats, the 15 % tier)', async () => {
    const course = await createProduct(db(), { name: 'Seats Course', unitAmount: 10_000, quantityAvailable: 20 });
    const owner = await signedIn(db());
    const teamId = await boughtWithTestProvider(services, db(), {
      buyer: owner.user,
      productId: course.id,
      quantity: 5,
    });
    await boughtWithTestProvider(services, db(), { buyer: owner.user, productId: course.id, quantity: 3 });

    const quote = await as(
      owner,
      request(app).get(`/api/store/products/${course.id}/quote`).query({ quantity: 1, team: true }),
    );
    expect(quote.body.team).toEqual({ seats: 9, existingSeats: 8 });
    expect(quote.body.quote.discount).toMatchObject({ kind: 'team', bp: 1500 });
    expect((await teamCoupon(teamId)).maxUses).toBe(8);
    // The seat limit counts them once too: 12 of 20 are left, not 4.
    expect(await seatsSold(db(), course.id)).toBe(8);
    const listed = (await request(app).get('/api/store/products')).body.data.find(
      (p: { id: string }) => p.id === course.id,
    );
    expect(listed.seatsLeft).toBe(12);
  });

  it('keeps a revoked member out of the team until the owner lets them back in; a reset link stops the old one', async () => {
    const course = await createProduct(db(), { name: 'Revoked Course', unitAmount: 10_000 });
    const owner = await signedIn(db());
    const teamId = await boughtWithTestProvider(services, db(), {
      buyer: owner.user,
      productId: course.id,
      quantity: 2,
    });
    const { inviteCode } = await teamCoupon(teamId);
    const member = await signedIn(db());
    const seat = (await store(member, 'post', `/invites/${inviteCode}/redeem`)).body.purchaseId;

    const revoked = await store(owner, 'delete', `/teams/${teamId}/members/${seat}`);
    expect(revoked.body.revoked).toEqual([
      expect.objectContaining({ userId: member.user.id, email: member.user.email }),
    ]);
    const told = await db()('outboxEmails').where({ toAddress: member.user.email, kind: 'team-seat-revoked' }).first();
    expect(told.subject).toBe('Your seat in Revoked Course was removed');

    const again = await store(member, 'post', `/invites/${inviteCode}/redeem`);
    expect(again.status).toBe(403);
    expect(again.body.code).toBe('seat-revoked');
    // Only the revoked seat, kept for the history: no live one was taken.
    expect(
      (await Purchase.query(db()).where({ userId: member.user.id, productId: course.id })).map((p) => p.status),
    ).toEqual(['Revoked']);

    const reset = await store(owner, 'post', `/teams/${teamId}/invite/reset`);
    expect(reset.status).toBe(200);
    const fresh = (await teamCoupon(teamId)).inviteCode;
    expect(fresh).not.toBe(inviteCode);
    expect(reset.body.inviteUrl).toBe(`http://localhost:3000/invites/${fresh}`);
    const stranger = await signedIn(db());
    expect((await store(stranger, 'post', `/invites/${inviteCode}/redeem`)).body.code).toBe('coupon-not-found');
    expect((await store(undefined, 'get', `/invites/${inviteCode}`)).status).toBe(400);
    expect((await store(member, 'post', `/invites/${fresh}/redeem`)).body.code).toBe('seat-revoked');
    // Only the owner manages the team.
    expect((await store(stranger, 'post', `/teams/${teamId}/revoked/${member.user.id}/readmit`)).status).toBe(404);
    expect((await store(stranger, 'post', `/teams/${teamId}/invite/reset`)).status).toBe(404);

    const back = await store(owner, 'post', `/teams/${teamId}/revoked/${member.user.id}/readmit`);
    expect(back.body.revoked).toEqual([]);
    expect((await store(member, 'post', `/invites/${fresh}/redeem`)).status).toBe(201);
    expect((await store(owner, 'post', `/teams/${teamId}/revoked/${member.user.id}/readmit`)).status).toBe(404);
  });

  it('takes upgrade credit off after the sale, and spends it once: the source is no longer transferable or refundable first', async () => {
    const basics = await createProduct(db(), { name: 'Upgrade Basics', unitAmount: 4900 });
    const pro = await createProduct(db(), { name: 'Upgrade Pro', unitAmount: 19_900 });
    await makeUpgradable(db(), basics, pro);
    for (const product of [basics, pro])
      await createCoupon(db(), {
        code: null,
        default: true,
        percentageDiscount: 0.2,
        restrictedToProductId: product.id,
      });
    const buyer = await signedIn(db());
    const sourceId = await boughtWithTestProvider(services, db(), { buyer: buyer.user, productId: basics.id });
    expect((await Purchase.query(db()).findById(sourceId))!.totalAmount).toBe(3920);
    // The source's transfer was offered to someone before the upgrade.
    const offer = await store(buyer, 'post', `/purchases/${sourceId}/transfer`, { email: 'friend@example.com' });
    expect(offer.status).toBe(200);

    const quote = await as(buyer, request(app).get(`/api/store/products/${pro.id}/quote`));
    expect(quote.body.quote).toMatchObject({
      fullPrice: 19_900,
      discount: { kind: 'default-coupon', amount: 3980 },
      credit: 3920,
      finalPrice: 12_000,
    });
    const upgradeId = await boughtWithTestProvider(services, db(), {
      buyer: buyer.user,
      productId: pro.id,
      upgradeFromId: sourceId,
    });
    const upgrade = (await Purchase.query(db()).findById(upgradeId))!;
    expect(upgrade).toMatchObject({ totalAmount: 12_000, upgradedFromId: sourceId });
    expect(3920 + upgrade.totalAmount).toBe(19_900 - 3980); // what Pro cost that day

    // Spent once: the offer is canceled, no new one opens, and the recipient cannot take it.
    expect(
      await db()('purchaseUserTransfers')
        .where({ purchaseId: sourceId })
        .whereIn('transferState', ['AVAILABLE', 'INITIATED', 'VERIFIED']),
    ).toHaveLength(0);
    expect((await store(buyer, 'get', `/purchases/${sourceId}/transfer`)).body).toMatchObject({ data: null });
    expect(
      (await store(buyer, 'post', `/purchases/${sourceId}/transfer`, { email: 'other@example.com' })).body.code,
    ).toBe('transfer-not-available');
    expect(
      (
        await as(await signedIn(db()), request(app).get(`/api/store/products/${pro.id}/quote`)).query({
          upgradeFrom: sourceId,
        })
      ).body.code,
    ).toBe('upgrade-not-available');

    // Refunding the source needs the upgrade refunded first.
    const support = await signedIn(db(), ['support']);
    const refund = (id: string) =>
      as(support, request(app).post(`/api/admin/purchases/${id}/refund`)).send({
        reasonCode: 'customer-request',
        reason: 'asked',
      });
    const refused = await refund(sourceId);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('purchase-upgraded');
    expect((await refund(upgradeId)).status).toBe(200);
    expect((await refund(sourceId)).status).toBe(200);

    // The invoice shows the credit as its own line.
    const invoice = await store(buyer, 'get', `/invoices/${upgrade.merchantChargeId}`);
    expect(invoice.body).toMatchObject({
      lines: [
        { kind: 'item', description: 'Upgrade Pro', amount: 19_900 },
        { kind: 'discount', description: 'Sale (20 %)', amount: -3980 },
        { kind: 'credit', description: 'Upgrade credit: Upgrade Basics', amount: -3920 },
      ],
      subtotal: 19_900,
      discount: 3980 + 3920,
      total: 12_000,
    });
  });

  it("answers a guest the same for an owning address and a stranger's, and makes the owner's payment a one-seat team whose receipt says so", async () => {
    const course = await createProduct(db(), { name: 'Guest Course', unitAmount: 5000 });
    const owner = await signedIn(db());
    const stranger = `stranger-${course.id}@example.com`;
    await boughtWithTestProvider(services, db(), { buyer: owner.user, productId: course.id });
    const checkout = (email: string) => request(app).post('/api/store/checkout').send({ productId: course.id, email });

    // Nothing in the answer tells the two addresses apart: status, content type, the body's shape and its values once
    // the provider session's own id is taken out.
    const answers = [await checkout(owner.user.email.toUpperCase()), await checkout(stranger)];
    const shape = (answer: request.Response) => ({
      status: answer.status,
      type: answer.headers['content-type'],
      keys: Object.keys(answer.body).sort(),
      url: String(answer.body.url).replace(/cs_test_[0-9a-f]+/, '<session>'),
    });
    expect(answers[0]!.status, JSON.stringify(answers[0]!.body)).toBe(201);
    expect(shape(answers[0]!)).toEqual(shape(answers[1]!));
    const rows = await db()('checkouts')
      .whereIn(
        'id',
        answers.map((a) => a.body.checkoutId),
      )
      .orderBy('createdAt')
      .select('team', 'quantity', 'amountTotal', 'status');
    expect(rows[0]).toEqual(rows[1]);

    // Paid anyway: no duplicate, the copy is a seat to give away, and the receipt says why and offers the refund.
    const ownersCheckout = answers[0]!.body.checkoutId;
    await services.testProvider.pay(await sessionOfCheckout(db(), ownersCheckout));
    const settled = (await request(app).get(`/api/store/checkouts/${ownersCheckout}`)).body;
    expect(settled).toMatchObject({ status: 'fulfilled', team: { seats: 1, ownerHasSeat: false } });
    const theirs = await Purchase.query(db()).where({ userId: owner.user.id, productId: course.id, status: 'Valid' });
    expect(theirs.filter((p) => !p.bulkCouponId)).toHaveLength(1);
    expect(theirs.filter((p) => p.bulkCouponId)).toHaveLength(1);
    expect((await teamCoupon(settled.purchaseId)).maxUses).toBe(1);
    const receipts = await db()('outboxEmails')
      .where({ toAddress: owner.user.email, kind: 'receipt' })
      .orderBy('createdAt', 'desc')
      .select('textBody');
    expect(receipts[0]!.textBody).toContain(`already had ${course.name}, so this payment bought a seat to give away`);
    expect(receipts[0]!.textBody).toContain('we refund it in full');
    // A first purchase's receipt says nothing of the kind.
    expect(receipts[1]!.textBody).not.toContain('already had');
  });

  it('never tells a team buyer they have access before they take a seat', async () => {
    const course = await createProduct(db(), { name: 'Team Buyer Course', unitAmount: 5000 });
    const { course: content, lessons } = await createCourse(
      db(),
      {
        title: 'Team Buyer Content',
        modules: [
          {
            title: 'M',
            sections: [
              {
                title: 'S',
                lessons: [
                  { title: 'Open', body: '<p>a</p>' },
                  { title: 'Paid', body: '<p>b</p>' },
                ],
              },
            ],
          },
        ],
      },
      { products: [course] },
    );
    await db()('contentResources')
      .whereIn('id', [content.id, ...lessons.map((l) => l.id)])
      .update({ fields: db().raw(`fields || '{"state":"published"}'::jsonb`) });
    const buyer = await signedIn(db());
    const created = await as(buyer, request(app).post('/api/store/checkout')).send({
      productId: course.id,
      quantity: 3,
    });
    await services.testProvider.pay(await sessionOfCheckout(db(), created.body.checkoutId));
    const thanks = (await request(app).get(`/api/store/checkouts/${created.body.checkoutId}`)).body;
    expect(thanks).toMatchObject({
      status: 'fulfilled',
      team: { teamId: thanks.purchaseId, seats: 3, ownerHasSeat: false },
    });
    const mine = (await store(buyer, 'get', '/purchases')).body.data[0];
    expect(mine.team).toMatchObject({ seats: 3, ownerHasSeat: false });
    const receipt = await db()('outboxEmails').where({ toAddress: buyer.user.email, kind: 'receipt' }).first();
    expect(receipt.textBody).toContain('3 seats of Team Buyer Course');
    expect(receipt.textBody).toContain('take your own seat');
    expect((await store(buyer, 'get', `/courses/${content.id}/lessons/${lessons[1]!.id}`)).body).toMatchObject({
      open: false,
      lock: { reason: 'purchase' },
    });

    await store(buyer, 'post', `/teams/${thanks.purchaseId}/claim`);
    expect((await request(app).get(`/api/store/checkouts/${created.body.checkoutId}`)).body.team.ownerHasSeat).toBe(
      true,
    );
    expect(
      (await store(buyer, 'get', '/purchases')).body.data.find((p: { id: string }) => p.id === thanks.purchaseId).team
        .ownerHasSeat,
    ).toBe(true);
    expect((await store(buyer, 'get', `/courses/${content.id}/lessons/${lessons[1]!.id}`)).body).toMatchObject({
      open: true,
    });
  });

  it('takes back only the seats a refunded add-on bought, the latest members first', async () => {
    const course = await createProduct(db(), { name: 'Add-on Course', unitAmount: 10_000 });
    const owner = await signedIn(db());
    const teamId = await boughtWithTestProvider(services, db(), {
      buyer: owner.user,
      productId: course.id,
      quantity: 2,
    });
    const addOn = await boughtWithTestProvider(services, db(), {
      buyer: owner.user,
      productId: course.id,
      quantity: 2,
    });
    const { inviteCode } = await teamCoupon(teamId);
    const members = [];
    for (let i = 0; i < 3; i++) {
      const member = await signedIn(db());
      members.push((await store(member, 'post', `/invites/${inviteCode}/redeem`)).body.purchaseId as string);
    }
    const support = await signedIn(db(), ['support']);
    expect(
      (
        await as(support, request(app).post(`/api/admin/purchases/${addOn}/refund`)).send({
          reasonCode: 'customer-request',
          reason: 'fewer people',
        })
      ).status,
    ).toBe(200);
    expect(await teamCoupon(teamId)).toMatchObject({ maxUses: 2, usedCount: 2, status: 'active' });
    const statuses = await Promise.all(members.map(async (id) => (await Purchase.query(db()).findById(id))!.status));
    expect(statuses).toEqual(['Valid', 'Valid', 'Refunded']);
    expect((await store(undefined, 'get', `/invites/${inviteCode}`)).body).toMatchObject({
      active: true,
      seatsFree: 0,
    });
  });

  it('refunds an upgrade whose source was refunded while it was being paid: the credit must still be paid for', async () => {
    const basics = await createProduct(db(), { name: 'Refunded Source Basics', unitAmount: 4900 });
    const pro = await createProduct(db(), { name: 'Refunded Source Pro', unitAmount: 19_900 });
    await makeUpgradable(db(), basics, pro);
    const buyer = await signedIn(db());
    const sourceId = await boughtWithTestProvider(services, db(), { buyer: buyer.user, productId: basics.id });
    const { checkoutId } = await services.checkouts.create({
      productId: pro.id,
      quantity: 1,
      team: false,
      ppp: false,
      buyer: buyer.user,
      country: 'US',
      ip: null,
      upgradeFromId: sourceId,
    });
    expect((await db()('checkouts').where({ id: checkoutId }).first()).creditAmount).toBe(4900);
    const support = await signedIn(db(), ['support']);
    expect(
      (
        await as(support, request(app).post(`/api/admin/purchases/${sourceId}/refund`)).send({
          amount: 1000,
          reasonCode: 'customer-request',
          reason: 'partly',
        })
      ).status,
    ).toBe(200);

    await services.testProvider.pay(await sessionOfCheckout(db(), checkoutId));
    expect((await request(app).get(`/api/store/checkouts/${checkoutId}`)).body.status).toBe('refunded');
    expect(
      await Purchase.query(db()).where({ userId: buyer.user.id, productId: pro.id, status: 'Valid' }),
    ).toHaveLength(0);
  });

  it('refunds a second regional-price copy rather than making it a seat that opens the course anywhere', async () => {
    const course = await createProduct(db(), { name: 'Regional Course', unitAmount: 10_000 });
    const buyer = await signedIn(db());
    const start = () =>
      services.checkouts.create({
        productId: course.id,
        quantity: 1,
        team: false,
        ppp: true,
        buyer: buyer.user,
        country: 'IN',
        ip: null,
      });
    const [first, second] = [await start(), await start()];
    for (const { checkoutId } of [first, second])
      await services.testProvider.pay(await sessionOfCheckout(db(), checkoutId));
    expect((await request(app).get(`/api/store/checkouts/${first.checkoutId}`)).body.status).toBe('fulfilled');
    expect((await request(app).get(`/api/store/checkouts/${second.checkoutId}`)).body).toMatchObject({
      status: 'refunded',
      team: null,
    });
    const theirs = await Purchase.query(db()).where({ userId: buyer.user.id, productId: course.id });
    expect(theirs.map((p) => [p.status, Boolean(p.bulkCouponId)]).sort()).toEqual([
      ['Refunded', false],
      ['Restricted', false],
    ]);
    expect(
      await db()('outboxEmails').where({ toAddress: buyer.user.email, kind: 'unfulfillable-refund' }),
    ).toHaveLength(1);
  });

  it('never seats anyone on a team closed at the same moment, nor gives a buyer a seat and a paid copy at once', async () => {
    const course = await createProduct(db(), { name: 'Racing Team Course', unitAmount: 10_000 });
    const owner = await signedIn(db());
    const teamId = await boughtWithTestProvider(services, db(), {
      buyer: owner.user,
      productId: course.id,
      quantity: 10,
    });
    const { inviteCode, id: couponId } = await teamCoupon(teamId);
    const people = await Promise.all(Array.from({ length: 8 }, () => signedIn(db())));
    const support = await signedIn(db(), ['support']);
    await Promise.all([
      ...people.map((person) => store(person, 'post', `/invites/${inviteCode}/redeem`)),
      as(support, request(app).post(`/api/admin/purchases/${teamId}/refund`)).send({
        reasonCode: 'customer-request',
        reason: 'closing the team',
      }),
    ]);
    expect(await teamCoupon(teamId)).toMatchObject({ status: 'inactive' });
    expect(
      await Purchase.query(db()).where({ redeemedBulkCouponId: couponId }).whereIn('status', GRANTING_STATUSES),
    ).toHaveLength(0);

    // A buyer whose payment is fulfilled while they take a seat ends up with one of the two.
    const other = await boughtWithTestProvider(services, db(), {
      buyer: owner.user,
      productId: course.id,
      quantity: 10,
    });
    const invite = (await teamCoupon(other)).inviteCode;
    for (const person of people.slice(0, 4)) {
      const paying = await services.checkouts.create({
        productId: course.id,
        quantity: 1,
        team: false,
        ppp: false,
        buyer: person.user,
        country: 'US',
        ip: null,
      });
      await services.testProvider.pay(await sessionOfCheckout(db(), paying.checkoutId));
      await Promise.all([
        store(person, 'post', `/invites/${invite}/redeem`),
        request(app).get(`/api/store/checkouts/${paying.checkoutId}`),
      ]);
      const copies = await Purchase.query(db())
        .where({ userId: person.user.id, productId: course.id })
        .whereIn('status', GRANTING_STATUSES)
        .whereNull('bulkCouponId');
      expect(copies).toHaveLength(1);
    }
  });

  // Found by the model-based test: a banned member's seat stayed taken for good, and nothing kept them off the link.
  it("gives a banned member's seat back to the team, and keeps them off the invite link", async () => {
    const course = await createProduct(db(), { name: 'Banned Member Course', unitAmount: 10_000 });
    const owner = await signedIn(db());
    const teamId = await boughtWithTestProvider(services, db(), {
      buyer: owner.user,
      productId: course.id,
      quantity: 2,
    });
    const { inviteCode } = await teamCoupon(teamId);
    const member = await signedIn(db());
    const seat = (await store(member, 'post', `/invites/${inviteCode}/redeem`)).body.purchaseId;
    const admin = await signedIn(db(), ['admin']);
    expect(
      (await as(admin, request(app).post(`/api/admin/purchases/${seat}/ban`)).send({ reason: 'shared their account' }))
        .status,
    ).toBe(200);

    expect(await teamCoupon(teamId)).toMatchObject({ maxUses: 2, usedCount: 0 });
    expect((await store(owner, 'get', `/teams/${teamId}`)).body).toMatchObject({
      seats: { used: 0, free: 2 },
      revoked: [{ userId: member.user.id }],
    });
    expect((await store(member, 'post', `/invites/${inviteCode}/redeem`)).body.code).toBe('seat-revoked');
    expect((await store(await signedIn(db()), 'post', `/invites/${inviteCode}/redeem`)).status).toBe(201);
  });
});
