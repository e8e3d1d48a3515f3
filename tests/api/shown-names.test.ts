import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCourse, createProduct, createPurchase } from '../../seeds/factories';
import { defaultName } from '../../api/src/shared/shown-name';
import { testApp } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';

interface Listed {
  id: string;
  author: { id: string; name: string };
}

describe('people without a display name are told apart ("Learner 4F2A"), never by their email', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let app: ReturnType<typeof testApp>;
  let lessonId: string;
  let first: SignedIn;
  let second: SignedIn;

  beforeAll(async () => {
    app = testApp(db());
    const product = await createProduct(db(), { name: 'Named Course' });
    const { lessons } = await createCourse(
      db(),
      {
        title: 'Named Course',
        modules: [{ title: 'M', sections: [{ title: 'S', lessons: [{ title: 'L', body: '<p>L</p>' }] }] }],
      },
      { products: [product] },
    );
    lessonId = lessons[0]!.id;
    first = await signedIn(db(), ['learner'], 'first.person@example.com');
    second = await signedIn(db(), ['learner'], 'second.person@example.com');
    // Signed up by email and never named themselves.
    await db()('users').whereIn('id', [first.user.id, second.user.id]).update({ name: null });
    for (const who of [first, second]) await createPurchase(db(), { user: who.user, product });
  });

  const list = async (who?: SignedIn): Promise<Listed[]> =>
    (await as(who, request(app).get(`/api/store/lessons/${lessonId}/comments`)).send()).body.data;

  it('gives two nameless learners in one thread different names, the same on every read and for every reader', async () => {
    const asked = await as(first, request(app).post(`/api/store/lessons/${lessonId}/comments`)).send({ text: 'Q?' });
    expect(asked.status).toBe(201);
    const answered = await as(second, request(app).post(`/api/store/lessons/${lessonId}/comments`)).send({
      text: 'A.',
      parentId: asked.body.id,
    });
    expect(answered.status).toBe(201);

    const names = (await list(first)).map((c) => c.author.name);
    expect(names).toHaveLength(2);
    for (const name of names) expect(name).toMatch(/^Learner [0-9A-F]{4}$/);
    expect(names[0]).not.toBe(names[1]);
    expect(names).toEqual([defaultName(first.user.id), defaultName(second.user.id)]);
    // Stable: the same for a visitor, for the other learner, and on the answer to the post itself.
    expect((await list()).map((c) => c.author.name)).toEqual(names);
    expect((await list(second)).map((c) => c.author.name)).toEqual(names);
    expect(answered.body.author.name).toBe(names[1]);
    // Never the email, nor its part before the @.
    const text = JSON.stringify(await list());
    expect(text).not.toContain('first.person');
    expect(text).not.toContain('second.person');
  });

  it('derives the code from the whole id: ids that share a prefix still differ', () => {
    const a = defaultName('0193a3b4-0000-7000-8000-000000000001');
    const b = defaultName('0193a3b4-0000-7000-8000-000000000002');
    expect(a).not.toBe(b);
    expect(defaultName('0193A3B4-0000-7000-8000-000000000001')).toBe(a);
    // Spread over the codes: 2,000 random ids give almost 2,000 names.
    const names = new Set(Array.from({ length: 2000 }, () => defaultName(crypto.randomUUID())));
    expect(names.size).toBeGreaterThan(1950);
  });
});
