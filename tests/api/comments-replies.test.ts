import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import type { ContentResource, Product } from '../support/models';
import { createServices } from '../../api/src/services';
import { createCourse, createProduct, createPurchase, createRevenueSplit } from '../../seeds/factories';
import { testDeps } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';
import { defaultName } from '../../api/src/shared/shown-name';

interface Listed {
  id: string;
  parentId: string | null;
  text: string;
  author: { id: string; name: string; instructor: boolean };
}

describe('comments: display names, the instructor badge and one level of replies (issue 17, point 4)', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let product: Product;
  let lessons: ContentResource[];
  let creator: SignedIn;
  let owner: SignedIn;
  let learner: SignedIn;
  let other: SignedIn;

  beforeAll(async () => {
    const deps = testDeps(db());
    app = createApp(deps, { services: createServices(deps) }).callback();
    creator = await signedIn(db(), ['contributor']);
    owner = await signedIn(db());
    learner = await signedIn(db());
    other = await signedIn(db());
    product = await createProduct(db(), { name: 'Discussed Course' });
    ({ lessons } = await createCourse(
      db(),
      {
        title: 'Discussed Course',
        modules: [
          {
            title: 'M',
            sections: [
              {
                title: 'S',
                lessons: [
                  { title: 'L1', body: '<p>One</p>' },
                  { title: 'L2', body: '<p>Two</p>' },
                ],
              },
            ],
          },
        ],
      },
      { createdById: creator.user.id, products: [product] },
    ));
    await createRevenueSplit(db(), { productId: product.id, type: 'owner', percent: 0.5, userId: owner.user.id });
    for (const who of [owner, learner, other]) await createPurchase(db(), { user: who.user, product });
  });

  const post = (who: SignedIn, lessonId: string, body: object) =>
    as(who, request(app).post(`/api/store/lessons/${lessonId}/comments`)).send(body);
  const list = async (who: SignedIn | undefined, lessonId: string): Promise<Listed[]> =>
    (await as(who, request(app).get(`/api/store/lessons/${lessonId}/comments`)).send()).body.data;
  const setName = (who: SignedIn | undefined, body: unknown) =>
    as(who, request(app).put('/api/store/me/name')).send(body as object);

  it('sets a trimmed display name shown on comments; an empty one shows their "Learner 4F2A" name again', async () => {
    const lesson = lessons[0]!.id;
    const saved = await setName(learner, { name: '  Ada   Lovelace ' });
    expect(saved.status).toBe(200);
    expect(saved.body.user).toMatchObject({ id: learner.user.id, name: 'Ada Lovelace' });
    expect((await as(learner, request(app).get('/api/store/me')).send()).body.user.name).toBe('Ada Lovelace');
    const posted = await post(learner, lesson, { text: 'Hello' });
    expect(posted.body.author).toEqual({ id: learner.user.id, name: 'Ada Lovelace', instructor: false });
    expect((await list(undefined, lesson)).find((c) => c.id === posted.body.id)!.author.name).toBe('Ada Lovelace');

    expect((await setName(learner, { name: '   ' })).body.user.name).toBeNull();
    expect((await setName(learner, { name: null })).body.user.name).toBeNull();
    expect((await list(other, lesson)).find((c) => c.id === posted.body.id)!.author.name).toBe(
      defaultName(learner.user.id),
    );
  });

  it.each([
    ['one character', { name: 'A' }, 'name'],
    ['61 characters', { name: 'x'.repeat(61) }, 'name'],
    ['a control character', { name: 'Ada\u0000Lovelace' }, 'name'],
    ['a number', { name: 42 }, 'name'],
    ['no name at all', {}, 'name'],
    // An unknown key is the body's problem, not a field's (the API's shape for strict bodies).
    ['another field', { name: 'Ada', roles: ['admin'] }, '_'],
  ])('refuses a display name with %s (400, the problem named)', async (_what, body, field) => {
    const response = await setName(learner, body);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('validation-failed');
    expect(Object.keys(response.body.errors)).toEqual([field]);
    expect((await as(learner, request(app).get('/api/store/me')).send()).body.user.name).not.toBe('Ada');
  });

  it('refuses a display name from someone signed out', async () => {
    expect((await setName(undefined, { name: 'Nobody' })).status).toBe(401);
  });

  it('marks the course creator, the product owner and staff as instructors, and nobody else', async () => {
    const lesson = lessons[0]!.id;
    const support = await signedIn(db(), ['support']);
    const outsiderContributor = await signedIn(db(), ['contributor']); // a contributor of some other course
    for (const who of [creator, owner, support, other, outsiderContributor]) {
      expect((await post(who, lesson, { text: `from ${who.user.id}` })).status).toBe(201);
    }
    const badges = Object.fromEntries((await list(undefined, lesson)).map((c) => [c.author.id, c.author.instructor]));
    expect(badges).toMatchObject({
      [creator.user.id]: true,
      [owner.user.id]: true,
      [support.user.id]: true,
      [other.user.id]: false,
      [outsiderContributor.user.id]: false,
    });
  });

  it('takes one level of replies: a reply to a reply is refused with its code, so is a parent elsewhere', async () => {
    const [first, second] = lessons.map((l) => l.id) as [string, string];
    const top = (await post(other, first, { text: 'How do generics work?' })).body;
    expect(top.parentId).toBeNull();
    const reply = await post(creator, first, { text: 'Like function parameters, for types.', parentId: top.id });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ parentId: top.id, author: { id: creator.user.id, instructor: true } });

    const deeper = await post(learner, first, { text: 'A reply to the reply', parentId: reply.body.id });
    expect(deeper.status).toBe(409);
    expect(deeper.body.code).toBe('reply-to-reply');
    expect(deeper.body.errors).toEqual({ parentId: 'is itself a reply' });

    const elsewhere = await post(learner, second, { text: 'Wrong lesson', parentId: top.id });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.errors).toEqual({ parentId: 'is not a comment under this lesson' });
    const missing = await post(learner, first, { text: 'x', parentId: '00000000-0000-4000-8000-000000000000' });
    expect(missing.status).toBe(404);
    const malformed = await post(learner, first, { text: 'x', parentId: 'top' });
    expect(malformed.status).toBe(400);
    expect(Object.keys(malformed.body.errors)).toEqual(['parentId']);

    const thread = (await list(learner, first)).filter((c) => [top.id, reply.body.id].includes(c.id));
    expect(thread.map((c) => [c.id, c.parentId])).toEqual([
      [top.id, null],
      [reply.body.id, top.id],
    ]);
  });

  it('lets staff hide and show a reply; hiding a comment hides its replies from others; deleting it takes them', async () => {
    const lesson = lessons[1]!.id;
    const support = await signedIn(db(), ['support']);
    const top = (await post(learner, lesson, { text: 'Thread start' })).body;
    const reply = (await post(other, lesson, { text: 'Off-topic reply', parentId: top.id })).body;
    const ids = async (who: SignedIn | undefined) => (await list(who, lesson)).map((c) => c.id);

    const hidden = await as(support, request(app).post(`/api/admin/comments/${reply.id}/hide`)).send({
      reason: 'Spam',
    });
    expect(hidden.status).toBe(200);
    expect(hidden.body.data).toMatchObject({ id: reply.id, parentId: top.id, hiddenReason: 'Spam' });
    expect(await ids(learner)).toEqual([top.id]);
    expect((await list(other, lesson)).find((c) => c.id === reply.id)).toMatchObject({ hidden: { reason: 'Spam' } });
    await as(support, request(app).post(`/api/admin/comments/${reply.id}/unhide`))
      .send({})
      .expect(200);
    expect(await ids(learner)).toEqual([top.id, reply.id]);

    // The thread's first comment hidden: its replies answer nothing others can see, so they go with it.
    await as(support, request(app).post(`/api/admin/comments/${top.id}/hide`))
      .send({})
      .expect(200);
    expect(await ids(other)).toEqual([]); // the reply's own author too: it answers nothing they can see
    expect(await ids(learner)).toEqual([top.id, reply.id]); // its author still sees the thread
    const refused = await post(other, lesson, { text: 'Reply to a hidden one', parentId: top.id });
    expect(refused.status).toBe(404);
    await as(support, request(app).post(`/api/admin/comments/${top.id}/unhide`))
      .send({})
      .expect(200);

    expect((await as(learner, request(app).delete(`/api/store/comments/${top.id}`)).send()).status).toBe(204);
    expect(await ids(other)).toEqual([]);
    expect(await db()('comments').where({ id: reply.id }).first()).toBeUndefined();
  });

  it('counts the limit after trimming: 60 characters with spaces around are taken', async () => {
    const response = await setName(learner, { name: `  ${'y'.repeat(60)}\n ` });
    expect(response.status).toBe(200);
    expect(response.body.user.name).toBe('y'.repeat(60));
  });
});
