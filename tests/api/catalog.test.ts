import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { Price } from '../support/models';
import { createCourse, createProduct, createPurchase, createResource, createUser } from '../../seeds/factories';
import { testApp } from '../support/app';
import { useTestDatabase } from '../support/db';

describe('GET /api/store/products', () => {
  const database = useTestDatabase();

  it('lists active products with their current price, and hides archived ones', async () => {
    const db = database().db;
    const course = await createProduct(db, { name: 'Testing Course', unitAmount: 2500 });
    const workshop = await createProduct(db, {
      name: 'Limited Workshop',
      unitAmount: 9900,
      productType: 'live',
      quantityAvailable: 12,
    });
    await createProduct(db, { name: 'Retired Course', status: 'archived' });
    // A price change: the old price is archived, the new one is current.
    await Price.query(db).patch({ status: 'archived' }).where('id', course.prices[0]!.id);
    await Price.query(db).insert({ productId: course.id, unitAmount: 3500, status: 'active' });

    const response = await request(testApp(db)).get('/api/store/products');
    expect(response.status).toBe(200);
    const byName = Object.fromEntries(response.body.data.map((p: { name: string }) => [p.name, p]));
    expect(Object.keys(byName).sort()).toEqual(['Limited Workshop', 'Testing Course']);
    expect(byName['Testing Course'].price).toMatchObject({ unitAmount: 3500, currency: 'usd' });
    expect(byName['Limited Workshop']).toMatchObject({
      id: workshop.id,
      productType: 'live',
      quantityAvailable: 12,
      price: { unitAmount: 9900 },
    });
  });
});

describe('availability in the catalog', () => {
  const database = useTestDatabase();

  it('shows the seats left and where the enrollment window stands', async () => {
    const db = database().db;
    const buyer = await createUser(db);
    const now = Date.now();
    const day = 86_400_000;
    const workshop = await createProduct(db, { name: 'Three Seats', quantityAvailable: 3 });
    await createPurchase(db, { user: buyer, product: workshop });
    await createPurchase(db, { user: await createUser(db), product: workshop, status: 'Refunded' }); // gives its seat back
    const full = await createProduct(db, { name: 'Full House', quantityAvailable: 1 });
    await createPurchase(db, { user: buyer, product: full });
    await createProduct(db, { name: 'Opens Later', enrollmentOpensAt: new Date(now + day) });
    await createProduct(db, { name: 'Closed', enrollmentClosesAt: new Date(now - day) });
    await createProduct(db, { name: 'Closing Soon', enrollmentClosesAt: new Date(now + day) });

    const response = await request(testApp(db)).get('/api/store/products');
    const byName = Object.fromEntries(response.body.data.map((p: { name: string }) => [p.name, p]));
    expect(byName['Three Seats']).toMatchObject({ seatsLeft: 2, enrollment: { state: 'open' } });
    expect(byName['Full House']).toMatchObject({ seatsLeft: 0 });
    expect(byName['Opens Later']).toMatchObject({
      seatsLeft: null,
      enrollment: { state: 'not-open', opensAt: new Date(now + day).toISOString() },
    });
    expect(byName['Closed'].enrollment.state).toBe('closed');
    expect(byName['Closing Soon'].enrollment).toMatchObject({
      state: 'open',
      closesAt: new Date(now + day).toISOString(),
    });
  });

  it('names the published courses each product grants', async () => {
    const db = database().db;
    const product = await createProduct(db, { name: 'With Courses' });
    const { course } = await createCourse(db, { title: 'Granted Course', modules: [] }, { products: [product] });
    const draft = await createResource(db, 'course', { title: 'Draft Course', state: 'draft' });
    await db('productContentResources').insert({ productId: product.id, resourceId: draft.id, position: 1 });
    const response = await request(testApp(db)).get('/api/store/products');
    const listed = response.body.data.find((p: { id: string }) => p.id === product.id);
    expect(listed.courses).toEqual([{ id: course.id, slug: course.fields.slug, title: 'Granted Course' }]);
  });
});
