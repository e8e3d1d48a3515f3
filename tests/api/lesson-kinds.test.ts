import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCourse, createProduct } from '../../seeds/factories';
import { testApp } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';

// A lesson's kind (api/src/shared/lesson-kinds.ts): what the lesson answer carries for it, and what the console takes.
describe('lesson kinds (docs/domain.md §11)', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const app = () => testApp(db());
  let admin: SignedIn;
  let slug: string;
  let free: { id: string };
  let paid: { id: string };

  beforeAll(async () => {
    admin = await signedIn(db(), ['admin']);
    const product = await createProduct(db(), { name: 'Kinds Course' });
    const lesson = (title: string) => ({ title, body: `<p>${title} body</p>` });
    const made = await createCourse(
      db(),
      {
        title: 'Kinds Course',
        modules: [{ title: 'One', sections: [{ title: 'A', lessons: [lesson('Free'), lesson('Paid')] }] }],
      },
      { products: [product] },
    );
    slug = made.course.fields.slug!;
    [free, paid] = [made.lessons[0]!, made.lessons[1]!];
  });

  const lessonAnswer = (id: string) => request(app()).get(`/api/store/courses/${slug}/lessons/${id}`);
  const storedFields = async (id: string) =>
    ((await db()('contentResources').where({ id }).first()) as { fields: Record<string, unknown> }).fields;

  it('answers an open lesson with its kind beside its body, and a locked one with neither', async () => {
    const open = await lessonAnswer(free.id);
    expect(open.status).toBe(200);
    expect(open.body).toMatchObject({ open: true, body: '<p>Free body</p>', content: { kind: 'text' } });
    const locked = await lessonAnswer(paid.id);
    expect(locked.body).toMatchObject({ open: false, body: null, content: null });
  });

  it('reads a lesson that names no kind, or one this version does not know, as a text lesson', async () => {
    await db()('contentResources')
      .where({ id: free.id })
      .update({ fields: JSON.stringify({ ...(await storedFields(free.id)), kind: 'from-a-later-version' }) });
    expect((await lessonAnswer(free.id)).body.content).toEqual({ kind: 'text' });
  });

  it('refuses in the console a kind it does not know, and takes one it knows', async () => {
    const put = (fields: object) =>
      as(admin, request(app()).put(`/api/admin/content-resources/${paid.id}`)).send({
        fields: { title: 'Paid', state: 'published', visibility: 'public', ...fields },
      });
    const refused = await put({ kind: 'hologram' });
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.errors)).toEqual(['fields.kind']);
    expect((await put({ kind: 'text', body: '<p>Paid body</p>' })).status).toBe(200);
    expect(await storedFields(paid.id)).toMatchObject({ kind: 'text', body: '<p>Paid body</p>' });
  });
});
