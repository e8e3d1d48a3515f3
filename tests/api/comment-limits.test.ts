import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ContentResource, Product } from '../support/models';
import { createCourse, createProduct, createPurchase } from '../../seeds/factories';
import { testApp, testConfig } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { manualClock, onTheHour } from '../support/clock';
import { useTestDatabase } from '../support/db';

describe('comments: how many one person may post', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let product: Product;
  let lesson: ContentResource;

  beforeAll(async () => {
    product = await createProduct(db(), { name: 'Busy Course' });
    const made = await createCourse(
      db(),
      {
        title: 'Busy Course',
        modules: [{ title: 'M', sections: [{ title: 'S', lessons: [{ title: 'L', body: '<p>x</p>' }] }] }],
      },
      { products: [product] },
    );
    lesson = made.lessons[0]!;
  });

  async function buyer(): Promise<SignedIn> {
    const who = await signedIn(db());
    await createPurchase(db(), { user: who.user, product });
    return who;
  }

  const post = (app: ReturnType<typeof testApp>, who: SignedIn, body: object) =>
    as(who, request(app).post(`/api/store/lessons/${lesson.id}/comments`)).send(body);
  const countBy = async (who: SignedIn) =>
    Number((await db()('comments').where({ userId: who.user.id }).count({ n: '*' }))[0]!.n);

  it('takes ten comments and replies a minute from one person, then answers 429 with Retry-After until the next minute', async () => {
    const clock = manualClock(onTheHour());
    const app = testApp(db(), { clock });
    const [learner, other] = [await buyer(), await buyer()];

    const first = await post(app, learner, { text: 'First question' });
    expect(first.status).toBe(201);
    for (let i = 2; i <= 10; i++) {
      const body = i % 2 ? { text: `Reply ${i}`, parentId: first.body.id } : { text: `Comment ${i}` };
      expect((await post(app, learner, body)).status).toBe(201);
    }
    clock.advance(20_000);
    for (const body of [{ text: 'One too many' }, { text: 'A reply too many', parentId: first.body.id }]) {
      const refused = await post(app, learner, body);
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({
        code: 'rate-limited',
        message: 'Too many comments posted. Try again in 40 seconds.',
      });
      expect(refused.headers['retry-after']).toBe('40');
    }
    expect(await countBy(learner)).toBe(10);

    // Per person: someone else posts meanwhile; and the next minute the first may post again.
    expect((await post(app, other, { text: 'My own question' })).status).toBe(201);
    clock.advance(40_000);
    expect((await post(app, learner, { text: 'Back again' })).status).toBe(201);
    expect(await countBy(learner)).toBe(11);
  });

  it('lets exactly the limit through when one person posts many at once (counted in the database)', async () => {
    const app = testApp(db(), { clock: manualClock(onTheHour()) });
    const learner = await buyer();
    const answers = await Promise.all(Array.from({ length: 25 }, (_, i) => post(app, learner, { text: `Burst ${i}` })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(10);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(15);
    expect(await countBy(learner)).toBe(10);
  });

  it('follows COMMENTS_PER_MINUTE, and a comment refused for its text is not counted', async () => {
    const app = testApp(db(), {
      clock: manualClock(onTheHour()),
      config: testConfig({ COMMENTS_PER_MINUTE: '2' }),
    });
    const learner = await buyer();
    expect((await post(app, learner, { text: '   ' })).status).toBe(400);
    // A NUL, which PostgreSQL's text cannot hold, is refused on its field before it is counted.
    const nul = await post(app, learner, { text: 'Line\u0000break' });
    expect(nul.status).toBe(400);
    expect(nul.body.errors).toEqual({ text: expect.stringContaining('NUL') });
    expect((await post(app, learner, { text: 'One' })).status).toBe(201);
    expect((await post(app, learner, { text: 'Two' })).status).toBe(201);
    expect((await post(app, learner, { text: 'Three' })).status).toBe(429);
  });
});
