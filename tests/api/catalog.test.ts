import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { Price } from '../../api/src/db/models';
import { createProduct } from '../../seeds/factories';
import { testApp } from '../support/app';
import { useTestDatabase } from '../support/db';

describe('GET /api/store/products', () => {
  const database = useTestDatabase();

  it('lists active products with their current price, and hides archived ones', async () => {
    const db = database().db;
    const course = await createProduct(db, { name: 'Testing Course', unitAmount: 2500 });
    const workshop = await createProduct(db, { name: 'Limited Workshop', unitAmount: 9900, productType: 'live', quantityAvailable: 12 });
    await createProduct(db, { name: 'Retired Course', status: 'archived' });
    // A price change: the old price is archived, the new one is current.
    await Price.query(db).patch({ status: 'archived' }).where('id', course.prices[0]!.id);
    await Price.query(db).insert({ productId: course.id, unitAmount: 3500, status: 'active' });

    const response = await request(testApp(db)).get('/api/store/products');
    expect(response.status).toBe(200);
    const byName = Object.fromEntries(response.body.data.map((p: { name: string }) => [p.name, p]));
    expect(Object.keys(byName).sort()).toEqual(['Limited Workshop', 'Testing Course']);
    expect(byName['Testing Course'].price).toMatchObject({ unitAmount: 3500, currency: 'usd' });
    expect(byName['Limited Workshop']).toMatchObject({ id: workshop.id, productType: 'live', quantityAvailable: 12, price: { unitAmount: 9900 } });
  });
});
