import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createCoupon, createProduct } from '../../seeds/factories';
import { testApp } from '../support/app';
import { useTestDatabase } from '../support/db';

describe("a limited coupon's hold and a fulfilment of the same product at once", () => {
  const database = useTestDatabase();

  it('starts the checkout once the fulfilment commits, instead of a deadlock answered 409', async () => {
    const db = database().db;
    const product = await createProduct(db, { name: 'Lock Order Course', unitAmount: 8_000 });
    const coupon = await createCoupon(db, { code: 'LOCKORDER', percentageDiscount: 0.25, maxUses: 10 });
    // A fulfilment under way holds its product's lock (seats are counted under it), then writes a purchase naming
    // the coupon: the foreign key reads the coupon's row with a key-share lock.
    const fulfilment = await db.transaction();
    try {
      await fulfilment('products').where({ id: product.id }).forUpdate().first('id');
      const started = request(testApp(db))
        .post('/api/store/checkout')
        .send({ productId: product.id, email: 'lock-order@example.com', coupon: 'LOCKORDER' })
        .then((answer) => answer);
      // The start holds the coupon's lock and waits for the product's (its checkout names the product).
      await expect
        .poll(async () => {
          const waiting = await db('pg_stat_activity')
            .where({ datname: db.raw('current_database()'), waitEventType: 'Lock' })
            .count({ n: '*' });
          return Number(waiting[0]!.n);
        })
        .toBe(1);
      await fulfilment('coupons').where({ id: coupon.id }).forKeyShare().first('id');
      await fulfilment.commit();
      const answer = await started;
      expect(answer.status).toBe(201);
      expect((await db('coupons').where({ id: coupon.id }).first('usedCount')).usedCount).toBe(1);
    } finally {
      if (!fulfilment.isCompleted()) await fulfilment.rollback();
    }
  });
});
