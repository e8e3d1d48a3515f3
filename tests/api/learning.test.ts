import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { type ContentResource, DeviceAccessToken, type Product } from '../support/models';
import { hashSecret, newSecret } from '../../api/src/identity/secrets';
import { createServices } from '../../api/src/services';
import {
  createCoupon,
  createCourse,
  createProduct,
  createPurchase,
  createResource,
  linkResource,
} from '../../seeds/factories';
import { testConfig, testDeps } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';

describe('learning (docs/domain.md §11)', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let product: Product;
  let course: ContentResource;
  let lessons: ContentResource[];
  let slug: string;

  beforeAll(async () => {
    // Behind a proxy that names the country, so Restricted purchases can be tried from two places.
    const deps = testDeps(db(), { config: testConfig({ TRUST_PROXY: 'true', COUNTRY_HEADER: 'cf-ipcountry' }) });
    app = createApp(deps, { services: createServices(deps) }).callback();
    product = await createProduct(db(), { name: 'Learning Course' });
    const lesson = (title: string, free = false) => ({ title, body: `<p>${title} body</p>`, free });
    ({ course, lessons } = await createCourse(
      db(),
      {
        title: 'Learning Course',
        modules: [
          {
            title: 'One',
            sections: [
              { title: 'A', lessons: [lesson('L1'), lesson('L2'), lesson('L3', true)] },
              { title: 'B', lessons: [lesson('L4')] },
            ],
          },
          { title: 'Two', sections: [{ title: 'C', lessons: [lesson('L5'), lesson('L6')] }] },
        ],
      },
      { products: [product] },
    ));
    slug = course.fields.slug!;
    // A draft lesson appended to section C: nobody sees it.
    const sectionC = (await db()('contentResources').whereRaw(`fields->>'title' = 'C'`).first()) as ContentResource;
    const draft = await createResource(db(), 'lesson', {
      title: 'Draft lesson',
      state: 'draft',
      body: '<p>secret</p>',
    });
    await linkResource(db(), sectionC, draft, 5);
  });

  const get = (who: SignedIn | undefined, path: string, country = 'US') =>
    as(who, request(app).get(`/api/store${path}`)).set('cf-ipcountry', country);
  const send = (
    who: SignedIn | undefined,
    method: 'put' | 'post' | 'delete' | 'patch',
    path: string,
    body?: object,
    country = 'US',
  ) =>
    as(who, request(app)[method](`/api/store${path}`))
      .set('cf-ipcountry', country)
      .send(body);
  const titles = (lessonsOf: { title: string }[]) => lessonsOf.map((l) => l.title);

  it('shows the outline in order, published only, with free and first lessons open to everyone', async () => {
    const outline = await get(undefined, `/courses/${slug}`);
    expect(outline.status).toBe(200);
    expect(outline.body.modules.map((m: { title: string }) => m.title)).toEqual(['One', 'Two']);
    expect(outline.body.modules[0].sections.map((s: { lessons: { title: string }[] }) => titles(s.lessons))).toEqual([
      ['L1', 'L2', 'L3'],
      ['L4'],
    ]);
    expect(titles(outline.body.modules[1].sections[0].lessons)).toEqual(['L5', 'L6']);
    const open = outline.body.modules
      .flatMap((m: { sections: { lessons: { title: string; open: boolean }[] }[] }) =>
        m.sections.flatMap((s) => s.lessons),
      )
      .filter((l: { open: boolean }) => l.open);
    expect(titles(open)).toEqual(['L1', 'L3', 'L5']); // first of each module, and the one marked free
    expect(outline.body.access).toEqual({ full: false, reason: 'sign-in' });
    expect(outline.body.products).toEqual([expect.objectContaining({ id: product.id })]);

    const locked = await get(undefined, `/courses/${slug}/lessons/${lessons[1]!.id}`);
    expect(locked.body).toMatchObject({
      open: false,
      body: null,
      lock: { reason: 'sign-in' },
      previous: { title: 'L1' },
      next: { title: 'L3' },
      products: [{ id: product.id }],
    });
    const free = await get(undefined, `/courses/${slug}/lessons/${lessons[2]!.id}`);
    expect(free.body).toMatchObject({ open: true, body: '<p>L3 body</p>' });
    expect((await get(undefined, `/courses/${slug}/lessons/draft-lesson`)).status).toBe(404);
    const draftCourse = await createResource(db(), 'course', { title: 'Unpublished', state: 'draft' });
    expect((await get(undefined, `/courses/${draftCourse.id}`)).status).toBe(404);
  });

  it('opens the course for each purchase status as the rules say, and Restricted only from its country', async () => {
    const cases: [
      status: 'Valid' | 'Restricted' | 'Refunded' | 'Disputed' | 'Banned',
      country: string,
      expected: object,
    ][] = [
      ['Valid', 'US', { full: true }],
      ['Restricted', 'IN', { full: true }],
      ['Refunded', 'US', { full: false, reason: 'ended', status: 'Refunded' }],
      ['Disputed', 'US', { full: false, reason: 'ended', status: 'Disputed' }],
      ['Banned', 'US', { full: false, reason: 'ended', status: 'Banned' }],
    ];
    for (const [status, country, expected] of cases) {
      const learner = await signedIn(db());
      await createPurchase(db(), { user: learner.user, product, status, country: 'IN' });
      const outline = await get(learner, `/courses/${slug}`, country);
      expect(outline.body.access, status).toEqual(expected);
      const lesson = await get(learner, `/courses/${slug}/lessons/${lessons[1]!.id}`, country);
      expect(lesson.body.open, status).toBe('full' in expected && expected.full === true);
    }
    const traveller = await signedIn(db());
    await createPurchase(db(), { user: traveller.user, product, status: 'Restricted', country: 'IN' });
    expect((await get(traveller, `/courses/${slug}`, 'DE')).body.access).toEqual({
      full: false,
      reason: 'region',
      purchaseCountry: 'IN',
    });
    const lesson = await get(traveller, `/courses/${slug}/lessons/${lessons[1]!.id}`, 'DE');
    expect(lesson.body).toMatchObject({ open: false, body: null, lock: { reason: 'region', purchaseCountry: 'IN' } });

    const nobody = await signedIn(db());
    expect((await get(nobody, `/courses/${slug}`)).body.access).toEqual({ full: false, reason: 'purchase' });
    // A team purchase alone grants nothing (its owner claims a seat); a redeemed seat does.
    const teamOwner = await signedIn(db());
    const team = await createPurchase(db(), { user: teamOwner.user, product });
    const coupon = await createCoupon(db(), {
      code: null,
      percentageDiscount: 1,
      maxUses: 2,
      bulkPurchaseId: team.id,
      restrictedToProductId: product.id,
    });
    await db()('purchases').where({ id: team.id }).update({ bulkCouponId: coupon.id });
    expect((await get(teamOwner, `/courses/${slug}`)).body.access.full).toBe(false);
    const member = await signedIn(db());
    await db()('purchases').insert({
      userId: member.user.id,
      productId: product.id,
      status: 'Valid',
      totalAmount: 0,
      redeemedBulkCouponId: coupon.id,
    });
    expect((await get(member, `/courses/${slug}`)).body.access.full).toBe(true);
  });

  it('renders lesson bodies safely, whatever hostile HTML was stored', async () => {
    const hostile = [
      '<p>ok</p><script>alert(1)</script>',
      '<img src="x" onerror="alert(1)">',
      '<a href="javascript:alert(1)">click</a>',
      '<a href="JaVaScRiPt:alert(1)">mixed case</a>',
      '<a href="&#106;avascript:alert(1)">entity</a>',
      '<iframe src="https://evil.example"></iframe>',
      '<svg onload="alert(1)"><circle/></svg>',
      '<p style="background:url(javascript:alert(1))" onclick="alert(1)">styled</p>',
      '<img src="data:text/html;base64,PHNjcmlwdD4=">',
      '<form action="https://evil.example"><input name="x"></form>',
      '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
    ].join('\n');
    const owner = await signedIn(db());
    await createPurchase(db(), { user: owner.user, product });
    await db()('contentResources')
      .where({ id: lessons[3]!.id })
      .update({ fields: db().raw(`jsonb_set(fields, '{body}', to_jsonb(?::text))`, [hostile]) });
    const body: string = (await get(owner, `/courses/${slug}/lessons/${lessons[3]!.id}`)).body.body;
    expect(body).toContain('<p>ok</p>');
    expect(body).toContain('click');
    for (const bad of [
      /<script/i,
      /onerror/i,
      /onload/i,
      /onclick/i,
      /javascript:/i,
      /<iframe/i,
      /<svg/i,
      /<form/i,
      /<input/i,
      /data:text/i,
      /style=/i,
      /xlink/i,
    ]) {
      expect(body).not.toMatch(bad);
    }
  });

  it('records progress once however often and from however many devices, and knows where to continue', async () => {
    const learner = await signedIn(db());
    await createPurchase(db(), { user: learner.user, product });
    // The same learner's command-line device, approved through the device flow.
    const token = newSecret();
    await DeviceAccessToken.query(db()).insert({
      token: hashSecret(token),
      userId: learner.user.id,
      clientId: 'course-cli',
    });
    const fromDevice = (method: 'put' | 'get', path: string) =>
      request(app)
        [method](`/api/store${path}`)
        .set('Authorization', `Bearer ${token}`)
        .set('cf-ipcountry', 'US')
        .send({});

    const [l1, l2, l3, l4] = lessons;
    const answers = await Promise.all([
      send(learner, 'put', `/progress/lessons/${l1!.id}`, {}),
      fromDevice('put', `/progress/lessons/${l1!.id}`),
      send(learner, 'put', `/progress/lessons/${l1!.id}`, {}),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(await db()('lessonProgress').where({ userId: learner.user.id, lessonId: l1!.id })).toHaveLength(1);
    const first = (await db()('lessonProgress').where({ userId: learner.user.id, lessonId: l1!.id }).first())
      .completedAt;
    await send(learner, 'put', `/progress/lessons/${l1!.id}`, {});
    expect(
      (await db()('lessonProgress').where({ userId: learner.user.id, lessonId: l1!.id }).first()).completedAt,
    ).toEqual(first);

    const second = await fromDevice('put', `/progress/lessons/${l2!.id}`);
    expect(second.body.module).toMatchObject({
      completed: 2,
      total: 4,
      percent: 50,
      sections: [
        { completed: 2, total: 3 },
        { completed: 0, total: 1 },
      ],
    });
    expect((await get(learner, `/courses/${slug}/next`)).body.next).toMatchObject({ id: l3!.id });
    const outline = (await get(learner, `/courses/${slug}`)).body;
    expect(outline.continue).toMatchObject({ id: l3!.id });
    expect(outline.progress).toEqual({ completed: 2, total: 6, percent: 33 });
    expect((await fromDevice('get', '/learning')).body.data).toEqual([
      expect.objectContaining({
        course: expect.objectContaining({ id: course.id }),
        continue: expect.objectContaining({ id: l3!.id }),
      }),
    ]);

    // Un-complete, then the continue point follows the last completion.
    await send(learner, 'put', `/progress/lessons/${l4!.id}`, {});
    expect((await get(learner, `/courses/${slug}/next`)).body.next).toMatchObject({ title: 'L5' });
    const undone = await send(learner, 'delete', `/progress/lessons/${l2!.id}`);
    expect(undone.body.module).toMatchObject({ completed: 2 });
    const moduleId = outline.modules[0].id;
    expect((await get(learner, `/courses/${slug}/modules/${moduleId}/progress`)).body).toMatchObject({
      completed: 2,
      total: 4,
    });
    const reset = await send(learner, 'post', `/courses/${slug}/modules/${moduleId}/reset`);
    expect(reset.body).toMatchObject({ completed: 0, percent: 0 });
    expect(await db()('lessonProgress').where({ userId: learner.user.id })).toHaveLength(0);
  });

  it('says in the progress answer when the last lesson left completes the course, and the outline and My learning agree', async () => {
    const learner = await signedIn(db());
    await createPurchase(db(), { user: learner.user, product });
    const [l1, ...rest] = lessons;
    const last = rest.pop()!;
    const first = await send(learner, 'put', `/progress/lessons/${l1!.id}`, {});
    expect(first.body.course).toEqual({
      id: course.id,
      title: 'Learning Course',
      slug,
      progress: { completed: 1, total: 6, percent: 17 },
    });
    for (const lesson of rest) await send(learner, 'put', `/progress/lessons/${lesson.id}`, { course: slug });
    // The last one left, in the other module: the course is complete.
    const finishing = await send(learner, 'put', `/progress/lessons/${last.id}`, { course: slug });
    expect(finishing.status).toBe(200);
    expect(finishing.body.course.progress).toEqual({ completed: 6, total: 6, percent: 100 });
    expect(finishing.body.module).toMatchObject({ completed: 2, total: 2 });
    const outline = (await get(learner, `/courses/${slug}`)).body;
    expect(outline.progress).toEqual({ completed: 6, total: 6, percent: 100 });
    expect(outline.continue).toBeNull();
    expect((await get(learner, '/learning')).body.data).toEqual([
      expect.objectContaining({ progress: { completed: 6, total: 6, percent: 100 }, continue: null }),
    ]);

    // Taking one back: the course is no longer complete.
    const undone = await send(learner, 'delete', `/progress/lessons/${l1!.id}?course=${slug}`);
    expect(undone.body.course.progress).toEqual({ completed: 5, total: 6, percent: 83 });
  });

  it('refuses progress on a lesson the learner cannot open', async () => {
    const learner = await signedIn(db());
    const locked = await send(learner, 'put', `/progress/lessons/${lessons[1]!.id}`, {});
    expect(locked.status).toBe(403);
    expect(locked.body.code).toBe('lesson-locked');
    expect((await send(learner, 'put', `/progress/lessons/${lessons[0]!.id}`, {})).status).toBe(200); // the free first lesson
    expect((await send(undefined, 'put', `/progress/lessons/${lessons[0]!.id}`, {})).status).toBe(401);
    expect((await send(learner, 'put', '/progress/lessons/not-an-id', {})).status).toBe(400);
  });

  it('never frees a lesson another course sells: contributors link only their own content, and the selling course decides', async () => {
    const admin = (method: 'post' | 'put', path: string, body: object, who: SignedIn) =>
      as(who, request(app)[method](`/api/admin/${path}`)).send(body);
    const published = { state: 'published', visibility: 'public' };
    const paidLesson = lessons[1]!; // L2: paid in the Learning Course, which a product sells
    const freeThere = lessons[2]!; // L3: marked free in the Learning Course

    // The audit's attack: a contributor builds a published course and links someone else's paid lesson in as free.
    const contributor = await signedIn(db(), ['contributor']);
    const course2 = await admin(
      'post',
      'content-resources',
      { type: 'course', fields: { title: 'My free course', slug: 'my-free-course', ...published } },
      contributor,
    );
    const module2 = await admin(
      'post',
      'content-resources',
      { type: 'module', fields: { title: 'Everything', ...published } },
      contributor,
    );
    expect(
      (
        await admin(
          'post',
          'content-resource-resources',
          { resourceOfId: course2.body.id, resourceId: module2.body.id },
          contributor,
        )
      ).status,
    ).toBe(201);
    const stolen = await admin(
      'post',
      'content-resource-resources',
      { resourceOfId: module2.body.id, resourceId: paidLesson.id, position: 1, metadata: { tier: 'free' } },
      contributor,
    );
    expect(stolen.status).toBe(403);
    expect(stolen.body.message).toMatch(/only content they created/);
    expect(
      await db()('contentResourceResources').where({ resourceOfId: module2.body.id, resourceId: paidLesson.id }),
    ).toHaveLength(0);

    // Staff may link any content, but free/paid is still decided where the lesson is sold: as the first lesson of a
    // module or marked free, another course's link frees nothing, whatever route asks (lesson page, comments, progress).
    const staff = await signedIn(db(), ['admin']);
    const own = await createResource(
      db(),
      'lesson',
      { title: 'Contributor’s own lesson', body: '<p>own body</p>' },
      contributor.user.id,
    );
    await linkResource(db(), module2.body, paidLesson, 0);
    await linkResource(db(), module2.body, own, 1, { tier: 'free' });
    await linkResource(db(), module2.body, freeThere, 2, { tier: 'free' });
    const lessonIn2 = await admin(
      'post',
      'content-resource-resources',
      { resourceOfId: module2.body.id, resourceId: lessons[3]!.id, position: 3, metadata: { tier: 'free' } },
      staff,
    );
    expect(lessonIn2.status).toBe(201);

    const outline = await get(undefined, '/courses/my-free-course');
    const open = Object.fromEntries(
      outline.body.modules[0].lessons.map((l: { title: string; open: boolean }) => [l.title, l.open]),
    );
    expect(open).toEqual({ L2: false, 'Contributor’s own lesson': true, L3: true, L4: false });
    const page = await get(undefined, `/courses/my-free-course/lessons/${paidLesson.id}`);
    expect(page.body).toMatchObject({ open: false, body: null, lock: { reason: 'sign-in' } });
    expect((await get(undefined, `/courses/my-free-course/lessons/${lessons[3]!.id}`)).body).toMatchObject({
      open: false,
      body: null,
    });
    expect((await get(undefined, `/lessons/${paidLesson.id}/comments`)).status).toBe(403);
    const learner = await signedIn(db());
    expect(
      (await send(learner, 'put', `/progress/lessons/${paidLesson.id}`, { course: 'my-free-course' })).body.code,
    ).toBe('lesson-locked');
    expect((await get(undefined, `/courses/my-free-course/lessons/${own.id}`)).body).toMatchObject({
      open: true,
      body: '<p>own body</p>',
    });

    // Contributors still retier and link their own content.
    const ownLink = await db()('contentResourceResources')
      .where({ resourceOfId: module2.body.id, resourceId: own.id })
      .first();
    expect(
      (await admin('put', `content-resource-resources/${ownLink.id}`, { metadata: { tier: 'paid' } }, contributor))
        .status,
    ).toBe(200);
    const stolenLink = await db()('contentResourceResources')
      .where({ resourceOfId: module2.body.id, resourceId: paidLesson.id })
      .first();
    expect(
      (await admin('put', `content-resource-resources/${stolenLink.id}`, { metadata: { tier: 'free' } }, contributor))
        .status,
    ).toBe(403);
  });

  it('keeps one bookmark per lesson, newest first, for its owner only', async () => {
    const learner = await signedIn(db());
    const other = await signedIn(db());
    const courseRef = { course: { slug, title: 'Learning Course' } };
    await send(learner, 'put', `/bookmarks/${lessons[0]!.id}`, courseRef);
    await send(learner, 'put', `/bookmarks/${lessons[4]!.id}`, courseRef);
    await send(learner, 'put', `/bookmarks/${lessons[0]!.id}`, courseRef);
    const listed = (await get(learner, '/bookmarks')).body.data;
    expect(listed.map((b: { lesson: { title: string } }) => b.lesson.title)).toEqual(['L5', 'L1']);
    expect(listed[0].course).toEqual({ slug, title: 'Learning Course' });
    expect((await get(other, '/bookmarks')).body.data).toEqual([]);
    expect((await get(learner, `/courses/${slug}/lessons/${lessons[0]!.id}`)).body.bookmarked).toBe(true);
    await send(learner, 'delete', `/bookmarks/${lessons[0]!.id}`);
    expect((await get(learner, '/bookmarks')).body.data).toHaveLength(1);
    expect((await send(learner, 'put', `/bookmarks/${course.id}`, {})).status).toBe(404); // only lessons
  });

  it('tells nothing of lessons learners cannot see: a draft, a lesson in no course, or one turned draft after bookmarking', async () => {
    const learner = await signedIn(db());
    const draft = (await db()('contentResources')
      .whereRaw(`fields->>'title' = 'Draft lesson'`)
      .first()) as ContentResource;
    const loose = await createResource(db(), 'lesson', { title: 'Published but in no course' });
    for (const hidden of [draft, loose]) {
      const refused = await send(learner, 'put', `/bookmarks/${hidden.id}`, {});
      expect(refused.status).toBe(404);
      expect(JSON.stringify(refused.body)).not.toContain(hidden.fields.title);
    }
    const later = await createResource(db(), 'lesson', { title: 'Soon a draft' });
    const sectionB = (await db()('contentResources').whereRaw(`fields->>'title' = 'B'`).first()) as ContentResource;
    await linkResource(db(), sectionB, later, 9);
    expect((await send(learner, 'put', `/bookmarks/${later.id}`, {})).status).toBe(200);
    const privateCourse = await createResource(db(), 'course', {
      title: 'Private course',
      state: 'published',
      visibility: 'private',
    });
    const privateLesson = await createResource(db(), 'lesson', { title: 'In a private course' });
    const privateModule = await createResource(db(), 'module', { title: 'Private module' });
    await linkResource(db(), privateCourse, privateModule, 0);
    await linkResource(db(), privateModule, privateLesson, 0);
    await db()('bookmarks').insert({
      userId: learner.user.id,
      resourceId: privateLesson.id,
      type: 'bookmark',
      fields: '{}',
    }); // made before the rule
    await db()('contentResources')
      .where({ id: later.id })
      .update({ fields: { ...later.fields, state: 'draft' } });
    expect((await get(learner, '/bookmarks')).body.data).toEqual([]);
    expect(await db()('bookmarks').where({ userId: learner.user.id, resourceId: draft.id })).toHaveLength(0);
  });

  it('reads courses with a device token, but never buys, redeems or signs in with one', async () => {
    const learner = await signedIn(db());
    const token = newSecret();
    await DeviceAccessToken.query(db()).insert({ token: hashSecret(token), userId: learner.user.id, clientId: 'cli' });
    const bearer = (req: request.Test) => req.set('Authorization', `Bearer ${token}`);
    expect((await bearer(request(app).get(`/api/store/courses/${slug}`))).status).toBe(200);
    const checkout = await bearer(request(app).post('/api/store/checkout')).send({ productId: product.id });
    expect(checkout.status).toBe(403);
    expect(checkout.body.message).toMatch(/Device tokens cannot be used here/);
    expect(await db()('checkouts').where({ buyerUserId: learner.user.id })).toHaveLength(0);
    expect((await bearer(request(app).post('/api/store/auth/email')).send({ email: learner.user.email })).status).toBe(
      403,
    );
  });

  it('lets people who can open a lesson discuss it; authors edit their own; staff hide any', async () => {
    const author = await signedIn(db());
    await createPurchase(db(), { user: author.user, product });
    const reader = await signedIn(db());
    await createPurchase(db(), { user: reader.user, product });
    const outsider = await signedIn(db());
    const lesson = lessons[1]!.id;

    expect((await send(outsider, 'post', `/lessons/${lesson}/comments`, { text: 'let me in' })).body.code).toBe(
      'lesson-locked',
    );
    expect((await send(author, 'post', `/lessons/${lesson}/comments`, { text: 'x'.repeat(5001) })).status).toBe(400);
    expect((await send(author, 'post', `/lessons/${lesson}/comments`, { text: '   ' })).status).toBe(400);
    const posted = await send(author, 'post', `/lessons/${lesson}/comments`, { text: 'x'.repeat(5000) });
    expect(posted.status).toBe(201);
    const id = posted.body.id;
    const script = await send(author, 'post', `/lessons/${lesson}/comments`, { text: '<script>alert(1)</script>' });
    expect(script.body.text).toBe('<script>alert(1)</script>'); // stored as text; the page shows it as text

    expect((await send(reader, 'patch', `/comments/${id}`, { text: 'not mine' })).body.code).toBe('not-comment-author');
    expect((await send(reader, 'delete', `/comments/${id}`)).status).toBe(403);
    const edited = await send(author, 'patch', `/comments/${id}`, { text: 'A better question' });
    expect(edited.body).toMatchObject({ text: 'A better question', mine: true, editedAt: expect.any(String) });

    const support = await signedIn(db(), ['support']);
    expect(
      (await as(reader, request(app).post(`/api/admin/comments/${id}/hide`)).send({ reason: 'spam' })).status,
    ).toBe(403);
    const hidden = await as(support, request(app).post(`/api/admin/comments/${id}/hide`)).send({ reason: 'Off topic' });
    expect(hidden.status).toBe(200);
    expect((await get(reader, `/lessons/${lesson}/comments`)).body.data.map((c: { id: string }) => c.id)).not.toContain(
      id,
    );
    const mine = (await get(author, `/lessons/${lesson}/comments`)).body.data.find((c: { id: string }) => c.id === id);
    expect(mine).toMatchObject({ hidden: { reason: 'Off topic' }, mine: true });
    await as(support, request(app).post(`/api/admin/comments/${id}/hide`)).send({ reason: 'Again' }); // already hidden: no change
    expect(await db()('auditLogs').where({ recordId: id, action: 'comment.hidden' })).toHaveLength(1);
    const hiddenList = await as(
      support,
      request(app)
        .get('/api/admin/comments')
        .query({ filter: JSON.stringify({ hidden: true }) }),
    );
    expect(hiddenList.body.map((c: { id: string; hiddenReason: string }) => [c.id, c.hiddenReason])).toEqual([
      [id, 'Off topic'],
    ]);
    await as(support, request(app).post(`/api/admin/comments/${id}/unhide`)).send({});
    expect((await get(reader, `/lessons/${lesson}/comments`)).body.data.map((c: { id: string }) => c.id)).toContain(id);

    expect((await send(author, 'delete', `/comments/${script.body.id}`)).status).toBe(204);
    expect((await get(author, `/lessons/${lesson}/comments`)).body.data).toHaveLength(1);
  });
});
