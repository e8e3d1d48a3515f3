import request, { type Response } from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../api/src/app';
import { createServices } from '../../api/src/services';
import { createCourse, createProduct, createPurchase } from '../../seeds/factories';
import { type ContentResource, DeviceAccessToken, type Product } from '../support/models';
import { hashSecret, newSecret } from '../../api/src/identity/secrets';
import { testConfig, testDeps } from '../support/app';
import { startLoopbackS3, type LoopbackS3 } from '../support/s3-server';
import { as, signedIn, type SignedIn } from '../support/auth';
import { manualClock } from '../support/clock';
import { useTestDatabase } from '../support/db';

const MINUTE = 60_000;
const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from([0xe2, 0xe3, 0xcf, 0xd3]), Buffer.from('\n%%EOF\n')]);
const ZIP = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(60, 7)]);
const CODE = Buffer.from('export const answer: number = 42; // ٤٢\n');
const DEVANAGARI = 'पाठ १ — स्लाइड.pdf';
const ARABIC = 'الدرس الأول.zip';

interface Link {
  id: string;
  fileName: string;
  contentType: string;
  sizeBytes: number;
  url: string;
  expiresAt: string;
}

describe('lesson downloads (issue 33, point 4)', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const clock = manualClock();
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let product: Product;
  let course: ContentResource;
  let free: ContentResource;
  let paid: ContentResource;
  let support: SignedIn;

  beforeAll(async () => {
    const deps = testDeps(db(), { clock });
    app = createApp(deps, { services: createServices(deps) }).callback();
    product = await createProduct(db(), { name: 'Downloads Course' });
    const made = await createCourse(
      db(),
      {
        title: 'Downloads Course',
        modules: [
          {
            title: 'One',
            sections: [
              {
                title: 'A',
                lessons: [
                  { title: 'Free', body: '<p>Free</p>' },
                  { title: 'Paid', body: '<p>Paid</p>' },
                ],
              },
            ],
          },
        ],
      },
      { products: [product] },
    );
    course = made.course;
    [free, paid] = made.lessons as [ContentResource, ContentResource];
    support = await signedIn(db(), ['support']);
  });

  const upload = (who: SignedIn, lesson: ContentResource, bytes: Buffer, filename: string) =>
    as(who, request(app).post(`/api/admin/lessons/${lesson.id}/attachments`)).attach('file', bytes, {
      filename,
      contentType: 'application/octet-stream',
    });
  const links = async (who: SignedIn | undefined, lesson: ContentResource) =>
    as(who, request(app).get(`/api/store/lessons/${lesson.id}/attachments?course=${course.fields.slug!}`));
  const download = (who: SignedIn | undefined, url: string) =>
    as(who, request(app).get(url))
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
  const codeOf = (response: Response) => (JSON.parse((response.body as Buffer).toString()) as { code: string }).code;
  const owner = async () => {
    const learner = await signedIn(db());
    const purchase = await createPurchase(db(), { user: learner.user, product });
    return { learner, purchase };
  };

  it('takes slides, code and archives in the console, named in any script, and lists them in order', async () => {
    const pdf = await upload(support, paid, PDF, DEVANAGARI);
    expect(pdf.status).toBe(201);
    expect(pdf.body.data).toMatchObject({ fileName: DEVANAGARI, contentType: 'application/pdf', position: 0 });
    expect(Number(pdf.body.data.sizeBytes)).toBe(PDF.length);
    const zip = await upload(support, paid, ZIP, `C:\\Users\\me\\${ARABIC}`);
    expect(zip.status).toBe(201);
    expect(zip.body.data.fileName).toBe(ARABIC); // the folder a browser may send is not part of the name
    expect((await upload(support, paid, CODE, 'solution.ts')).status).toBe(201);

    const listed = await as(support, request(app).get(`/api/admin/lessons/${paid.id}/attachments`));
    expect(listed.body.data.map((a: { fileName: string }) => a.fileName)).toEqual([DEVANAGARI, ARABIC, 'solution.ts']);
    const audit = await db()('auditLogs').where({ resource: 'lesson-attachments', action: 'create' });
    expect(audit).toHaveLength(3);
  });

  it('refuses files outside the allow-list or not what their name says, and writes nothing', async () => {
    const before = await db()('lessonAttachments').count<{ count: string }[]>('* as count');
    for (const [bytes, name] of [
      [Buffer.from('<html><script>alert(1)</script></html>'), 'page.html'],
      [Buffer.from('<svg onload="alert(1)"/>'), 'icon.svg'],
      [Buffer.from('MZ\u0090\u0000'), 'setup.exe'],
      [Buffer.from('MZ\u0090\u0000 not a pdf'), 'slides.pdf'],
      [Buffer.from([0x00, 0x01, 0x02]), 'notes.txt'],
      [PDF, 'no-extension'],
    ] as const) {
      const refused = await upload(support, paid, bytes, name);
      expect(refused.status, name).toBe(415);
      expect(refused.body.code).toBe('file-type-not-allowed');
    }
    const contributor = await signedIn(db(), ['contributor']);
    const notTheirs = await upload(contributor, paid, PDF, 'mine.pdf');
    expect(notTheirs.status).toBe(403);
    const learner = await signedIn(db());
    expect((await upload(learner, paid, PDF, 'mine.pdf')).status).toBe(403);
    expect(await db()('lessonAttachments').count<{ count: string }[]>('* as count')).toEqual(before);
  });

  it('reorders and deletes in the console; a partial order is refused', async () => {
    const lesson = (
      await createCourse(db(), {
        title: 'Order',
        modules: [{ title: 'M', sections: [{ title: 'S', lessons: [{ title: 'L', body: '<p>L</p>' }] }] }],
      })
    ).lessons[0]!;
    const ids: string[] = [];
    for (const name of ['a.pdf', 'b.pdf', 'c.pdf']) ids.push((await upload(support, lesson, PDF, name)).body.data.id);
    const partial = await as(support, request(app).put(`/api/admin/lessons/${lesson.id}/attachments/order`)).send({
      ids: [ids[0], ids[1]],
    });
    expect(partial.status).toBe(400);
    const reordered = await as(support, request(app).put(`/api/admin/lessons/${lesson.id}/attachments/order`)).send({
      ids: [ids[2], ids[0], ids[1]],
    });
    expect(reordered.status).toBe(200);
    expect(reordered.body.data.map((a: { fileName: string }) => a.fileName)).toEqual(['c.pdf', 'a.pdf', 'b.pdf']);
    expect((await as(support, request(app).delete(`/api/admin/lesson-attachments/${ids[0]}`))).status).toBe(204);
    const listed = await as(support, request(app).get(`/api/admin/lessons/${lesson.id}/attachments`));
    expect(listed.body.data.map((a: { fileName: string }) => a.fileName)).toEqual(['c.pdf', 'b.pdf']);
  });

  it("gives a holder short-lived links whose bytes round-trip under the file's own name", async () => {
    const { learner } = await owner();
    const answer = await links(learner, paid);
    expect(answer.status).toBe(200);
    const files = answer.body.data as Link[];
    expect(files.map((f) => f.fileName)).toEqual([DEVANAGARI, ARABIC, 'solution.ts']);
    expect(new Date(files[0]!.expiresAt).getTime() - clock.now().getTime()).toBeLessThanOrEqual(10 * MINUTE);

    const [pdf, zip, code] = files as [Link, Link, Link];
    const got = await download(learner, pdf.url);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(PDF);
    expect(got.headers['content-type']).toBe('application/pdf');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    const disposition = got.headers['content-disposition'] as string;
    expect(disposition).toMatch(/^attachment; filename="[^"]*\.pdf"; filename\*=UTF-8''/);
    expect(decodeURIComponent(/filename\*=UTF-8''(.+)$/.exec(disposition)![1]!)).toBe(DEVANAGARI);

    const archive = await download(learner, zip.url);
    expect(archive.body).toEqual(ZIP);
    expect(
      decodeURIComponent(/filename\*=UTF-8''(.+)$/.exec(archive.headers['content-disposition'] as string)![1]!),
    ).toBe(ARABIC);
    const source = await download(learner, code.url);
    expect(source.body).toEqual(CODE);
    expect(source.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(source.headers['content-disposition']).toBe('attachment; filename="solution.ts"');
  });

  it('refuses a visitor, a link used by someone else, and a link after expiry (a page saying so in a browser)', async () => {
    expect((await links(undefined, paid)).status).toBe(403);
    const { learner } = await owner();
    const [file] = (await links(learner, paid)).body.data as Link[];

    const visitor = await download(undefined, file!.url);
    expect(visitor.status).toBe(403);
    expect(codeOf(visitor)).toBe('download-not-yours');
    const someoneElse = await download(await signedIn(db()), file!.url);
    expect(codeOf(someoneElse)).toBe('download-not-yours');
    const forged = await download(learner, file!.url.replace(/\.[\w-]{43}\//, `.${'A'.repeat(43)}/`));
    expect(codeOf(forged)).toBe('download-link-invalid');

    clock.advance(10 * MINUTE);
    const expired = await download(learner, file!.url);
    expect(expired.status).toBe(403);
    expect(codeOf(expired)).toBe('download-link-expired');
    const page = await as(learner, request(app).get(file!.url).set('Accept', 'text/html'));
    expect(page.status).toBe(403);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('This download link has expired');
    expect(page.text).toContain('download-link-expired');

    const fresh = (await links(learner, paid)).body.data as Link[];
    expect((await download(learner, fresh[0]!.url)).body).toEqual(PDF);
  });

  it("lets a learner's device download the files it is given links to, with its own token alone", async () => {
    const { learner } = await owner();
    const token = newSecret();
    await DeviceAccessToken.query(db()).insert({ token: hashSecret(token), userId: learner.user.id, clientId: 'cli' });
    const bearer = (req: request.Test) => req.set('Authorization', `Bearer ${token}`);
    const listed = await bearer(
      request(app).get(`/api/store/lessons/${paid.id}/attachments?course=${course.fields.slug!}`),
    );
    expect(listed.status).toBe(200);
    const [file] = listed.body.data as Link[];
    const got = await bearer(request(app).get(file!.url))
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(PDF);
    const otherToken = newSecret();
    const other = await signedIn(db());
    await DeviceAccessToken.query(db()).insert({
      token: hashSecret(otherToken),
      userId: other.user.id,
      clientId: 'cli',
    });
    const someoneElse = await download(undefined, file!.url).set('Authorization', `Bearer ${otherToken}`);
    expect(codeOf(someoneElse)).toBe('download-not-yours');
  });

  it('closes a link at once for a learner refunded after it was made', async () => {
    const { learner, purchase } = await owner();
    const [file] = (await links(learner, paid)).body.data as Link[];
    expect((await download(learner, file!.url)).status).toBe(200);
    await db()('purchases').where({ id: purchase.id }).update({ status: 'Refunded' });
    const refused = await download(learner, file!.url);
    expect(refused.status).toBe(403);
    expect(codeOf(refused)).toBe('lesson-locked');
    expect((await links(learner, paid)).status).toBe(403);
  });

  it("opens a free lesson's files to everyone, and a removed file's link answers 404", async () => {
    const added = await upload(support, free, PDF, 'cheatsheet.pdf');
    const [file] = (await links(undefined, free)).body.data as Link[];
    expect(file!.fileName).toBe('cheatsheet.pdf');
    expect((await download(undefined, file!.url)).body).toEqual(PDF);
    await as(support, request(app).delete(`/api/admin/lesson-attachments/${added.body.data.id}`));
    const gone = await download(undefined, file!.url);
    expect(gone.status).toBe(404);
  });
});

describe("a deleted lesson's files", () => {
  const database = useTestDatabase();
  const db = () => database().db;

  it('leave the storage once the lesson is deleted in the console, and a kept lesson keeps its own', async () => {
    const deps = testDeps(db());
    const services = createServices(deps);
    const app = createApp(deps, { services }).callback();
    const support = await signedIn(db(), ['support']);
    const admin = await signedIn(db(), ['admin']);
    const made = await createCourse(db(), {
      title: 'Deleted Lesson Course',
      modules: [
        {
          title: 'M',
          sections: [
            {
              title: 'S',
              lessons: [
                { title: 'Gone', body: '<p>Gone</p>' },
                { title: 'Kept', body: '<p>K</p>' },
              ],
            },
          ],
        },
      ],
    });
    const [gone, kept] = made.lessons as [ContentResource, ContentResource];
    const add = async (lesson: ContentResource, name: string) =>
      (
        await as(support, request(app).post(`/api/admin/lessons/${lesson.id}/attachments`)).attach('file', PDF, {
          filename: name,
        })
      ).body.data.id as string;
    const goneIds = [await add(gone, 'a.pdf'), await add(gone, 'b.pdf')];
    const keptId = await add(kept, 'c.pdf');
    const keyOf = async (id: string) =>
      ((await db()('lessonAttachments').where({ id }).first('storageKey')) as { storageKey: string }).storageKey;
    const goneKeys = await Promise.all(goneIds.map(keyOf));
    const keptKey = await keyOf(keptId);

    const deleted = await as(admin, request(app).delete(`/api/admin/content-resources/${gone.id}`));
    expect(deleted.status).toBe(200);
    expect(await services.deletedLessonFiles.sweep()).toBe(2);
    expect(await db()('lessonAttachments').whereIn('id', goneIds)).toEqual([]);
    for (const key of goneKeys) expect(await services.storage.exists(key)).toBe(false);
    expect(await services.storage.exists(keptKey)).toBe(true);
    expect(await db()('lessonAttachments').where({ id: keptId })).toHaveLength(1);
    expect(await services.deletedLessonFiles.sweep()).toBe(0);
  });

  it('deletes a file whose bytes the storage fails to remove, and the hourly job removes them later', async () => {
    const deps = testDeps(db());
    const services = createServices(deps);
    const app = createApp(deps, { services }).callback();
    const support = await signedIn(db(), ['support']);
    const made = await createCourse(db(), {
      title: 'Failing Storage Course',
      modules: [{ title: 'M', sections: [{ title: 'S', lessons: [{ title: 'L', body: '<p>L</p>' }] }] }],
    });
    const lesson = made.lessons[0] as ContentResource;
    const added = await as(support, request(app).post(`/api/admin/lessons/${lesson.id}/attachments`)).attach(
      'file',
      PDF,
      { filename: 'slides.pdf' },
    );
    const id = added.body.data.id as string;
    const { storageKey } = (await db()('lessonAttachments').where({ id }).first('storageKey')) as {
      storageKey: string;
    };

    const { storage } = services;
    const failing = vi.spyOn(storage, 'delete').mockRejectedValue(new Error('the storage is unreachable'));
    try {
      const deleted = await as(support, request(app).delete(`/api/admin/lesson-attachments/${id}`));
      expect(deleted.status).toBe(204);
      expect(await db()('lessonAttachments').where({ id })).toEqual([]);
      expect(await db()('lessonFileRemovals').select('storageKey')).toEqual([{ storageKey }]);
      expect(await storage.exists(storageKey)).toBe(true);
      // Still failing: the job leaves the removal for its next run, and ends.
      expect(await services.deletedLessonFiles.sweep()).toBe(0);
      expect(await db()('lessonFileRemovals').select('storageKey')).toEqual([{ storageKey }]);
    } finally {
      failing.mockRestore();
    }
    expect(await services.deletedLessonFiles.sweep()).toBe(1);
    expect(await storage.exists(storageKey)).toBe(false);
    expect(await db()('lessonFileRemovals')).toEqual([]);
  });
});

describe('lesson downloads kept in an S3 bucket', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let s3: LoopbackS3;
  afterAll(() => s3?.stop());

  it('stores the upload in the bucket and serves its bytes under its name, and deleting it empties the bucket', async () => {
    s3 = await startLoopbackS3();
    const deps = testDeps(db(), { config: testConfig(s3.env) });
    const services = createServices(deps);
    expect(services.storage.kind).toBe('s3');
    const app = createApp(deps, { services }).callback();
    const made = await createCourse(db(), {
      title: 'Bucket Course',
      modules: [{ title: 'M', sections: [{ title: 'S', lessons: [{ title: 'Open', body: '<p>Open</p>' }] }] }],
    });
    const lesson = made.lessons[0]!;
    const support = await signedIn(db(), ['support']);
    const added = await as(support, request(app).post(`/api/admin/lessons/${lesson.id}/attachments`)).attach(
      'file',
      PDF,
      { filename: ARABIC.replace('.zip', '.pdf'), contentType: 'application/pdf' },
    );
    expect(added.status).toBe(201);
    const key = (await db()('lessonAttachments').where({ id: added.body.data.id }).first('storageKey')).storageKey;
    expect(await services.storage.exists(key)).toBe(true);

    // The API checks the link, then sends the browser to the bucket: a presigned GET that names the file.
    const [file] = (await request(app).get(`/api/store/lessons/${lesson.id}/attachments`)).body.data as Link[];
    const checked = await request(app).get(file!.url).redirects(0);
    expect(checked.status).toBe(302);
    expect(checked.headers['cache-control']).toBe('no-store');
    const presigned = new URL(checked.headers.location as string);
    expect(presigned.origin).toBe(s3.env.S3_ENDPOINT);
    expect(presigned.pathname).toBe(`/media/${key}`);
    expect(presigned.searchParams.get('X-Amz-Expires')).toBe('120');
    const got = await fetch(presigned);
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer())).toEqual(PDF);
    expect(got.headers.get('content-type')).toBe('application/pdf');
    const disposition = got.headers.get('content-disposition')!;
    expect(disposition).toMatch(/^attachment; filename="[^"]*\.pdf"; filename\*=UTF-8''/);
    expect(decodeURIComponent(/filename\*=UTF-8''(.+)$/.exec(disposition)![1]!)).toBe(ARABIC.replace('.zip', '.pdf'));

    // A presigned address made minutes ago has ended at the bucket, though the API's own link had not.
    const earlier = manualClock(new Date(Date.now() - 3 * MINUTE));
    const pastDeps = testDeps(db(), { config: testConfig(s3.env), clock: earlier });
    const past = createApp(pastDeps, { services: createServices(pastDeps) }).callback();
    const [old] = (await request(past).get(`/api/store/lessons/${lesson.id}/attachments`)).body.data as Link[];
    const stale = await request(past).get(old!.url).redirects(0);
    expect(stale.status).toBe(302);
    const ended = await fetch(stale.headers.location as string);
    expect(ended.status).toBe(403);
    expect(await ended.text()).toContain('Request has expired');

    // A bucket reached at an internal address is sent to browsers at its public one.
    const publicDeps = testDeps(db(), {
      config: testConfig({ ...s3.env, S3_PUBLIC_ENDPOINT: 'https://files.school.example' }),
    });
    const publicApp = createApp(publicDeps, { services: createServices(publicDeps) }).callback();
    const [named] = (await request(publicApp).get(`/api/store/lessons/${lesson.id}/attachments`)).body.data as Link[];
    const outside = await request(publicApp).get(named!.url).redirects(0);
    expect(new URL(outside.headers.location as string).origin).toBe('https://files.school.example');

    // A refused link never reaches the bucket.
    const forged = await request(app)
      .get(file!.url.replace(/\.[\w-]{43}\//, `.${'A'.repeat(43)}/`))
      .redirects(0);
    expect(forged.status).toBe(403);
    expect(forged.headers.location).toBeUndefined();

    await as(support, request(app).delete(`/api/admin/lesson-attachments/${added.body.data.id}`));
    expect(await services.storage.exists(key)).toBe(false);
  });
});
