import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { createServices, type Services } from '../../api/src/services';
import { createCourse, createProduct, createPurchase } from '../../seeds/factories';
import { testConfig, testDeps } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';
import { OutboxEmail, type ContentResource, type Product } from '../support/models';

const COURSE = 'Knots for Sailors';

describe('finishing a course sends one congratulations email with the certificate’s links (docs/domain.md §13)', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let services: Services;
  let course: ContentResource;
  let lessons: ContentResource[];
  let learner: SignedIn;
  let racer: SignedIn;
  let product: Product;

  beforeAll(async () => {
    const deps = testDeps(db(), { config: testConfig({ PUBLIC_URL: 'https://school.example' }) });
    services = createServices(deps);
    app = createApp(deps, { services }).callback();
    product = await createProduct(db(), { name: COURSE });
    ({ course, lessons } = await createCourse(
      db(),
      {
        title: COURSE,
        modules: [
          {
            title: 'Basics',
            sections: [
              {
                title: 'Knots',
                lessons: [
                  { title: 'The bowline', body: '<p>Loop.</p>' },
                  { title: 'The cleat hitch', body: '<p>Cleat.</p>' },
                ],
              },
            ],
          },
        ],
      },
      { products: [product] },
    ));
    learner = await signedIn(db(), ['learner'], 'sailor@example.com');
    racer = await signedIn(db(), ['learner'], 'racer@example.com');
    for (const who of [learner, racer]) await createPurchase(db(), { user: who.user, product });
  });

  const complete = (who: SignedIn, lesson: ContentResource) =>
    as(who, request(app).put(`/api/store/progress/lessons/${lesson.id}`)).send({ course: course.id });
  const uncomplete = (who: SignedIn, lesson: ContentResource) =>
    as(who, request(app).delete(`/api/store/progress/lessons/${lesson.id}?course=${course.id}`)).send();
  const emailsTo = (to: string) => OutboxEmail.query(db()).where({ toAddress: to, kind: 'course-complete' });

  it('sends nothing before the last lesson, then one email whose links answer: the verification page and the PDF', async () => {
    expect((await complete(learner, lessons[0]!)).status).toBe(200);
    expect(await emailsTo('sailor@example.com')).toHaveLength(0);

    const last = await complete(learner, lessons[1]!);
    expect(last.status).toBe(200);
    const certificateId: string = last.body.certificate.id;
    const [email, ...more] = await emailsTo('sailor@example.com');
    expect(more).toEqual([]);
    expect(email!.subject).toBe(`You finished ${COURSE}: your certificate is ready`);
    expect(email!.textBody).toContain('Congratulations');
    const links = [...email!.textBody!.matchAll(/https:\/\/school\.example\/certificates\/\S+/g)].map((m) => m[0]);
    expect(links).toEqual([
      `https://school.example/certificates/${certificateId}`,
      `https://school.example/certificates/${certificateId}.pdf`,
    ]);
    expect(email!.htmlBody).toContain(`href="https://school.example/certificates/${certificateId}.pdf"`);

    // Followed: the page's data (the page itself is checked in the browser test) and the PDF.
    const page = await request(app).get(`/api/store${new URL(links[0]!).pathname}`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ id: certificateId, courseTitle: COURSE, revokedAt: null });
    const pdf = await request(app).get(new URL(links[1]!).pathname).buffer(true);
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(Buffer.from(pdf.body).subarray(0, 5).toString()).toBe('%PDF-');

    await services.outbox.flush();
    expect((await OutboxEmail.query(db()).findById(email!.id))!.status).toBe('sent');
  });

  it('never sends it twice: completing again, or undoing and redoing the last lesson, sends nothing more', async () => {
    expect((await complete(learner, lessons[1]!)).status).toBe(200);
    expect((await uncomplete(learner, lessons[1]!)).status).toBe(200);
    expect((await complete(learner, lessons[1]!)).body.certificate).not.toBeNull();
    expect((await uncomplete(learner, lessons[0]!)).status).toBe(200);
    expect((await complete(learner, lessons[0]!)).status).toBe(200);
    expect(await emailsTo('sailor@example.com')).toHaveLength(1);
  });

  it('sends one when the last two lessons are completed at the same moment (two tabs)', async () => {
    const answers = await Promise.all([complete(racer, lessons[0]!), complete(racer, lessons[1]!)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(await db()('certificates').where({ userId: racer.user.id })).toHaveLength(1);
    expect(await emailsTo('racer@example.com')).toHaveLength(1);
  });

  it('sends one for a certificate the list issues late (a course finished before certificates existed)', async () => {
    const late = await signedIn(db(), ['learner'], 'late@example.com');
    await createPurchase(db(), { user: late.user, product });
    // Progress written before certificates existed: no certificate, no email.
    await db()('lessonProgress').insert(
      lessons.map((lesson) => ({ userId: late.user.id, lessonId: lesson.id, completedAt: new Date('2026-01-05') })),
    );
    const list = () => as(late, request(app).get('/api/store/certificates'));

    const [certificate] = (await list()).body.data;
    expect(certificate).toMatchObject({ courseId: course.id });
    const [email, ...more] = await emailsTo('late@example.com');
    expect(more).toEqual([]);
    expect(email!.textBody).toContain(`https://school.example/certificates/${certificate.id}.pdf`);
    // Listed again, it is the same certificate and no second email.
    expect((await list()).body.data.map((c: { id: string }) => c.id)).toEqual([certificate.id]);
    expect(await emailsTo('late@example.com')).toHaveLength(1);
  });
});
