import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXACT_COUNT_LIMIT } from '../../api/src/admin/lists/count';
import { AuditLog, ContentResource, ContentResourceResource, Coupon, Price } from '../support/models';
import { createResource, createUser } from '../../seeds/factories';
import { testApp } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';
import { seedEverything } from '../support/everything';

describe('console writes', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let admin: SignedIn;
  let fixture: Awaited<ReturnType<typeof seedEverything>>;
  const app = () => testApp(db());
  const send = (auth: SignedIn, method: 'post' | 'put' | 'delete', path: string, body?: object) =>
    as(auth, request(app())[method](`/api/admin/${path}`)).send(body);
  const auditFor = (resource: string, recordId: string) =>
    AuditLog.query(db()).where({ resource, recordId }).orderBy('id');

  beforeAll(async () => {
    fixture = await seedEverything(db());
    admin = await signedIn(db(), ['admin']);
  });

  it('creates a product with its first price, audited', async () => {
    const created = await send(admin, 'post', 'products', {
      name: 'Testing in Practice',
      productType: 'cohort',
      quantityAvailable: 30,
      unitAmount: 12900,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Testing in Practice',
      productType: 'cohort',
      status: 'draft', // a new product is a draft until published
      quantityAvailable: 30,
    });
    const prices = await Price.query(db()).where({ productId: created.body.id });
    expect(prices).toEqual([expect.objectContaining({ unitAmount: 12900, currency: 'usd', status: 'active' })]);
    const [entry] = await auditFor('products', created.body.id);
    expect(entry).toMatchObject({
      action: 'create',
      actorId: admin.user.id,
      before: null,
      after: expect.objectContaining({ name: 'Testing in Practice' }),
    });
  });

  it('validates with field errors react-admin can show', async () => {
    const bad = await send(admin, 'post', 'products', { name: 'X', quantityAvailable: -5, productType: 'ebook' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['name', 'productType', 'quantityAvailable']);
    const window = await send(admin, 'post', 'products', {
      name: 'Backwards window',
      enrollmentOpensAt: '2026-12-10T00:00:00Z',
      enrollmentClosesAt: '2026-12-01T00:00:00Z',
    });
    expect(window.body.errors).toEqual({ enrollmentClosesAt: 'must be after the opening' });
    const unknown = await send(admin, 'post', 'products', { name: 'Fine name', secret: true });
    expect(unknown.status).toBe(400);
  });

  it('makes a new price the current one and keeps the old one, archived', async () => {
    const productId = fixture.product.id;
    const before = await Price.query(db()).findOne({ productId, status: 'active' });
    const created = await send(admin, 'post', 'prices', { productId, unitAmount: 5900 });
    expect(created.status).toBe(201);
    const prices = await Price.query(db()).where({ productId }).orderBy('createdAt');
    expect(prices.filter((p) => p.status === 'active').map((p) => p.unitAmount)).toEqual([5900]);
    expect(prices.find((p) => p.id === before!.id)?.status).toBe('archived');
    const change = await send(admin, 'put', `prices/${created.body.id}`, { ...created.body, unitAmount: 1 });
    expect(change.status).toBe(400);
    expect(change.body.errors).toEqual({ unitAmount: 'is read-only' });
  });

  it('archives a product with its price and merchant records, and records before/after', async () => {
    const product = (await request(app()).get(`/api/admin/products/${fixture.product.id}`).set('Cookie', admin.cookie))
      .body;
    const archived = await send(admin, 'put', `products/${product.id}`, { ...product, status: 'archived' });
    expect(archived.status).toBe(200);
    expect(await Price.query(db()).where({ productId: product.id, status: 'active' }).resultSize()).toBe(0);
    expect((await db()('merchantProducts').where({ productId: product.id }).first()).status).toBe('inactive');
    const entries = await auditFor('products', product.id);
    expect(entries.at(-1)).toMatchObject({
      action: 'update',
      before: expect.objectContaining({ status: 'active' }),
      after: expect.objectContaining({ status: 'archived' }),
    });
  });

  it('refuses deletes that would break history with 409 and a code that says why', async () => {
    const product = await send(admin, 'delete', `products/${fixture.product.id}`);
    expect(product.status).toBe(409);
    expect(product.body.code).toBe('product-has-purchases');
    const coupon = await send(admin, 'delete', `coupons/${fixture.coupon.id}`);
    expect(coupon.body.code).toBe('coupon-has-purchases');
    const user = await send(admin, 'delete', `users/${fixture.buyer.id}`);
    expect(user.body.code).toBe('user-has-purchases');
    // Without history, delete works and is audited.
    const spare = await send(admin, 'post', 'products', { name: 'Never sold' });
    expect((await send(admin, 'delete', `products/${spare.body.id}`)).status).toBe(200);
    expect((await auditFor('products', spare.body.id)).map((e) => e.action)).toEqual(['create', 'delete']);
  });

  it('keeps coupon codes unique regardless of case, on the code field', async () => {
    const clash = await send(admin, 'post', 'coupons', { code: 'usedonce', percentageDiscount: 0.2 });
    expect(clash.status).toBe(409);
    expect(clash.body.errors).toEqual({ code: 'is already used by another coupon (codes ignore case)' });
    const tooMuch = await send(admin, 'post', 'coupons', { code: 'BIG', percentageDiscount: 1.5 });
    expect(tooMuch.body.errors).toHaveProperty('percentageDiscount');
    await db()('coupons').where({ id: fixture.coupon.id }).update({ maxUses: 5, usedCount: 2 });
    const used = (await request(app()).get(`/api/admin/coupons/${fixture.coupon.id}`).set('Cookie', admin.cookie)).body;
    const below = await send(admin, 'put', `coupons/${used.id}`, { ...used, maxUses: 1 });
    expect(below.body.errors).toEqual({ maxUses: 'cannot be below the uses already made' });
  });

  it('refuses to change a team coupon outside its purchase', async () => {
    const team = (await request(app()).get(`/api/admin/coupons/${fixture.teamCoupon.id}`).set('Cookie', admin.cookie))
      .body;
    const unlimited = await send(admin, 'put', `coupons/${team.id}`, { ...team, maxUses: -1 });
    expect(unlimited.status).toBe(400);
    expect(unlimited.body.errors).toHaveProperty('maxUses');
    expect((await Coupon.query(db()).findById(team.id))?.maxUses).toBe(5);
    // Nor switched off: the team's invite link would die while its pages still show free seats.
    const off = await send(admin, 'put', `coupons/${team.id}`, { ...team, status: 'inactive' });
    expect(off.status).toBe(409);
    expect(off.body.code).toBe('coupon-is-team-seats');
    expect((await Coupon.query(db()).findById(team.id))?.status).toBe('active');
  });

  it('generates coupons in one go with fresh codes', async () => {
    const generated = await send(admin, 'post', 'coupons/generate', {
      count: 25,
      prefix: 'SPRING',
      percentageDiscount: 0.15,
      maxUses: 1,
    });
    expect(generated.status).toBe(201);
    const codes = generated.body.data.map((c: Coupon) => c.code);
    expect(new Set(codes).size).toBe(25);
    for (const code of codes) expect(code).toMatch(/^SPRING-[A-HJ-NP-Z2-9]{8}$/);
    expect(await AuditLog.query(db()).where({ resource: 'coupons', action: 'generate' }).resultSize()).toBe(1);
    expect((await send(admin, 'post', 'coupons/generate', { count: 501, percentageDiscount: 0.1 })).status).toBe(400);
  });

  it('keeps a product’s revenue splits within 100 %; finance edits them, support may not', async () => {
    const finance = await signedIn(db(), ['finance']);
    const support = await signedIn(db(), ['support']);
    const product = await send(admin, 'post', 'products', { name: 'Split product' });
    const owner = await createUser(db());
    expect(
      (
        await send(finance, 'post', 'product-revenue-splits', {
          productId: product.body.id,
          type: 'platform',
          percent: 0.3,
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await send(finance, 'post', 'product-revenue-splits', {
          productId: product.body.id,
          type: 'owner',
          percent: 0.7,
          userId: owner.id,
        })
      ).status,
    ).toBe(201);
    const over = await send(finance, 'post', 'product-revenue-splits', {
      productId: product.body.id,
      type: 'contributor',
      percent: 0.05,
      userId: owner.id,
    });
    expect(over.status).toBe(400);
    expect(over.body.errors.percent).toMatch(/would total 105\.00 %/);
    const noUser = await send(finance, 'post', 'product-revenue-splits', {
      productId: product.body.id,
      type: 'owner',
      percent: 0.01,
    });
    expect(noUser.body.errors).toHaveProperty('userId');
    expect(
      (
        await send(support, 'post', 'product-revenue-splits', {
          productId: product.body.id,
          type: 'platform',
          percent: 0.1,
        })
      ).status,
    ).toBe(403);
  });

  it('lets only admins delete staff accounts, and always keeps an administrator', async () => {
    const support = await signedIn(db(), ['support']);
    const otherAdmin = await signedIn(db(), ['admin']);
    const refused = await send(support, 'delete', `users/${otherAdmin.user.id}`);
    expect(refused.status).toBe(403);
    const learner = await createUser(db());
    expect((await send(support, 'delete', `users/${learner.id}`)).status).toBe(200);

    // Two admins demoting each other at once: the second is refused, one admin always remains.
    const everyAdmin = (await db()('users').whereRaw("'admin' = ANY(roles)").select('id', 'roles')) as {
      id: string;
      roles: string[];
    }[];
    try {
      for (const { id } of everyAdmin)
        if (id !== admin.user.id && id !== otherAdmin.user.id)
          await db()('users')
            .where({ id })
            .update({ roles: ['learner'] });
      const results = await Promise.all([
        send(admin, 'put', `users/${otherAdmin.user.id}`, { roles: ['learner'] }),
        send(otherAdmin, 'put', `users/${admin.user.id}`, { roles: ['learner'] }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
      expect(await db()('users').whereRaw("'admin' = ANY(roles)").select('id')).toHaveLength(1);
      const survivor = results[0]!.status === 200 ? admin : otherAdmin;
      expect((await send(survivor, 'delete', `users/${survivor.user.id}`)).status).toBe(400);
    } finally {
      for (const { id, roles } of everyAdmin) await db()('users').where({ id }).update({ roles });
      await db()('users')
        .whereIn('id', [admin.user.id, otherAdmin.user.id])
        .update({ roles: ['admin'] });
    }
  });

  it('lets only admins change roles', async () => {
    const support = await signedIn(db(), ['support']);
    const person = await send(support, 'post', 'users', { email: 'New.Hire@Example.com', name: 'New Hire' });
    expect(person.status).toBe(201);
    expect(person.body).toMatchObject({ email: 'new.hire@example.com', roles: ['learner'] });
    expect((await send(support, 'put', `users/${person.body.id}`, { roles: ['finance'] })).status).toBe(403);
    const promoted = await send(admin, 'put', `users/${person.body.id}`, { roles: ['finance', 'learner'] });
    expect(promoted.body.roles).toEqual(['finance', 'learner']);
    expect((await send(admin, 'post', 'users', { email: 'new.hire@example.com' })).body.errors).toEqual({
      email: 'already has an account',
    });
  });

  it('stores rich text safely and soft-deletes content', async () => {
    const unsafe =
      '<h2>Intro</h2><p onclick="steal()">Hello<script>alert(1)</script></p><a href="javascript:alert(1)">x</a><img src="https://example.com/a.png" onerror="x()"><table><tbody><tr><td>1</td></tr></tbody></table>';
    const created = await send(admin, 'post', 'content-resources', {
      type: 'lesson',
      fields: { title: 'Safe lesson', body: unsafe, state: 'draft' },
    });
    expect(created.status).toBe(201);
    const body = created.body.fields.body as string;
    expect(body).toContain('<h2>Intro</h2>');
    expect(body).toContain('<img src="https://example.com/a.png" />');
    expect(body).toContain('<td>1</td>');
    expect(body).not.toMatch(/script|onclick|onerror|javascript:/i);

    const deleted = await send(admin, 'delete', `content-resources/${created.body.id}`);
    expect(deleted.status).toBe(200);
    expect((await ContentResource.query(db()).findById(created.body.id))?.deletedAt).toBeInstanceOf(Date);
    const listed = await as(
      admin,
      request(app())
        .get('/api/admin/content-resources')
        .query({ filter: JSON.stringify({ id: [created.body.id] }) }),
    );
    expect(listed.body).toEqual([]);
    expect((await send(admin, 'delete', `content-resources/${created.body.id}`)).status).toBe(404);
  });

  it('lets contributors edit only what they created', async () => {
    const contributor = await signedIn(db(), ['contributor']);
    const own = await send(contributor, 'post', 'content-resources', { type: 'page', fields: { title: 'My page' } });
    expect(own.status).toBe(201);
    expect(own.body.createdById).toBe(contributor.user.id);
    const edited = await send(contributor, 'put', `content-resources/${own.body.id}`, {
      fields: { ...own.body.fields, title: 'My better page' },
    });
    expect(edited.body.fields.title).toBe('My better page');
    const others = await createResource(db(), 'page', { title: 'Someone else’s page' }, (await createUser(db())).id);
    const refused = await send(contributor, 'put', `content-resources/${others.id}`, { fields: { title: 'Mine now' } });
    expect(refused.status).toBe(403);

    // Nor the links of someone else's course: making a paid lesson free, or moving it, is an edit of that course.
    const link = (await ContentResourceResource.query(db()).first())!;
    const freed = await send(contributor, 'put', `content-resource-resources/${link.id}`, {
      metadata: { tier: 'free' },
    });
    expect(freed.status).toBe(403);
    expect((await send(contributor, 'delete', `content-resource-resources/${link.id}`)).status).toBe(403);
    const lesson = await send(contributor, 'post', 'content-resources', {
      type: 'lesson',
      fields: { title: 'My lesson' },
    });
    expect(
      (
        await send(contributor, 'post', 'content-resource-resources', {
          resourceOfId: own.body.id,
          resourceId: lesson.body.id,
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await send(contributor, 'post', 'content-resource-resources', {
          resourceOfId: link.resourceOfId,
          resourceId: lesson.body.id,
        })
      ).status,
    ).toBe(403);
  });

  it('treats soft-deleted content as gone everywhere: reads, writes, links and reordering', async () => {
    const section = await send(admin, 'post', 'content-resources', {
      type: 'section',
      fields: { title: 'Temporary section' },
    });
    const [a, b] = await Promise.all(
      ['First', 'Second'].map((title) =>
        send(admin, 'post', 'content-resources', { type: 'lesson', fields: { title } }),
      ),
    );
    for (const [position, child] of [a!, b!].entries()) {
      await send(admin, 'post', 'content-resource-resources', {
        resourceOfId: section.body.id,
        resourceId: child.body.id,
        position,
      });
    }
    await send(admin, 'delete', `content-resources/${a!.body.id}`);
    expect((await as(admin, request(app()).get(`/api/admin/content-resources/${a!.body.id}`))).status).toBe(404);
    expect((await send(admin, 'put', `content-resources/${a!.body.id}`, { fields: { title: 'Back' } })).status).toBe(
      404,
    );
    const links = await as(
      admin,
      request(app())
        .get('/api/admin/content-resource-resources')
        .query({ filter: JSON.stringify({ resourceOfId: section.body.id }) }),
    );
    expect(links.body.map((l: { resourceId: string }) => l.resourceId)).toEqual([b!.body.id]);
    expect(
      (await send(admin, 'post', `content-resources/${section.body.id}/reorder`, { childIds: [b!.body.id] })).status,
    ).toBe(204);
  });

  it('answers text with NUL characters with a 400, not a 500', async () => {
    const response = await send(admin, 'post', 'products', { name: 'Bad\u0000name' });
    expect(response.status).toBe(400);
    const signIn = await request(app())
      .post('/api/store/auth/email')
      .send({ email: 'nul@example.com', redirectTo: '/\u0000' });
    expect(signIn.status).toBe(202);
  });

  it('refuses a form-encoded body on the JSON API', async () => {
    const form = await as(admin, request(app()).post('/api/admin/products')).type('form').send({ name: 'From a form' });
    expect(form.status).toBe(400);
  });

  it('reorders a parent’s children, audited, and refuses a list that is not exactly its children', async () => {
    const section = (await ContentResource.query(db()).where({ type: 'section' }).orderBy('createdAt').first())!;
    const links = await ContentResourceResource.query(db()).where({ resourceOfId: section.id }).orderBy('position');
    const reversed = links.map((l) => l.resourceId).reverse();
    const reorder = (childIds: string[]) =>
      send(admin, 'post', `content-resources/${section.id}/reorder`, { childIds });
    expect((await reorder(reversed)).status).toBe(204);
    const after = await ContentResourceResource.query(db()).where({ resourceOfId: section.id }).orderBy('position');
    expect(after.map((l) => l.resourceId)).toEqual(reversed);
    expect(after.map((l) => l.position)).toEqual(reversed.map((_, i) => i));
    expect((await reorder(reversed.slice(1))).status).toBe(400);
    expect((await reorder([...reversed, reversed[0]!])).status).toBe(400);
    expect(await AuditLog.query(db()).where({ action: 'reorder', recordId: section.id }).resultSize()).toBe(1);

    const tree = await as(admin, request(app()).get(`/api/admin/content-resources/${section.id}/tree`));
    expect(tree.body.children.map((c: { id: string }) => c.id)).toEqual(reversed);
  });

  it('unlinks a child softly and lets it be linked again', async () => {
    const section = (await ContentResource.query(db()).where({ type: 'section' }).orderBy('createdAt').first())!;
    const link = (await ContentResourceResource.query(db()).where({ resourceOfId: section.id }).first())!;
    expect((await send(admin, 'delete', `content-resource-resources/${link.id}`)).status).toBe(200);
    const tree = await as(admin, request(app()).get(`/api/admin/content-resources/${section.id}/tree`));
    expect(tree.body.children.map((c: { id: string }) => c.id)).not.toContain(link.resourceId);
    const again = await send(admin, 'post', 'content-resource-resources', {
      resourceOfId: section.id,
      resourceId: link.resourceId,
      position: 9,
    });
    expect(again.status).toBe(201);
    const duplicate = await send(admin, 'post', 'content-resource-resources', {
      resourceOfId: section.id,
      resourceId: link.resourceId,
    });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.errors).toEqual({ resourceId: 'is already linked here' });
  });
});

describe('counting big lists', () => {
  const database = useTestDatabase();

  it('counts small results exactly and estimates past the limit, without counting every row', async () => {
    const db = database().db;
    const fixture = await seedEverything(db);
    const many = EXACT_COUNT_LIMIT + 2_000;
    await db.raw(
      `INSERT INTO purchases (user_id, product_id, status, total_amount, created_at)
       SELECT ?, ?, 'Valid', 100, now() - (n || ' minutes')::interval FROM generate_series(1, ?) AS n`,
      [fixture.buyer.id, fixture.team.productId, many],
    );
    await db.raw('ANALYZE purchases');
    const admin = await signedIn(db, ['admin']);
    const all = await as(admin, request(testApp(db)).get('/api/admin/purchases'));
    const total = Number(String(all.headers['content-range']).split('/')[1]);
    expect(all.headers['x-total-estimated']).toBe('true');
    expect(total).toBeGreaterThan(EXACT_COUNT_LIMIT);
    expect(Math.abs(total - (many + 3)) / (many + 3)).toBeLessThan(0.2);
    const refunded = await as(
      admin,
      request(testApp(db))
        .get('/api/admin/purchases')
        .query({ filter: JSON.stringify({ status: 'Valid', userId: fixture.team.userId }) }),
    );
    expect(refunded.headers['content-range']).toBe('purchases 0-0/1');
    expect(refunded.headers['x-total-estimated']).toBeUndefined();

    // A page and its total come back from one statement (the session's own query aside).
    const statements: string[] = [];
    const record = (q: { sql: string }) => statements.push(q.sql);
    db.on('query', record);
    const page = await as(
      admin,
      request(testApp(db))
        .get('/api/admin/purchases')
        .query({ filter: JSON.stringify({ userId: fixture.team.userId }) }),
    );
    db.off('query', record);
    expect(page.body.length).toBeGreaterThan(0);
    expect(page.headers['content-range']).toBe(`purchases 0-${page.body.length - 1}/${page.body.length}`);
    expect(page.body[0]).not.toHaveProperty('matchCount');
    expect(statements.filter((sql) => sql.includes('"purchases"'))).toHaveLength(1);
  });
});
