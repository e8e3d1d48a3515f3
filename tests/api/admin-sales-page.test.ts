import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCourse, createProduct, createUser } from '../../seeds/factories';
import { testApp } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';

/** The console's writes behind the sales page: a product's included lines, FAQ and refund policy, a bio, a lesson's length. */
describe('console edits of the sales page', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const app = () => testApp(db());
  let support: SignedIn;

  beforeAll(async () => {
    support = await signedIn(db(), ['support']);
  });

  it('stores a product’s included lines, FAQ and refund policy, and the sales page shows them', async () => {
    const product = await createProduct(db(), { name: 'Console Sales' });
    const response = await as(support, request(app()).put(`/api/admin/products/${product.id}`)).send({
      included: ['  Certificate of completion ', 'Private community'],
      faq: [
        { question: 'Do I need TypeScript?', answer: 'No: the first module starts from JavaScript.' },
        { question: 'How long do I keep access?', answer: 'For as long as the course exists.\nUpdates included.' },
      ],
      refundPolicy: '  Full refund within 30 days, no questions asked. ',
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({
      included: ['Certificate of completion', 'Private community'],
      refundPolicy: 'Full refund within 30 days, no questions asked.',
    });
    const faq = [
      { question: 'Do I need TypeScript?', answer: 'No: the first module starts from JavaScript.' },
      { question: 'How long do I keep access?', answer: 'For as long as the course exists.\nUpdates included.' },
    ];
    expect(response.body.faq).toEqual(faq);
    const rows = await db()('productFaqs').where({ productId: product.id }).orderBy('position');
    expect(rows.map(({ position, question, answer }) => ({ position, question, answer }))).toEqual(
      faq.map((item, position) => ({ position, ...item })),
    );
    const page = (await request(app()).get(`/api/store/products/${product.slug}`)).body;
    expect(page.faq).toEqual(faq);
    // The record read back (as the edit form loads it) carries the questions too.
    const read = await as(support, request(app()).get(`/api/admin/products/${product.id}`));
    expect(read.body.faq).toEqual(faq);

    // Reordered and one removed: exactly the list sent is kept.
    const reordered = await as(support, request(app()).put(`/api/admin/products/${product.id}`)).send({
      faq: [faq[1]],
    });
    expect(reordered.status).toBe(200);
    expect(reordered.body.faq).toEqual([faq[1]]);
    expect(page.included.slice(-2)).toEqual(['Certificate of completion', 'Private community']);
    expect(page.refundPolicy).toBe('Full refund within 30 days, no questions asked.');

    // Emptied: the platform's policy again.
    const cleared = await as(support, request(app()).put(`/api/admin/products/${product.id}`)).send({
      refundPolicy: '',
    });
    expect(cleared.status).toBe(200);
    expect((await db()('products').where({ id: product.id }).first()).refundPolicy).toBeNull();
    // The change is audited.
    const audits = await db()('auditLogs').where({ resource: 'products', recordId: product.id, action: 'update' });
    expect(audits.length).toBeGreaterThanOrEqual(2);
  });

  it('refuses a question without an answer, too many lines or an overlong policy, naming the field, writing nothing', async () => {
    const product = await createProduct(db(), { name: 'Console Sales Refused' });
    const put = (body: object) => as(support, request(app()).put(`/api/admin/products/${product.id}`)).send(body);

    const unanswered = await put({ name: 'Renamed', faq: [{ question: 'Why?', answer: '   ' }] });
    expect(unanswered.status).toBe(400);
    expect(unanswered.body).toMatchObject({ code: 'validation-failed', errors: { 'faq.0.answer': 'is required' } });

    const tooMany = await put({ included: Array.from({ length: 13 }, (_, i) => `Line ${i}`) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors).toEqual({ included: 'at most 12 lines' });

    const long = await put({ refundPolicy: 'x'.repeat(4001) });
    expect(long.status).toBe(400);
    expect(long.body.errors).toEqual({ refundPolicy: 'at most 4000 characters' });

    const extra = await put({ faq: [{ question: 'Why?', answer: 'Because.', html: '<b>' }] });
    expect(extra.status).toBe(400);

    const row = await db()('products').where({ id: product.id }).first();
    expect(row).toMatchObject({ name: 'Console Sales Refused', included: [], refundPolicy: null });
    expect(await db()('productFaqs').where({ productId: product.id })).toEqual([]);
  });

  it('stores a person’s bio (emptied: none), and refuses one too long', async () => {
    const person = await createUser(db(), { name: 'Bea Bio' });
    const saved = await as(support, request(app()).put(`/api/admin/users/${person.id}`)).send({
      bio: ' Teaches TypeScript at scale. ',
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.bio).toBe('Teaches TypeScript at scale.');
    expect((await db()('users').where({ id: person.id }).first()).bio).toBe('Teaches TypeScript at scale.');

    const long = await as(support, request(app()).put(`/api/admin/users/${person.id}`)).send({ bio: 'x'.repeat(1001) });
    expect(long.status).toBe(400);
    expect(long.body.errors).toEqual({ bio: 'at most 1000 characters' });

    const cleared = await as(support, request(app()).put(`/api/admin/users/${person.id}`)).send({ bio: '' });
    expect(cleared.status).toBe(200);
    expect((await db()('users').where({ id: person.id }).first()).bio).toBeNull();
  });

  it('stores a lesson’s estimated minutes in its fields, and refuses a length that is not whole minutes', async () => {
    const { lessons } = await createCourse(db(), {
      title: 'Timed Course',
      modules: [{ title: 'M', sections: [{ title: 'S', lessons: [{ title: 'Timed lesson', body: '<p>x</p>' }] }] }],
    });
    const lesson = lessons[0]!;
    const put = (durationMinutes: unknown) =>
      as(support, request(app()).put(`/api/admin/content-resources/${lesson.id}`)).send({
        fields: { title: 'Timed lesson', state: 'published', visibility: 'public', durationMinutes },
      });
    const saved = await put(25);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.fields.durationMinutes).toBe(25);
    expect((await db()('contentResources').where({ id: lesson.id }).first()).fields.durationMinutes).toBe(25);

    for (const [bad, message] of [
      [0, 'at least 1 minute'],
      [2.5, 'must be a whole number of minutes'],
      ['10', 'must be a whole number of minutes'],
      [2000, 'at most 1440 minutes (a day)'],
    ] as const) {
      const refused = await put(bad);
      expect(refused.status, String(bad)).toBe(400);
      expect(refused.body.errors).toEqual({ 'fields.durationMinutes': message });
    }
    expect((await db()('contentResources').where({ id: lesson.id }).first()).fields.durationMinutes).toBe(25);

    const cleared = await put(null);
    expect(cleared.status).toBe(200);
    expect(cleared.body.fields.durationMinutes).toBeNull();
  });

  it('keeps the database itself from holding a length that is not whole minutes', async () => {
    const { lessons } = await createCourse(db(), {
      title: 'Checked Course',
      modules: [{ title: 'M', sections: [{ title: 'S', lessons: [{ title: 'Checked lesson', body: '<p>x</p>' }] }] }],
    });
    await expect(
      db()('contentResources')
        .where({ id: lessons[0]!.id })
        .update({ fields: db().raw(`fields || '{"durationMinutes": "ten"}'::jsonb`) }),
    ).rejects.toThrow(/content_resources_duration_minutes_shape/);
    const product = await createProduct(db(), { name: 'Checked FAQ' });
    await expect(
      db()('productFaqs').insert({ productId: product.id, position: 0, question: '', answer: 'x' }),
    ).rejects.toThrow(/product_faqs_question_length/);
  });
});
