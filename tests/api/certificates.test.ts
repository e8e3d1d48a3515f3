import { defaultName } from '../../api/src/shared/shown-name';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import type { ContentResource, Product } from '../support/models';
import { createServices } from '../../api/src/services';
import { createCourse, createProduct, createPurchase, createResource, linkResource } from '../../seeds/factories';
import { testConfig, testDeps } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';
import { pdfText } from '../support/pdf-text';

const CERTIFICATE_ID = /^[0-9A-HJKMNP-TV-Z]{12}$/;
const PUBLIC_URL = 'https://learn.example.com';

describe('certificates of completion (issue 18)', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let product: Product;
  let course: ContentResource;
  let lessons: ContentResource[];

  beforeAll(async () => {
    // Behind a proxy that names the country, so a regional (Restricted) purchase can be used at home and abroad.
    const config = testConfig({ TRUST_PROXY: 'true', COUNTRY_HEADER: 'cf-ipcountry', PUBLIC_URL });
    const deps = testDeps(db(), { config });
    app = createApp(deps, { services: createServices(deps) }).callback();
    product = await createProduct(db(), { name: 'Certified Course' });
    const lesson = (title: string, free = false) => ({ title, body: `<p>${title}</p>`, free });
    ({ course, lessons } = await createCourse(
      db(),
      {
        title: 'Certified Course',
        modules: [
          { title: 'One', sections: [{ title: 'A', lessons: [lesson('L1'), lesson('L2'), lesson('L3', true)] }] },
          { title: 'Two', sections: [{ title: 'B', lessons: [lesson('L4'), lesson('L5')] }] },
        ],
      },
      { products: [product] },
    ));
  });

  const store = (who: SignedIn | undefined, method: 'get' | 'put' | 'delete', path: string, country = 'US') =>
    as(who, request(app)[method](`/api/store${path}`)).set('cf-ipcountry', country);
  const complete = (who: SignedIn, lesson: ContentResource, country = 'US', inCourse = course) =>
    store(who, 'put', `/progress/lessons/${lesson.id}`, country).send({ course: inCourse.id });
  const certificatesOf = (userId: string) => db()('certificates').where({ userId });

  it('issues one certificate, in the name set in Settings, when a holder completes the last lesson', async () => {
    const learner = await signedIn(db());
    await createPurchase(db(), { user: learner.user, product });
    expect((await store(learner, 'put', '/me/name').send({ name: 'Zoë Łukasz 李雷' })).status).toBe(200);

    for (const lesson of lessons.slice(0, -1)) {
      const answer = await complete(learner, lesson);
      expect(answer.status).toBe(200);
      expect(answer.body.certificate).toBeNull();
    }
    expect(await certificatesOf(learner.user.id)).toEqual([]);

    const last = await complete(learner, lessons.at(-1)!);
    expect(last.status).toBe(200);
    expect(last.body.course.progress).toEqual({ completed: 5, total: 5, percent: 100 });
    expect(last.body.certificate).toEqual({ id: expect.stringMatching(CERTIFICATE_ID) });
    const [row, ...more] = await certificatesOf(learner.user.id);
    expect(more).toEqual([]);
    expect(row).toMatchObject({
      id: last.body.certificate.id,
      courseId: course.id,
      learnerName: 'Zoë Łukasz 李雷',
      courseTitle: 'Certified Course',
      revokedAt: null,
    });

    // Undone and done again: the same certificate, not a second one.
    expect((await store(learner, 'delete', `/progress/lessons/${lessons[0]!.id}`)).body.certificate).toBeNull();
    expect((await complete(learner, lessons[0]!)).body.certificate).toEqual({ id: row.id });
    expect(await certificatesOf(learner.user.id)).toHaveLength(1);

    const mine = await store(learner, 'get', '/certificates');
    expect(mine.status).toBe(200);
    expect(mine.headers['cache-control']).toBe('private, no-store');
    expect(mine.body.data).toEqual([
      {
        id: row.id,
        courseId: course.id,
        courseTitle: 'Certified Course',
        courseSlug: course.fields.slug,
        learnerName: 'Zoë Łukasz 李雷',
        nameCorrectedAt: null,
        canCorrectName: true,
        issuedAt: expect.any(String),
        revokedAt: null,
        revokedReason: null,
        url: `${PUBLIC_URL}/certificates/${row.id}`,
        pdfUrl: `${PUBLIC_URL}/certificates/${row.id}.pdf`,
        previewUrl: `${PUBLIC_URL}/certificates/${row.id}.png`,
      },
    ]);
  });

  it('issues exactly one when the last two lessons are completed at the same moment', async () => {
    for (let round = 0; round < 4; round++) {
      const learner = await signedIn(db());
      await createPurchase(db(), { user: learner.user, product });
      for (const lesson of lessons.slice(0, -2)) await complete(learner, lesson);
      const answers = await Promise.all(lessons.slice(-2).map((lesson) => complete(learner, lesson)));
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      const rows = await certificatesOf(learner.user.id);
      expect(rows, `round ${round}`).toHaveLength(1);
      // Whichever answer saw the course complete names the one certificate.
      for (const answer of answers) if (answer.body.certificate) expect(answer.body.certificate.id).toBe(rows[0].id);
    }
  });

  it('issues none to a learner without full access: a visitor of free lessons, a regional purchase abroad', async () => {
    // Every lesson free: anyone signed in may complete them all, but only holders earn the certificate.
    const freeProduct = await createProduct(db(), { name: 'Free Course' });
    const free = await createCourse(
      db(),
      {
        title: 'Free Course',
        modules: [{ title: 'M', sections: [{ title: 'S', lessons: [{ title: 'F1', body: '<p>1</p>', free: true }] }] }],
      },
      { products: [freeProduct] },
    );
    const visitor = await signedIn(db());
    const done = await store(visitor, 'put', `/progress/lessons/${free.lessons[0]!.id}`).send({});
    expect(done.status).toBe(200);
    expect(done.body.course.progress.percent).toBe(100);
    expect(done.body.certificate).toBeNull();
    expect((await store(visitor, 'get', '/certificates')).body.data).toEqual([]);
    expect(await certificatesOf(visitor.user.id)).toEqual([]);

    // Bought at India's regional price: complete at home, except the free lesson, finished while abroad.
    const traveller = await signedIn(db());
    await createPurchase(db(), { user: traveller.user, product, status: 'Restricted', country: 'IN' });
    const freeLesson = lessons[2]!;
    for (const lesson of lessons.filter((l) => l !== freeLesson)) {
      expect((await complete(traveller, lesson, 'IN')).status).toBe(200);
    }
    const abroad = await complete(traveller, freeLesson, 'US');
    expect(abroad.status).toBe(200);
    expect(abroad.body.course.progress.percent).toBe(100);
    expect(abroad.body.certificate).toBeNull();
    expect((await store(traveller, 'get', '/certificates', 'US')).body.data).toEqual([]);
    // Back home the course is theirs in full: the list issues what they earned.
    const home = await store(traveller, 'get', '/certificates', 'IN');
    expect(home.body.data).toEqual([expect.objectContaining({ courseId: course.id })]);
  });

  it('issues on the list the certificates of courses completed before certificates existed', async () => {
    const learner = await signedIn(db());
    await db()('users').where({ id: learner.user.id }).update({ name: null });
    await createPurchase(db(), { user: learner.user, product });
    // Progress written before this feature: no certificate was ever issued for it.
    await db()('lessonProgress').insert(
      lessons.map((lesson) => ({ userId: learner.user.id, lessonId: lesson.id, completedAt: new Date('2026-01-05') })),
    );
    expect(await certificatesOf(learner.user.id)).toEqual([]);

    const first = await store(learner, 'get', '/certificates');
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(1);
    // No display name: the name they are shown by, never a piece of their email (the page is public).
    expect(first.body.data[0].learnerName).toBe(defaultName(learner.user.id));
    expect(first.body.data[0].learnerName).not.toContain(learner.user.email.split('@')[0]);
    const again = await store(learner, 'get', '/certificates');
    expect(again.body.data.map((c: { id: string }) => c.id)).toEqual([first.body.data[0].id]);
    expect(await certificatesOf(learner.user.id)).toHaveLength(1);
  });

  it('keeps a certificate through a refund, lessons added later and the course going away', async () => {
    // A course of its own: lessons are added to it here.
    const shortProduct = await createProduct(db(), { name: 'Short Course' });
    const short = await createCourse(
      db(),
      {
        title: 'Short Course',
        modules: [{ title: 'M', sections: [{ title: 'Short section', lessons: [{ title: 'S1', body: '<p>1</p>' }] }] }],
      },
      { products: [shortProduct] },
    );
    const learner = await signedIn(db());
    const purchase = await createPurchase(db(), { user: learner.user, product: shortProduct });
    expect((await complete(learner, short.lessons[0]!, 'US', short.course)).body.certificate).not.toBeNull();
    const [issued] = await certificatesOf(learner.user.id);
    expect(issued).toBeDefined();

    await db()('purchases').where({ id: purchase.id }).update({ status: 'Refunded' });
    const extra = await createResource(db(), 'lesson', { title: 'S2', body: '<p>new</p>' });
    const section = await db()('contentResources').whereRaw(`fields->>'title' = 'Short section'`).first();
    await linkResource(db(), section, extra, 9);
    const afterward = await store(learner, 'get', '/certificates');
    expect(afterward.body.data).toEqual([expect.objectContaining({ id: issued.id, revokedAt: null })]);
    expect((await request(app).get(`/certificates/${issued.id}.pdf`)).status).toBe(200);

    // A course of its own, deleted for good: the certificate keeps its title and still verifies.
    const gone = await createCourse(
      db(),
      { title: 'Gone Course', modules: [{ title: 'M', sections: [{ title: 'S', lessons: [] }] }] },
      { products: [product] },
    );
    const [{ id: goneId }] = await db()('certificates')
      .insert({
        id: 'GGGGGGGGGGGG',
        userId: learner.user.id,
        courseId: gone.course.id,
        learnerName: 'A',
        courseTitle: 'Gone Course',
      })
      .returning('id');
    await db()('productContentResources').where({ resourceId: gone.course.id }).delete();
    await db()('contentResourceResources').where({ resourceOfId: gone.course.id }).delete();
    await db()('contentResources').where({ id: gone.course.id }).delete();
    const kept = await request(app).get(`/api/store/certificates/${goneId}`);
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ courseTitle: 'Gone Course', courseSlug: null });
    expect((await db()('certificates').where({ id: goneId }).first()).courseId).toBeNull();
  });

  it('keeps the name it was issued with through display-name changes, the learner’s or support’s', async () => {
    const learner = await signedIn(db());
    await createPurchase(db(), { user: learner.user, product });
    expect((await store(learner, 'put', '/me/name').send({ name: 'Grace Hopper' })).status).toBe(200);
    for (const lesson of lessons) await complete(learner, lesson);
    const [{ id }] = await certificatesOf(learner.user.id);
    const shown = async () => (await request(app).get(`/api/store/certificates/${id}`)).body;

    expect(await shown()).toMatchObject({ learnerName: 'Grace Hopper', nameCorrectedAt: null });
    expect((await store(learner, 'put', '/me/name').send({ name: 'Amazing Grace' })).status).toBe(200);
    expect((await shown()).learnerName).toBe('Grace Hopper');
    expect((await store(learner, 'put', '/me/name').send({ name: '' })).status).toBe(200);
    expect((await shown()).learnerName).toBe('Grace Hopper');

    // Support edits the person's name in the console: the certificate is not renamed by it either.
    const support = await signedIn(db(), ['support']);
    const edit = await as(support, request(app).put(`/api/admin/users/${learner.user.id}`)).send({
      name: 'Grace B. Hopper',
    });
    expect(edit.status).toBe(200);
    expect(await shown()).toMatchObject({ learnerName: 'Grace Hopper', nameCorrectedAt: null });
  });

  it('lets the holder correct the name once (audited), then refuses; support may correct it again', async () => {
    const learner = await signedIn(db());
    await createPurchase(db(), { user: learner.user, product });
    await store(learner, 'put', '/me/name').send({ name: 'Grace Hoper' });
    for (const lesson of lessons) await complete(learner, lesson);
    const [{ id }] = await certificatesOf(learner.user.id);
    const correct = (who: SignedIn | undefined, name: unknown) =>
      as(who, request(app).put(`/api/store/certificates/${id}/name`)).send({ name });

    // Only its holder, signed in, with a real name.
    expect((await correct(undefined, 'Grace Hopper')).status).toBe(401);
    const stranger = await signedIn(db());
    const notTheirs = await correct(stranger, 'Grace Hopper');
    expect(notTheirs.status).toBe(404);
    expect(notTheirs.body.code).toBe('not-found');
    expect((await as(stranger, request(app).get(`/api/store/certificates/${id}/mine`))).status).toBe(404);
    const blank = await correct(learner, '   ');
    expect(blank.status).toBe(400);
    expect(blank.body.errors).toHaveProperty('name');
    expect((await correct(learner, 'x'.repeat(61))).status).toBe(400);
    expect((await correct(learner, 'Grace\u0007Hopper')).status).toBe(400);
    const same = await correct(learner, ' Grace  Hoper ');
    expect(same.status).toBe(400);
    expect(same.body.errors).toHaveProperty('name');
    expect((await db()('certificates').where({ id }).first()).holderCorrectedAt).toBeNull();

    const mine = await as(learner, request(app).get(`/api/store/certificates/${id}/mine`));
    expect(mine.status).toBe(200);
    expect(mine.headers['cache-control']).toBe('private, no-store');
    expect(mine.body.data).toMatchObject({ id, learnerName: 'Grace Hoper', canCorrectName: true });

    const done = await correct(learner, '  Grace   Hopper ');
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({
      id,
      learnerName: 'Grace Hopper',
      nameCorrectedAt: expect.any(String),
      canCorrectName: false,
    });
    const page = (await request(app).get(`/api/store/certificates/${id}`)).body;
    expect(page).toMatchObject({ learnerName: 'Grace Hopper', nameCorrectedAt: done.body.data.nameCorrectedAt });

    const again = await correct(learner, 'Grace M. Hopper');
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('name-already-corrected');
    expect((await request(app).get(`/api/store/certificates/${id}`)).body.learnerName).toBe('Grace Hopper');

    // Support corrects it from the console, audited; learners may not use that door.
    const viaConsole = (who: SignedIn, name: string) =>
      as(who, request(app).post(`/api/admin/certificates/${id}/name`)).send({ name });
    expect((await viaConsole(learner, 'Grace Brewster Hopper')).status).toBe(403);
    const support = await signedIn(db(), ['support']);
    const fixed = await viaConsole(support, 'Grace Brewster Hopper');
    expect(fixed.status).toBe(200);
    expect(fixed.body.data).toMatchObject({
      id,
      learnerName: 'Grace Brewster Hopper',
      nameCorrectedById: support.user.id,
      holderCorrectedAt: done.body.data.nameCorrectedAt,
    });
    const audit = await db()('auditLogs').where({ resource: 'certificates', recordId: id }).orderBy('id');
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'certificate.name-corrected',
        actorId: learner.user.id,
        before: { learnerName: 'Grace Hoper' },
        after: { learnerName: 'Grace Hopper', byHolder: true },
      }),
      expect.objectContaining({
        action: 'certificate.name-corrected',
        actorId: support.user.id,
        before: { learnerName: 'Grace Hopper' },
        after: { learnerName: 'Grace Brewster Hopper', byHolder: false },
      }),
    ]);
  });

  it('takes one of two corrections the holder sends at once, and refuses the other', async () => {
    const learner = await signedIn(db());
    await createPurchase(db(), { user: learner.user, product });
    for (const lesson of lessons) await complete(learner, lesson);
    const [{ id }] = await certificatesOf(learner.user.id);
    const answers = await Promise.all(
      ['Ada Lovelace', 'Ada King'].map((name) =>
        as(learner, request(app).put(`/api/store/certificates/${id}/name`)).send({ name }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const won = answers.find((a) => a.status === 200)!.body.data.learnerName;
    expect((await db()('certificates').where({ id }).first()).learnerName).toBe(won);
  });

  it('is revoked by support with a reason (audited), never by a learner; the page says so and the PDF is gone', async () => {
    const learner = await signedIn(db());
    await createPurchase(db(), { user: learner.user, product });
    for (const lesson of lessons) await complete(learner, lesson);
    const [{ id }] = await certificatesOf(learner.user.id);
    const revoke = (who: SignedIn, body: object) =>
      as(who, request(app).post(`/api/admin/certificates/${id}/revoke`)).send(body);

    expect((await revoke(learner, { reason: 'mine' })).status).toBe(403);
    expect((await revoke(await signedIn(db(), ['finance']), { reason: 'no' })).status).toBe(403);
    expect((await request(app).post(`/api/admin/certificates/${id}/revoke`).send({ reason: 'x' })).status).toBe(401);

    const support = await signedIn(db(), ['support']);
    const blank = await revoke(support, { reason: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.body.errors).toHaveProperty('reason');
    expect((await revoke(support, { reason: 'x'.repeat(501) })).status).toBe(400);
    expect((await revoke(support, {})).status).toBe(400);

    const done = await revoke(support, { reason: 'Completed with someone else’s account.' });
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({
      id,
      status: 'revoked',
      learnerEmail: learner.user.email,
      revokedReason: 'Completed with someone else’s account.',
      revokedById: support.user.id,
      revokedAt: expect.any(String),
    });
    const audit = await db()('auditLogs').where({ resource: 'certificates', recordId: id });
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'certificate.revoked',
        actorId: support.user.id,
        actorEmail: support.user.email,
        after: expect.objectContaining({ revokedReason: 'Completed with someone else’s account.' }),
      }),
    ]);
    expect((await revoke(support, { reason: 'again' })).status).toBe(409);

    const page = await request(app).get(`/api/store/certificates/${id}`);
    expect(page.body).toMatchObject({
      revokedAt: done.body.data.revokedAt,
      revokedReason: done.body.data.revokedReason,
    });
    const pdf = await request(app).get(`/certificates/${id}.pdf`);
    expect(pdf.status).toBe(410);
    expect(pdf.body.code).toBe('certificate-revoked');
    // The learner still sees it, revoked (and it is not issued again).
    const mine = await store(learner, 'get', '/certificates');
    expect(mine.body.data).toEqual([expect.objectContaining({ id, revokedReason: done.body.data.revokedReason })]);

    // The console's list: learner email, name, course, status; filtered by status and email.
    const list = await as(support, request(app).get('/api/admin/certificates')).query({
      filter: JSON.stringify({ status: 'revoked', learnerEmail: learner.user.email }),
    });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([expect.objectContaining({ id, learnerEmail: learner.user.email, status: 'revoked' })]);
    expect((await as(support, request(app).get(`/api/admin/certificates/${id.toLowerCase()}`))).body.id).toBe(id);
  });

  it('leaves a staff member’s certificate to administrators: support may neither correct nor revoke it', async () => {
    const administrator = await signedIn(db(), ['admin']);
    await createPurchase(db(), { user: administrator.user, product });
    await store(administrator, 'put', '/me/name').send({ name: 'Ada Admin' });
    for (const lesson of lessons) await complete(administrator, lesson);
    const [{ id }] = await certificatesOf(administrator.user.id);
    const act = (who: SignedIn, action: 'name' | 'revoke', body: object) =>
      as(who, request(app).post(`/api/admin/certificates/${id}/${action}`)).send(body);

    const support = await signedIn(db(), ['support']);
    const renamed = await act(support, 'name', { name: 'Someone Else' });
    expect(renamed.status).toBe(403);
    expect(renamed.body.code).toBe('forbidden');
    const revoked = await act(support, 'revoke', { reason: 'Because I can.' });
    expect(revoked.status).toBe(403);
    expect(revoked.body.code).toBe('forbidden');
    expect(await db()('certificates').where({ id }).first()).toMatchObject({
      learnerName: 'Ada Admin',
      nameCorrectedAt: null,
      revokedAt: null,
    });
    expect(await db()('auditLogs').where({ resource: 'certificates', recordId: id })).toEqual([]);

    // Another administrator may do both.
    const other = await signedIn(db(), ['admin']);
    expect((await act(other, 'name', { name: 'Ada A. Admin' })).body.data).toMatchObject({
      learnerName: 'Ada A. Admin',
    });
    expect((await act(other, 'revoke', { reason: 'Issued by mistake.' })).body.data).toMatchObject({
      status: 'revoked',
      revokedById: other.user.id,
    });
  });

  it('verifies publicly without the learner’s email, and answers 404 for an unknown id', async () => {
    const learner = await signedIn(db());
    await createPurchase(db(), { user: learner.user, product });
    for (const lesson of lessons) await complete(learner, lesson);
    const [{ id }] = await certificatesOf(learner.user.id);

    const page = await request(app).get(`/api/store/certificates/${id}`);
    expect(page.status).toBe(200);
    expect(Object.keys(page.body).sort()).toEqual(
      [
        'courseSlug',
        'courseTitle',
        'id',
        'issuedAt',
        'learnerName',
        'nameCorrectedAt',
        'pdfUrl',
        'previewUrl',
        'revokedAt',
        'revokedReason',
        'url',
      ].sort(),
    );
    expect(JSON.stringify(page.body)).not.toContain(learner.user.email);
    // Typed by hand: lower case, and O for 0, still finds it.
    expect((await request(app).get(`/api/store/certificates/${id.toLowerCase().replace(/0/g, 'o')}`)).body.id).toBe(id);

    const unknown = await request(app).get('/api/store/certificates/ZZZZZZZZZZZZ');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('not-found');
    expect((await request(app).get('/api/store/certificates/not-a-certificate')).status).toBe(400);
    expect((await request(app).get('/certificates/ZZZZZZZZZZZZ.pdf')).status).toBe(404);
  });

  it('draws a one-page landscape PDF with the name in any script, the course, the date, the id and the address', async () => {
    const learner = await signedIn(db());
    await createPurchase(db(), { user: learner.user, product });
    await store(learner, 'put', '/me/name').send({ name: 'Zoë Łukasz 李雷' });
    for (const lesson of lessons) await complete(learner, lesson);
    const [{ id, issuedAt }] = await certificatesOf(learner.user.id);

    const pdf = await request(app)
      .get(`/certificates/${id}.pdf`)
      .buffer(true)
      .parse((res, done) => {
        // The PDF's bytes as they came.
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe(`inline; filename="certificate-${id}.pdf"`);
    expect(pdf.headers.etag).toMatch(/^"/);
    const bytes = pdf.body as Buffer;
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    const { pageCount, size, lines, title, blankGlyphs } = await pdfText(bytes);
    expect(pageCount).toBe(1);
    expect(size.width).toBeGreaterThan(size.height);
    const date = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(issuedAt);
    expect(lines).toEqual(
      expect.arrayContaining([
        'COURSES',
        'Certificate of completion',
        'Zoë Łukasz 李雷',
        'Certified Course',
        `on ${date}`,
        `Certificate ID ${id}`,
        `Verify it at ${PUBLIC_URL}/certificates/${id}`,
      ]),
    );
    // Every glyph shown has its outline in the embedded subset (none prints blank).
    expect(blankGlyphs).toEqual([]);
    expect(title).toBe('Certificate of completion: Certified Course');

    const unchanged = await request(app).get(`/certificates/${id}.pdf`).set('If-None-Match', pdf.headers.etag!);
    expect(unchanged.status).toBe(304);
    // A corrected name is a new PDF.
    await store(learner, 'put', `/certificates/${id}/name`).send({ name: 'Zoe Lukasz' });
    const renamed = await request(app).get(`/certificates/${id}.pdf`).set('If-None-Match', pdf.headers.etag!);
    expect(renamed.status).toBe(200);
  });
});
