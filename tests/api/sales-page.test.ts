import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ContentResource, Product, User } from '../support/models';
import { PLATFORM_REFUND_POLICY } from '../../api/src/catalog/product-page';
import {
  createCoupon,
  createCourse,
  createProduct,
  createPurchase,
  createResource,
  createRevenueSplit,
  createUser,
  createWorkshopSession,
  linkResource,
} from '../../seeds/factories';
import { testApp } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';

const DAY = 86_400_000;

/** Sets a lesson's estimated length the way the console stores it (in its fields). */
async function setMinutes(db: Parameters<typeof createUser>[0], lesson: ContentResource, minutes: number) {
  await db('contentResources')
    .where({ id: lesson.id })
    .update({ fields: db.raw(`fields || jsonb_build_object('durationMinutes', ?::int)`, [minutes]) });
}

describe('GET /api/store/products/:slugOrId (the sales page)', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const app = () => testApp(db());
  let pro: Product;
  let fundamentals: Product;
  let proCourse: ContentResource;
  let proLessons: ContentResource[];
  let fundamentalsCourse: ContentResource;
  let owner: User;

  beforeAll(async () => {
    fundamentals = await createProduct(db(), { name: 'Sales Fundamentals', unitAmount: 4900 });
    pro = await createProduct(db(), { name: 'Sales Pro', unitAmount: 19900, description: 'Everything, deeper.' });
    const lesson = (title: string, free = false) => ({ title, body: `<p>${title} secret body</p>`, free });
    ({ course: fundamentalsCourse } = await createCourse(
      db(),
      {
        title: 'Fundamentals Course',
        modules: [{ title: 'Basics', sections: [{ title: 'S', lessons: [lesson('F1')] }] }],
      },
      { products: [fundamentals] },
    ));
    ({ course: proCourse, lessons: proLessons } = await createCourse(db(), {
      title: 'Pro Course',
      description: 'The advanced course.',
      modules: [
        {
          title: 'Generics',
          sections: [
            { title: 'Basics', lessons: [lesson('P1'), lesson('P2'), lesson('P3', true)] },
            { title: 'More', lessons: [lesson('P4')] },
          ],
        },
        { title: 'Type-level', sections: [{ title: 'Conditional', lessons: [lesson('P5'), lesson('P6')] }] },
      ],
    }));
    // Pro is about its own course first, then Fundamentals (which another product sells first).
    await db()('productContentResources').insert([
      { productId: pro.id, resourceId: proCourse.id, position: 0 },
      { productId: pro.id, resourceId: fundamentalsCourse.id, position: 1 },
    ]);
    await setMinutes(db(), proLessons[0]!, 12);
    await setMinutes(db(), proLessons[1]!, 20);
    await setMinutes(db(), proLessons[4]!, 95);

    // Drafts stay off the page: a draft lesson in a published module, and a whole draft module.
    const sectionMore = (await db()('contentResources')
      .whereRaw(`fields->>'title' = 'More'`)
      .first()) as ContentResource;
    await linkResource(
      db(),
      sectionMore,
      await createResource(db(), 'lesson', { title: 'Draft lesson', state: 'draft', body: 'x' }),
      9,
    );
    const draftModule = await createResource(db(), 'module', { title: 'Draft module', state: 'draft' });
    await linkResource(db(), proCourse, draftModule, 9);
    // A draft course the product also grants.
    const draftCourse = await createResource(db(), 'course', { title: 'Draft course', state: 'draft' });
    await db()('productContentResources').insert({ productId: pro.id, resourceId: draftCourse.id, position: 2 });

    owner = await createUser(db(), { name: 'Olive Owner' });
    await db()('users').where({ id: owner.id }).update({ bio: 'Writes compilers for fun.' });
    const contributor = await createUser(db(), { name: 'Cody Contributor' });
    const nameless = await createUser(db());
    await db()('users').where({ id: nameless.id }).update({ name: null }); // no name shown: not on the page
    await createRevenueSplit(db(), { productId: pro.id, type: 'platform', percent: 0.3 });
    await createRevenueSplit(db(), { productId: pro.id, type: 'contributor', percent: 0.3, userId: contributor.id });
    await createRevenueSplit(db(), { productId: pro.id, type: 'owner', percent: 0.2, userId: owner.id });
    await createRevenueSplit(db(), { productId: pro.id, type: 'contributor', percent: 0.1, userId: nameless.id });
    await db()('products')
      .where({ id: pro.id })
      .update({ included: ['Private Discord channel'] });
    await db()('productFaqs').insert({
      productId: pro.id,
      position: 0,
      question: 'Is there a certificate?',
      answer: 'Not yet.',
    });
  });

  it('answers the product with its curriculum: published modules and lessons, free previews and lengths', async () => {
    const response = await request(app()).get(`/api/store/products/${pro.slug}`);
    expect(response.status).toBe(200);
    const page = response.body;
    expect(page).toMatchObject({ id: pro.id, name: 'Sales Pro', description: 'Everything, deeper.' });
    expect(page.price).toMatchObject({ unitAmount: 19900, currency: 'usd' });
    // The product's own order: its own course first; the draft course is not there.
    expect(page.curriculum.map((c: { title: string }) => c.title)).toEqual(['Pro Course', 'Fundamentals Course']);
    const [course] = page.curriculum;
    expect(course).toMatchObject({
      id: proCourse.id,
      slug: proCourse.fields.slug,
      description: 'The advanced course.',
      lessonCount: 6,
      // P1 (first of its module), P3 (marked free), P5 (first of its module).
      freeLessonCount: 3,
      // Three of its six lessons have a length: the course's is not known (a partial sum would understate it).
      durationMinutes: null,
    });
    expect(course.modules.map((m: { title: string }) => m.title)).toEqual(['Generics', 'Type-level']);
    const [generics] = course.modules;
    expect(generics).toMatchObject({ lessonCount: 4, durationMinutes: null });
    expect(generics.sections.map((s: { title: string }) => s.title)).toEqual(['Basics', 'More']);
    expect(generics.sections[0].lessons).toEqual([
      { id: proLessons[0]!.id, slug: proLessons[0]!.fields.slug, title: 'P1', free: true, durationMinutes: 12 },
      { id: proLessons[1]!.id, slug: proLessons[1]!.fields.slug, title: 'P2', free: false, durationMinutes: 20 },
      { id: proLessons[2]!.id, slug: proLessons[2]!.fields.slug, title: 'P3', free: true, durationMinutes: null },
    ]);
    expect(generics.sections[1].lessons.map((l: { title: string }) => l.title)).toEqual(['P4']);
    // Nothing a visitor may not see: no lesson bodies, no drafts.
    const json = JSON.stringify(page);
    expect(json).not.toContain('secret body');
    expect(json).not.toContain('Draft');
    expect(json).not.toContain('"body"');
  });

  it('names the owners and contributors who show a name, owners first, with their bios; never the platform', async () => {
    const page = (await request(app()).get(`/api/store/products/${pro.id}`)).body;
    expect(page.instructors).toEqual([
      { name: 'Olive Owner', bio: 'Writes compilers for fun.', role: 'owner', avatar: null },
      { name: 'Cody Contributor', bio: null, role: 'contributor', avatar: null },
    ]);
    expect(JSON.stringify(page)).not.toContain('@example.com');
  });

  it('answers the FAQ, what is included (worked out, then added by staff) and the refund policy', async () => {
    const page = (await request(app()).get(`/api/store/products/${pro.slug}`)).body;
    expect(page.faq).toEqual([{ question: 'Is there a certificate?', answer: 'Not yet.' }]);
    expect(page.included).toEqual([
      '2 courses, 7 lessons',
      'Study at your own pace and track your progress',
      '4 free preview lessons to try before you buy',
      'Team seats: 15 % off from 5 seats',
      'Give it to someone else within 7 days of buying',
      'Private Discord channel',
    ]);
    expect(page.refundPolicy).toBe(PLATFORM_REFUND_POLICY);

    await db()('products').where({ id: pro.id }).update({ refundPolicy: 'Full refund within 30 days.' });
    const changed = (await request(app()).get(`/api/store/products/${pro.slug}`)).body;
    expect(changed.refundPolicy).toBe('Full refund within 30 days.');
    await db()('products').where({ id: pro.id }).update({ refundPolicy: null });
  });

  it('counts a workshop’s sessions still to come', async () => {
    const workshop = await createProduct(db(), { name: 'Sales Workshop', productType: 'live', quantityAvailable: 3 });
    await createWorkshopSession(db(), { product: workshop, startsAt: new Date(Date.now() + 2 * DAY) });
    await createWorkshopSession(db(), { product: workshop, startsAt: new Date(Date.now() + 3 * DAY) });
    await createWorkshopSession(db(), { product: workshop, startsAt: new Date(Date.now() - 3 * DAY) });
    const page = (await request(app()).get(`/api/store/products/${workshop.slug}`)).body;
    expect(page.included).toContain('2 live sessions, with a calendar invite');
    // Three seats: no team tier within reach.
    expect(page.included.some((line: string) => line.startsWith('Team seats'))).toBe(false);
    expect(page.seatsLeft).toBe(3);
    expect(page.curriculum).toEqual([]);
  });

  it('shows a running sale with its end and the price it makes, the same in the list and in a quote', async () => {
    const ends = new Date(Date.now() + 2 * DAY);
    const sale = await createCoupon(db(), {
      default: true,
      percentageDiscount: 0.25,
      expires: ends,
      restrictedToProductId: pro.id,
    });
    try {
      const page = (await request(app()).get(`/api/store/products/${pro.slug}`)).body;
      expect(page.sale).toEqual({ percent: 25, unitAmount: 14925, endsAt: ends.toISOString() });
      const listed = (await request(app()).get('/api/store/products')).body.data;
      expect(listed.find((p: { id: string }) => p.id === pro.id).sale).toEqual(page.sale);
      // Restricted to Pro: no sale on Fundamentals.
      expect(listed.find((p: { id: string }) => p.id === fundamentals.id).sale).toBeNull();
      const quoted = (await request(app()).get(`/api/store/products/${pro.id}/quote`)).body;
      expect(quoted.quote.finalPrice).toBe(page.sale.unitAmount);
    } finally {
      await db()('coupons').where({ id: sale.id }).update({ status: 'inactive' });
    }
    expect((await request(app()).get(`/api/store/products/${pro.slug}`)).body.sale).toBeNull();
  });

  it('answers 404 for an unknown or archived product', async () => {
    const archived = await createProduct(db(), { name: 'Sales Archived', status: 'archived' });
    for (const key of ['no-such-course', '00000000-0000-4000-8000-000000000000', archived.slug!, archived.id]) {
      const response = await request(app()).get(`/api/store/products/${key}`);
      expect(response.status, key).toBe(404);
      expect(response.body.code).toBe('product-not-found');
    }
  });
});

describe('GET /api/store/owned-products', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let learner: SignedIn;

  beforeAll(async () => {
    learner = await signedIn(db());
  });

  it('lists the products a learner holds themselves, not refunded ones nor a team purchase without a seat', async () => {
    const held = await createProduct(db());
    const refunded = await createProduct(db());
    const team = await createProduct(db());
    const restricted = await createProduct(db());
    await createPurchase(db(), { user: learner.user, product: held });
    await createPurchase(db(), { user: learner.user, product: refunded, status: 'Refunded' });
    await createPurchase(db(), { user: learner.user, product: restricted, status: 'Restricted', country: 'IN' });
    const coupon = await createCoupon(db(), { percentageDiscount: 1, maxUses: 5, restrictedToProductId: team.id });
    await db()('purchases').insert({
      userId: learner.user.id,
      productId: team.id,
      status: 'Valid',
      totalAmount: 10000,
      bulkCouponId: coupon.id,
    });
    const response = await as(learner, request(testApp(db())).get('/api/store/owned-products'));
    expect(response.status).toBe(200);
    expect(response.body.data.sort()).toEqual([held.id, restricted.id].sort());
    expect((await request(testApp(db())).get('/api/store/owned-products')).status).toBe(401);
  });
});
