import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { Coupon, type Product, Purchase } from '../support/models';
import type { User } from '../../api/src/identity/models';
import { slugify } from '../../api/src/learning/slugs';
import { createServices, type Services } from '../../api/src/services';
import { createProduct, createResource } from '../../seeds/factories';
import { testDeps } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { boughtWithTestProvider } from '../support/checkout';
import { useTestDatabase } from '../support/db';

/** Support's daily tools: team management, building an outline in place, new products as drafts. */
describe("support's tools for teams and course building", () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let services: Services;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let support: SignedIn;

  beforeAll(async () => {
    const deps = testDeps(db());
    services = createServices(deps);
    app = createApp(deps, { services }).callback();
    support = await signedIn(db(), ['support']);
  });

  const admin = (who: SignedIn | undefined, method: 'get' | 'post' | 'put', path: string, body?: object) =>
    as(who, request(app)[method](`/api/admin${path}`)).send(body);
  const store = (who: SignedIn | undefined, method: 'get' | 'post', path: string) =>
    as(who, request(app)[method](`/api/store${path}`)).send();
  const teamOf = async (buyer: User, seats: number, product: Product) =>
    boughtWithTestProvider(services, db(), { buyer, productId: product.id, quantity: seats, team: true });
  const couponOf = async (teamId: string) =>
    (await Coupon.query(db()).findById((await Purchase.query(db()).findById(teamId))!.bulkCouponId!))!;
  const auditOf = (recordId: string, action: string) =>
    db()('auditLogs').where({ recordId, action }).orderBy('id', 'desc').first();

  describe('teams', () => {
    let course: Product;
    beforeAll(async () => {
      course = await createProduct(db(), { name: 'Team Tools Course', unitAmount: 10_000 });
    });

    it('adds seats as a comp with a reason, audited; the owner sees the new total on the storefront', async () => {
      const owner = await signedIn(db());
      const teamId = await teamOf(owner.user, 3, course);
      const before = await db()('merchantCharges').count({ n: '*' }).first();

      const missing = await admin(support, 'post', `/bulk-purchases/${teamId}/seats`, { seats: 0 });
      expect(missing.status).toBe(400);
      expect(Object.keys(missing.body.errors)).toEqual(expect.arrayContaining(['seats', 'reason']));
      const contributor = await signedIn(db(), ['contributor']);
      const body = { seats: 4, reason: 'Sales promised four more seats' };
      expect((await admin(contributor, 'post', `/bulk-purchases/${teamId}/seats`, body)).status).toBe(403);

      const added = await admin(support, 'post', `/bulk-purchases/${teamId}/seats`, body);
      expect(added.status).toBe(200);
      expect(added.body.data).toEqual({ added: 4, seats: { total: 7, used: 0, free: 7 } });
      expect((await couponOf(teamId)).maxUses).toBe(7);
      // A comp: no purchase, no charge.
      expect(
        await Purchase.query(db())
          .where({ bulkCouponId: (await couponOf(teamId)).id })
          .resultSize(),
      ).toBe(1);
      expect(await db()('merchantCharges').count({ n: '*' }).first()).toEqual(before);
      expect(await auditOf(teamId, 'team.seats-added')).toMatchObject({
        actorId: support.user.id,
        actorEmail: support.user.email,
        resource: 'purchases',
        before: { seats: 3 },
        after: { seats: 7, added: 4, reason: 'Sales promised four more seats', charged: 0 },
      });
      expect((await store(owner, 'get', `/teams/${teamId}`)).body.seats).toEqual({ total: 7, used: 0, free: 7 });
      // The seats are the team's, counted once: the admin list shows them too.
      expect((await admin(support, 'get', `/bulk-purchases/${teamId}`)).body).toMatchObject({ seatsTotal: 7 });
    });

    it('counts two additions racing each other both, and never sells past the product’s seats', async () => {
      const owner = await signedIn(db());
      const teamId = await teamOf(owner.user, 2, course);
      const add = (seats: number) =>
        admin(support, 'post', `/bulk-purchases/${teamId}/seats`, { seats, reason: 'Race of two additions' });
      const both = await Promise.all([add(3), add(3)]);
      expect(both.map((a) => a.status)).toEqual([200, 200]);
      expect((await couponOf(teamId)).maxUses).toBe(8);

      // A limited product with 2 + 3 seats left: two additions of 3 at once, one fits.
      const limited = await createProduct(db(), { name: 'Limited Team Course', quantityAvailable: 5 });
      const limitedTeam = await teamOf(owner.user, 2, limited);
      const race = await Promise.all(
        [3, 3].map((seats) =>
          admin(support, 'post', `/bulk-purchases/${limitedTeam}/seats`, { seats, reason: 'Race for the last seats' }),
        ),
      );
      expect(race.map((a) => a.status).sort()).toEqual([200, 409]);
      const refused = race.find((a) => a.status === 409)!;
      expect(refused.body).toMatchObject({ code: 'sold-out', errors: { seats: 'no seat of this product is left' } });
      expect((await couponOf(limitedTeam)).maxUses).toBe(5);
    });

    it('refuses seats for a team that ended, and for a purchase that is not a team', async () => {
      const owner = await signedIn(db());
      const teamId = await teamOf(owner.user, 2, course);
      await Purchase.query(db()).patch({ status: 'Refunded' }).where({ id: teamId });
      const ended = await admin(support, 'post', `/bulk-purchases/${teamId}/seats`, { seats: 1, reason: 'Too late' });
      expect(ended.status).toBe(409);
      expect(ended.body.code).toBe('team-inactive');
      const single = await boughtWithTestProvider(services, db(), { buyer: owner.user, productId: course.id });
      const notTeam = await admin(support, 'post', `/bulk-purchases/${single}/seats`, { seats: 1, reason: 'Not one' });
      expect(notTeam.status).toBe(404);
      expect(notTeam.body.code).toBe('team-not-found');
    });

    it('rotates the invite link: the old code is refused at once, the new one works, audited', async () => {
      const owner = await signedIn(db());
      const teamId = await teamOf(owner.user, 3, course);
      const { inviteCode: old } = await couponOf(teamId);
      const rotated = await admin(support, 'post', `/bulk-purchases/${teamId}/invite/rotate`);
      expect(rotated.status).toBe(200);
      const { inviteCode: fresh } = await couponOf(teamId);
      expect(fresh).not.toBe(old);
      expect(rotated.body.data.inviteUrl).toBe(`http://localhost:3000/invites/${fresh}`);
      expect(await auditOf(teamId, 'team.invite-reset')).toMatchObject({ actorEmail: support.user.email });

      const member = await signedIn(db());
      const shown = await store(undefined, 'get', `/invites/${old}`);
      expect(shown.status).toBe(400);
      expect(shown.body.code).toBe('coupon-not-found');
      expect(shown.body.message).toMatch(/replaced it/);
      expect((await store(member, 'post', `/invites/${old}/redeem`)).body.code).toBe('coupon-not-found');
      expect((await store(member, 'post', `/invites/${fresh}/redeem`)).status).toBe(201);
      expect((await couponOf(teamId)).usedCount).toBe(1);
    });

    it('refuses a redemption through the old link when the link is replaced while it runs', async () => {
      const owner = await signedIn(db());
      const teamId = await teamOf(owner.user, 3, course);
      const { id: couponId, inviteCode: old } = await couponOf(teamId);
      const member = await signedIn(db());

      // The reset's write is made and held uncommitted; the redemption, started with the old code, reaches the
      // coupon and waits for it.
      const reset = await db().transaction();
      await reset('coupons')
        .where({ id: couponId })
        .update({ inviteCode: reset.raw('gen_random_uuid()') });
      const redeeming = store(member, 'post', `/invites/${old}/redeem`).then((r) => r);
      await expect
        .poll(
          async () =>
            Number(
              (
                await db()('pg_stat_activity')
                  .where({ wait_event_type: 'Lock', datname: db().raw('current_database()') })
                  .count({ n: '*' })
                  .first()
              )?.n,
            ),
          { timeout: 10_000 },
        )
        .toBe(1);
      await reset.commit();

      const answer = await redeeming;
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('coupon-not-found');
      expect((await couponOf(teamId)).usedCount).toBe(0);
      expect(await Purchase.query(db()).where({ userId: member.user.id, redeemedBulkCouponId: couponId })).toEqual([]);
    });

    it('lists every seat with the revoked ones (when, by whom), the buyer’s own seat, and lets a removed member back in', async () => {
      const owner = await signedIn(db(), ['learner'], `owner-${Date.now()}@example.com`);
      const teamId = await teamOf(owner.user, 3, course);
      const { inviteCode } = await couponOf(teamId);
      const empty = (await admin(support, 'get', `/bulk-purchases/${teamId}/members`)).body.data;
      expect(empty).toEqual({
        buyer: { userId: owner.user.id, email: owner.user.email, name: owner.user.name, hasSeat: false },
        seats: [],
        keptOut: [],
      });

      expect((await store(owner, 'post', `/teams/${teamId}/claim`)).status).toBe(200);
      const member = await signedIn(db());
      const seat = (await store(member, 'post', `/invites/${inviteCode}/redeem`)).body.purchaseId;
      const revoked = await as(support, request(app).delete(`/api/admin/bulk-purchases/${teamId}/members/${seat}`));
      expect(revoked.status).toBe(200);

      const roster = await admin(support, 'get', `/bulk-purchases/${teamId}/members`);
      expect(roster.status).toBe(200);
      expect(roster.body.data.buyer).toMatchObject({ userId: owner.user.id, hasSeat: true });
      expect(roster.body.data.seats).toEqual([
        expect.objectContaining({ userId: owner.user.id, buyer: true, status: 'Valid', endedAt: null, endedBy: null }),
        expect.objectContaining({
          purchaseId: seat,
          userId: member.user.id,
          email: member.user.email,
          buyer: false,
          status: 'Revoked',
          endedAt: expect.any(String),
          endedBy: support.user.email,
          reason: 'Support removed this seat from the team.',
        }),
      ]);
      expect(roster.body.data.keptOut).toEqual([
        expect.objectContaining({ userId: member.user.id, by: support.user.email, since: expect.any(String) }),
      ]);
      const finance = await signedIn(db(), ['finance']);
      expect((await admin(finance, 'get', `/bulk-purchases/${teamId}/members`)).status).toBe(200);
      expect((await admin(await signedIn(db()), 'get', `/bulk-purchases/${teamId}/members`)).status).toBe(403);

      // Refused through the link until let back in; support may let them back in.
      expect((await store(member, 'post', `/invites/${inviteCode}/redeem`)).body.code).toBe('seat-revoked');
      const readmitted = await admin(support, 'post', `/bulk-purchases/${teamId}/kept-out/${member.user.id}/readmit`);
      expect(readmitted.status).toBe(200);
      expect(await auditOf(teamId, 'team.member-readmitted')).toMatchObject({ actorEmail: support.user.email });
      expect((await store(member, 'post', `/invites/${inviteCode}/redeem`)).status).toBe(201);
      const again = (await admin(support, 'get', `/bulk-purchases/${teamId}/members`)).body.data;
      expect(again.keptOut).toEqual([]);
      // The ended seat stays listed beside the new one.
      expect(again.seats.map((s: { status: string; userId: string }) => [s.userId, s.status])).toEqual([
        [owner.user.id, 'Valid'],
        [member.user.id, 'Valid'],
        [member.user.id, 'Revoked'],
      ]);
    });
  });

  describe('building an outline in place', () => {
    const addChild = (who: SignedIn, parentId: string, body: object) =>
      admin(who, 'post', `/content-resources/${parentId}/children`, body);

    it('makes slugs from titles: lower-case, ASCII-folded, hyphens', () => {
      expect(slugify('Café & Crème')).toBe('cafe-creme');
      expect(slugify('  Straße, Œuvre — Ærø! ')).toBe('strasse-oeuvre-aero');
      expect(slugify('Getting Started: TypeScript 5.4')).toBe('getting-started-typescript-5-4');
      expect(slugify('日本語')).toBeNull();
    });

    it('creates a module and a lesson in place, linked where asked, as drafts, audited', async () => {
      const course = await createResource(db(), 'course', { title: 'Outline Course' });
      const module = await addChild(support, course.id, { type: 'module', title: 'Café & Crème' });
      expect(module.status).toBe(201);
      expect(module.body.data).toMatchObject({
        type: 'module',
        title: 'Café & Crème',
        slug: 'cafe-creme',
        state: 'draft',
        link: { position: 0, tier: null },
        children: [],
      });
      const lesson = await addChild(support, module.body.data.id, { type: 'lesson', title: 'First steps' });
      expect(lesson.body.data).toMatchObject({ slug: 'first-steps', link: { position: 0 } });
      // A second module put first: the others move down.
      const first = await addChild(support, course.id, { type: 'module', title: 'Welcome', position: 0 });
      expect(first.body.data.link.position).toBe(0);

      const tree = (await admin(support, 'get', `/content-resources/${course.id}/tree`)).body;
      expect(
        tree.children.map((c: { title: string; link: { position: number } }) => [c.title, c.link.position]),
      ).toEqual([
        ['Welcome', 0],
        ['Café & Crème', 1],
      ]);
      expect(tree.children[1].children.map((c: { slug: string }) => c.slug)).toEqual(['first-steps']);
      const created = await db()('contentResources').where({ id: lesson.body.data.id }).first();
      expect(created).toMatchObject({ type: 'lesson', createdById: support.user.id });
      expect(created.fields).toMatchObject({ title: 'First steps', slug: 'first-steps', state: 'draft' });
      expect(await auditOf(lesson.body.data.id, 'create')).toMatchObject({
        actorId: support.user.id,
        resource: 'content-resources',
      });
      expect(await auditOf(lesson.body.data.link.id, 'create')).toMatchObject({
        resource: 'content-resource-resources',
        after: { resourceOfId: module.body.data.id, resourceId: lesson.body.data.id, position: 0 },
      });
    });

    it('adds -2, -3 on a slug collision, also when editors add the same title at once', async () => {
      const course = await createResource(db(), 'course', { title: 'Collision Course' });
      const one = await addChild(support, course.id, { type: 'lesson', title: 'Collisions Explained' });
      const two = await addChild(support, course.id, { type: 'lesson', title: 'Collisions explained!' });
      const three = await addChild(support, course.id, { type: 'lesson', title: 'COLLISIONS EXPLAINED' });
      expect([one, two, three].map((a) => a.body.data.slug)).toEqual([
        'collisions-explained',
        'collisions-explained-2',
        'collisions-explained-3',
      ]);
      const racing = await Promise.all(
        Array.from({ length: 4 }, () => addChild(support, course.id, { type: 'lesson', title: 'Racing Slugs' })),
      );
      expect(racing.map((a) => a.status)).toEqual([201, 201, 201, 201]);
      expect(racing.map((a) => a.body.data.slug).sort()).toEqual([
        'racing-slugs',
        'racing-slugs-2',
        'racing-slugs-3',
        'racing-slugs-4',
      ]);
      const tree = (await admin(support, 'get', `/content-resources/${course.id}/tree`)).body;
      expect(tree.children.map((c: { link: { position: number } }) => c.link.position)).toEqual([0, 1, 2, 3, 4, 5, 6]);
      // A title without ASCII letters still gets a slug.
      expect((await addChild(support, course.id, { type: 'lesson', title: '日本語' })).body.data.slug).toMatch(
        /^lesson(-\d+)?$/,
      );
    });

    it('lets a contributor build inside their own course only, and refuses bad input', async () => {
      const author = await signedIn(db(), ['contributor']);
      const other = await signedIn(db(), ['contributor']);
      const course = await createResource(db(), 'course', { title: 'Authored Course' }, author.user.id);
      const mine = await addChild(author, course.id, { type: 'module', title: 'Authored Module' });
      expect(mine.status).toBe(201);
      expect((await db()('contentResources').where({ id: mine.body.data.id }).first()).createdById).toBe(
        author.user.id,
      );
      const refused = await addChild(other, course.id, { type: 'module', title: 'Not Mine' });
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('forbidden');
      expect(await db()('contentResources').whereRaw(`fields->>'title' = 'Not Mine'`)).toEqual([]);
      const learner = await signedIn(db());
      expect((await addChild(learner, course.id, { type: 'module', title: 'Learner' })).status).toBe(403);

      const bad = await addChild(author, course.id, { type: 'course', title: ' ' });
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body.errors)).toEqual(expect.arrayContaining(['type', 'title']));
      const gone = await addChild(author, '00000000-0000-4000-8000-000000000000', { type: 'module', title: 'X' });
      expect(gone.status).toBe(404);
    });
  });

  describe('new products', () => {
    it('start as drafts: not in the catalog, the sitemap or on sale until published', async () => {
      const created = await admin(support, 'post', '/products', { name: 'Fresh Draft Course', unitAmount: 5_000 });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ status: 'draft' });
      const id = created.body.id as string;
      await admin(support, 'put', `/products/${id}`, { slug: 'fresh-draft-course' });
      const buyer = await signedIn(db());

      const catalog = async () =>
        (await store(undefined, 'get', '/products')).body.data.map((p: { id: string }) => p.id);
      const sitemap = async () => (await request(app).get('/sitemap.xml')).text;
      expect(await catalog()).not.toContain(id);
      expect(await sitemap()).not.toContain('fresh-draft-course');
      expect((await store(undefined, 'get', `/products/fresh-draft-course`)).status).toBe(404);
      const quote = await store(buyer, 'get', `/products/${id}/quote`);
      expect(quote.body.code).toBe('product-not-found');
      const checkout = await as(buyer, request(app).post('/api/store/checkout')).send({ productId: id });
      expect(checkout.body.code).toBe('product-not-found');

      const published = await admin(support, 'put', `/products/${id}`, { status: 'active' });
      expect(published.body.status).toBe('active');
      expect(await catalog()).toContain(id);
      expect(await sitemap()).toContain('fresh-draft-course');
      expect((await store(buyer, 'get', `/products/${id}/quote`)).status).toBe(200);
      // Once bought, it cannot go back to draft (archiving takes it off sale); unsold, it can.
      await boughtWithTestProvider(services, db(), { buyer: buyer.user, productId: id });
      const back = await admin(support, 'put', `/products/${id}`, { status: 'draft' });
      expect(back.status).toBe(409);
      expect(back.body).toMatchObject({ code: 'status-change-not-allowed', errors: { status: expect.any(String) } });
      const unsold = (await admin(support, 'post', '/products', { name: 'Never Sold Draft' })).body.id as string;
      await admin(support, 'put', `/products/${unsold}`, { status: 'active' });
      expect((await admin(support, 'put', `/products/${unsold}`, { status: 'draft' })).body.status).toBe('draft');
      // Products made by the seeds and factories keep the column's default: on sale.
      expect((await createProduct(db(), { name: 'Factory Course' })).status).toBe('active');
    });
  });
});
