import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { Coupon, type Product, Purchase } from '../support/models';
import type { User } from '../../api/src/identity/models';
import { createServices, type Services } from '../../api/src/services';
import { createProduct, createResource } from '../../seeds/factories';
import { testDeps } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { boughtWithTestProvider } from '../support/checkout';
import { useTestDatabase } from '../support/db';

describe('teams (docs/domain.md §7)', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let services: Services;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let course: Product;

  beforeAll(async () => {
    const deps = testDeps(db());
    services = createServices(deps);
    app = createApp(deps, { services }).callback();
    course = await createProduct(db(), { name: 'Team Course', unitAmount: 10_000 });
  });

  const buy = (buyer: User, quantity: number, team = quantity > 1, product = course) =>
    boughtWithTestProvider(services, db(), { buyer, productId: product.id, quantity, team });
  const call = (who: SignedIn | undefined, method: 'get' | 'post' | 'delete', path: string) =>
    as(who, request(app)[method](`/api/store${path}`)).send();
  const couponOf = async (teamId: string) =>
    (await Coupon.query(db()).findById((await Purchase.query(db()).findById(teamId))!.bulkCouponId!))!;

  it('makes a team coupon for 5 seats, adds later seats to it, and turns an extra copy of an owned course into a seat', async () => {
    const owner = await signedIn(db());
    const teamId = await buy(owner.user, 5);
    const coupon = await couponOf(teamId);
    expect(coupon).toMatchObject({
      percentageDiscount: 1,
      maxUses: 5,
      usedCount: 0,
      bulkPurchaseId: teamId,
      restrictedToProductId: course.id,
    });
    // 5 seats is the 15 % tier.
    expect((await Purchase.query(db()).findById(teamId))!.totalAmount).toBe(42_500);

    // 5 more: the tier counts the 5 already bought (10 → 25 %), and the seats go onto the same coupon.
    const quote = await as(
      owner,
      request(app).get(`/api/store/products/${course.id}/quote`).query({ quantity: 5, team: true }),
    );
    expect(quote.body.quote.discount).toMatchObject({ kind: 'team', bp: 2500 });
    const more = await buy(owner.user, 5);
    expect((await Purchase.query(db()).findById(more))!.bulkCouponId).toBe(coupon.id);
    expect((await couponOf(teamId)).maxUses).toBe(10);
    const listed = (await call(owner, 'get', '/purchases')).body.data;
    expect(listed.map((p: { id: string; team: object }) => [p.id, p.team])).toEqual(
      expect.arrayContaining([
        [teamId, { seats: 10, used: 0, teamId, addedSeats: false, quantity: 5, ownerHasSeat: false, gift: false }],
        [more, { seats: 10, used: 0, teamId, addedSeats: true, quantity: 5, ownerHasSeat: false, gift: false }],
      ]),
    );

    // Owning the course individually, buying it again gives a one-seat team.
    const individual = await signedIn(db());
    await buy(individual.user, 1);
    const again = await as(individual, request(app).get(`/api/store/products/${course.id}/quote`));
    expect(again.body.team).toBeTruthy();
    const extra = await buy(individual.user, 1, true);
    expect((await couponOf(extra)).maxUses).toBe(1);
  });

  it('shows the owner their team, lets them claim a seat, and hides it from everyone else', async () => {
    const owner = await signedIn(db());
    const teamId = await buy(owner.user, 3);
    const page = await call(owner, 'get', `/teams/${teamId}`);
    expect(page.status).toBe(200);
    const coupon = await couponOf(teamId);
    expect(page.body).toMatchObject({
      seats: { total: 3, used: 0, free: 3 },
      ownerHasSeat: false,
      members: [],
      inviteUrl: `http://localhost:3000/invites/${coupon.inviteCode}`,
    });
    expect((await call(owner, 'get', '/teams')).body.data.map((t: { purchaseId: string }) => t.purchaseId)).toContain(
      teamId,
    );

    const claimed = await call(owner, 'post', `/teams/${teamId}/claim`);
    expect(claimed.body).toMatchObject({
      seats: { used: 1, free: 2 },
      ownerHasSeat: true,
      members: [{ userId: owner.user.id, you: true }],
    });
    expect((await call(owner, 'post', `/teams/${teamId}/claim`)).body.code).toBe('already-purchased');

    const stranger = await signedIn(db());
    for (const [method, path] of [
      ['get', `/teams/${teamId}`],
      ['post', `/teams/${teamId}/claim`],
    ] as const) {
      const answer = await call(stranger, method, path);
      expect(answer.status).toBe(404);
      expect(answer.body.code).toBe('team-not-found');
    }
  });

  it('redeems through the invite link: signed in, once per person, never for someone who owns the course', async () => {
    const owner = await signedIn(db());
    const teamId = await buy(owner.user, 2);
    const { id: couponId, inviteCode } = await couponOf(teamId);
    const invite = await call(undefined, 'get', `/invites/${inviteCode}`);
    expect(invite.body).toMatchObject({ product: { id: course.id, name: 'Team Course' }, active: true, seatsFree: 2 });
    expect((await call(undefined, 'post', `/invites/${inviteCode}/redeem`)).status).toBe(401);

    const member = await signedIn(db());
    const redeemed = await call(member, 'post', `/invites/${inviteCode}/redeem`);
    expect(redeemed.status).toBe(201);
    expect(await Purchase.query(db()).findById(redeemed.body.purchaseId)).toMatchObject({
      userId: member.user.id,
      status: 'Valid',
      totalAmount: 0,
      redeemedBulkCouponId: couponId,
    });
    const welcome = await db()('outboxEmails').where({ toAddress: member.user.email, kind: 'team-welcome' }).first();
    expect(welcome.subject).toBe('Welcome to Team Course');
    expect((await call(member, 'post', `/invites/${inviteCode}/redeem`)).body).toMatchObject({
      code: 'already-purchased',
      message: 'You already have a seat for this course.',
    });

    const owns = await signedIn(db());
    await buy(owns.user, 1);
    const refused = await call(owns, 'post', `/invites/${inviteCode}/redeem`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'already-purchased', message: 'You already own this course.' });
    expect((await couponOf(teamId)).usedCount).toBe(1);
    expect((await call(member, 'post', '/invites/00000000-0000-4000-8000-000000000000/redeem')).body.code).toBe(
      'coupon-not-found',
    );
  });

  it('gives the last seats to exactly as many people as there are, whoever races', async () => {
    const owner = await signedIn(db());
    const teamId = await buy(owner.user, 4);
    const { id: couponId, inviteCode } = await couponOf(teamId);
    const people = await Promise.all(Array.from({ length: 12 }, () => signedIn(db())));
    const answers = await Promise.all(people.map((person) => call(person, 'post', `/invites/${inviteCode}/redeem`)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(4);
    for (const refused of answers.filter((a) => a.status !== 201)) expect(refused.body.code).toBe('coupon-used-up');
    expect((await couponOf(teamId)).usedCount).toBe(4);
    expect(await Purchase.query(db()).where({ redeemedBulkCouponId: couponId }).resultSize()).toBe(4);
    // The same person racing themselves gets one seat.
    const team2 = await buy(owner.user, 3, true, await createProduct(db(), { name: 'Second Team Course' }));
    const twice = await signedIn(db());
    const { inviteCode: invite2 } = await couponOf(team2);
    const own = await Promise.all(Array.from({ length: 5 }, () => call(twice, 'post', `/invites/${invite2}/redeem`)));
    expect(own.filter((a) => a.status === 201)).toHaveLength(1);
  });

  it('revokes a seat: access ends, progress stays, and the seat goes to someone else', async () => {
    const owner = await signedIn(db());
    const teamId = await buy(owner.user, 1, true);
    const { id: couponId, inviteCode } = await couponOf(teamId);
    const first = await signedIn(db());
    const seat = (await call(first, 'post', `/invites/${inviteCode}/redeem`)).body.purchaseId;
    const lesson = await createResource(db(), 'lesson', { title: 'Lesson one' });
    await db()('lessonProgress').insert({ userId: first.user.id, lessonId: lesson.id, completedAt: new Date() });
    const second = await signedIn(db());
    expect((await call(second, 'post', `/invites/${inviteCode}/redeem`)).body.code).toBe('coupon-used-up');

    const stranger = await signedIn(db());
    expect((await call(stranger, 'delete', `/teams/${teamId}/members/${seat}`)).status).toBe(404);
    const revoked = await call(owner, 'delete', `/teams/${teamId}/members/${seat}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ seats: { used: 0, free: 1 }, members: [] });
    // The seat is kept, marked Revoked, so the audit log's link still leads to it.
    expect(await Purchase.query(db()).findById(seat)).toMatchObject({
      status: 'Revoked',
      statusReason: "The team's owner removed this seat.",
    });
    const support = await signedIn(db(), ['support']);
    expect((await as(support, request(app).get(`/api/admin/purchases/${seat}`))).body).toMatchObject({
      status: 'Revoked',
    });
    expect((await call(first, 'get', '/purchases')).body.data).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: seat, status: 'Revoked', seat: true })]),
    );
    expect(await db()('lessonProgress').where({ userId: first.user.id, lessonId: lesson.id })).toHaveLength(1);
    expect(await db()('auditLogs').where({ recordId: seat, action: 'team.seat-revoked' }).first()).toBeTruthy();
    expect((await call(owner, 'delete', `/teams/${teamId}/members/${seat}`)).status).toBe(404);

    expect((await call(second, 'post', `/invites/${inviteCode}/redeem`)).status).toBe(201);
    // The first member comes back only when the owner lets them, and finds their progress.
    await call(
      owner,
      'delete',
      `/teams/${teamId}/members/${(await Purchase.query(db()).findOne({ userId: second.user.id, redeemedBulkCouponId: couponId }))!.id}`,
    );
    expect((await call(first, 'post', `/invites/${inviteCode}/redeem`)).body.code).toBe('seat-revoked');
    expect((await call(owner, 'post', `/teams/${teamId}/revoked/${first.user.id}/readmit`)).status).toBe(200);
    expect((await call(first, 'post', `/invites/${inviteCode}/redeem`)).status).toBe(201);
    expect(await db()('lessonProgress').where({ userId: first.user.id })).toHaveLength(1);
  });

  it('closes the team when its purchase is refunded: seats end and the invite stops working', async () => {
    const owner = await signedIn(db());
    const teamId = await buy(owner.user, 2);
    const { inviteCode } = await couponOf(teamId);
    const member = await signedIn(db());
    const seat = (await call(member, 'post', `/invites/${inviteCode}/redeem`)).body.purchaseId;
    const support = await signedIn(db(), ['support']);
    expect(
      (
        await as(support, request(app).post(`/api/admin/purchases/${teamId}/refund`)).send({
          reasonCode: 'customer-request',
          reason: 'Team cancelled',
        })
      ).status,
    ).toBe(200);
    expect((await Purchase.query(db()).findById(seat))!.status).toBe('Refunded');
    expect((await call(undefined, 'get', `/invites/${inviteCode}`)).body.active).toBe(false);
    expect((await call(await signedIn(db()), 'post', `/invites/${inviteCode}/redeem`)).body.code).toBe(
      'coupon-inactive',
    );
  });

  it('lets support revoke a seat from the console', async () => {
    const owner = await signedIn(db());
    const teamId = await buy(owner.user, 2);
    const { inviteCode } = await couponOf(teamId);
    const member = await signedIn(db());
    const seat = (await call(member, 'post', `/invites/${inviteCode}/redeem`)).body.purchaseId;
    const finance = await signedIn(db(), ['finance']);
    expect((await as(finance, request(app).delete(`/api/admin/bulk-purchases/${teamId}/members/${seat}`))).status).toBe(
      403,
    );
    const support = await signedIn(db(), ['support']);
    const answer = await as(support, request(app).delete(`/api/admin/bulk-purchases/${teamId}/members/${seat}`));
    expect(answer.status).toBe(200);
    expect(answer.body.data.seats).toEqual({ total: 2, used: 0, free: 2 });
    expect(await Purchase.query(db()).findById(seat)).toMatchObject({
      status: 'Revoked',
      statusReason: 'Support removed this seat from the team.',
    });
  });
});
