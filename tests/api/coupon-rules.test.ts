import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createCoupon, createProduct } from '../../seeds/factories';
import { testApp } from '../support/app';
import { as, signedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';

describe("a coupon's rules, judged by the quote and again by checkout under the buyer's lock (docs/domain.md §4)", () => {
  const database = useTestDatabase();
  const db = () => database().db;

  /** Connections waiting for a lock in this test's database. */
  const waitingForLocks = async () => {
    const [row] = await db()('pg_stat_activity')
      .where({ datname: db().raw('current_database()'), waitEventType: 'Lock' })
      .count({ n: '*' });
    return Number(row!.n);
  };

  it('refuses at checkout a coupon deactivated after its quote, one checkout start per buyer at a time', async () => {
    const product = await createProduct(db(), { name: 'Rules Course', unitAmount: 6_000 });
    const coupon = await createCoupon(db(), { code: 'LATEOFF', percentageDiscount: 0.2 });
    const buyer = await signedIn(db(), ['learner'], 'rules-buyer@example.com');
    // Another start of this buyer's holds their lock: this one is quoted (the coupon applies), then waits.
    const other = await db().transaction();
    try {
      await other.raw('SELECT pg_advisory_xact_lock(hashtext(?))', ['coupon-buyer:rules-buyer@example.com']);
      const started = as(buyer, request(testApp(db())).post('/api/store/checkout'))
        .send({ productId: product.id, coupon: 'lateoff' })
        .then((answer) => answer);
      await expect.poll(waitingForLocks).toBe(1);
      await other('coupons').where({ id: coupon.id }).update({ status: 'inactive' });
      await other.commit();
      const answer = await started;
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({
        code: 'coupon-inactive',
        errors: { coupon: 'This coupon is no longer active.' },
      });
      expect(await db()('checkouts').where({ couponId: coupon.id }).first('id')).toBeUndefined();
    } finally {
      if (!other.isCompleted()) await other.rollback();
    }
  });

  it("judges another buyer's checkout without waiting, and tells a guest only that the code is not valid", async () => {
    const product = await createProduct(db(), { name: 'Rules Course Two', unitAmount: 6_000 });
    const coupon = await createCoupon(db(), { code: 'GUESTOFF', percentageDiscount: 0.2 });
    const other = await db().transaction();
    try {
      await other.raw('SELECT pg_advisory_xact_lock(hashtext(?))', ['coupon-buyer:someone-else@example.com']);
      const free = await request(testApp(db()))
        .post('/api/store/checkout')
        .send({ productId: product.id, coupon: 'GUESTOFF', email: 'guest-rules@example.com' });
      expect(free.status).toBe(201);
      const guest = request(testApp(db()))
        .post('/api/store/checkout')
        .send({ productId: product.id, coupon: 'GUESTOFF', email: 'Someone-Else@example.com' })
        .then((answer) => answer);
      await expect.poll(waitingForLocks).toBe(1);
      await other('coupons')
        .where({ id: coupon.id })
        .update({ expires: new Date(Date.now() - 1000) });
      await other.commit();
      const answer = await guest;
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: 'coupon-not-valid', errors: { coupon: 'This code is not valid.' } });
    } finally {
      if (!other.isCompleted()) await other.rollback();
    }
  });
});
