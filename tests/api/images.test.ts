import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { loadConfig } from '../../api/src/config';
import { DELETE_IMAGE_JOB } from '../../api/src/admin/images/image-admin';
import { originalKey, variantsPrefix } from '../../api/src/media/images';
import { createStorage, readAll, type MediaStorage } from '../../api/src/media/storage';
import { createServices, type Services } from '../../api/src/services';
import { createProduct, createRevenueSplit } from '../../seeds/factories';
import { testConfig, testDeps } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';
import { startLoopbackS3, type LoopbackS3 } from '../support/s3-server';

/** A picture made here: `width` × `height`, one colour, in `format`. */
function picture(width: number, height: number, format: 'png' | 'jpeg' | 'webp' | 'avif', colour = '#2a6fdb') {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .toFormat(format)
    .toBuffer();
}

const CHROME_ACCEPT = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8';
const SAFARI_15_ACCEPT = 'image/webp,image/png,image/svg+xml,image/*;q=0.8,video/*;q=0.8,*/*;q=0.5';

describe.each(['local', 's3'] as const)('media storage on %s', (backendName) => {
  let s3: LoopbackS3 | undefined;
  let mediaDir: string;
  let storage: MediaStorage;
  const env = () => (s3 ? s3.env : { MEDIA_DIR: mediaDir });

  beforeAll(async () => {
    mediaDir = await mkdtemp(path.join(os.tmpdir(), 'lp-media-'));
    if (backendName === 's3') s3 = await startLoopbackS3();
    storage = createStorage(loadConfig(env()));
    expect(storage.kind).toBe(backendName);
  });
  afterAll(async () => {
    await s3?.stop();
    await rm(mediaDir, { recursive: true, force: true });
  });

  describe('the storage', () => {
    it('puts, reads back with type and size, reads ranges, tells existence and deletes', async () => {
      await storage.put('docs/hello.txt', Buffer.from('hello, world'), 'text/plain; charset=utf-8');
      expect(await storage.exists('docs/hello.txt')).toBe(true);
      const whole = (await storage.get('docs/hello.txt'))!;
      expect(whole).toMatchObject({ size: 12, contentType: 'text/plain; charset=utf-8' });
      expect((await readAll(whole.body)).toString()).toBe('hello, world');

      const part = (await storage.get('docs/hello.txt', { start: 7, end: 11 }))!;
      expect(part).toMatchObject({ size: 12, range: { start: 7, end: 11 } });
      expect((await readAll(part.body)).toString()).toBe('world');
      const tail = (await storage.get('docs/hello.txt', { start: 10 }))!;
      expect((await readAll(tail.body)).toString()).toBe('ld');
      expect(await storage.get('docs/hello.txt', { start: 50 })).toBeNull();

      await storage.delete('docs/hello.txt');
      expect(await storage.exists('docs/hello.txt')).toBe(false);
      expect(await storage.get('docs/hello.txt')).toBeNull();
      await storage.delete('docs/hello.txt'); // already gone: not an error
    });

    it('takes a stream larger than one multipart part, and replaces an object whole', async () => {
      const big = Buffer.alloc(6 * 1024 * 1024 + 123, 7);
      await storage.put('videos/a/source.bin', Readable.from([big.subarray(0, 1000), big.subarray(1000)]), 'video/mp4');
      const read = (await storage.get('videos/a/source.bin'))!;
      expect(read).toMatchObject({ size: big.length, contentType: 'video/mp4' });
      expect((await readAll(read.body)).equals(big)).toBe(true);
      await storage.put('videos/a/source.bin', Buffer.from('short'), 'text/plain');
      expect((await readAll((await storage.get('videos/a/source.bin'))!.body)).toString()).toBe('short');
    });

    it('deletes everything under a prefix, and nothing beside it', async () => {
      for (const key of ['v/one/a.txt', 'v/one/b/c.txt', 'v/onefold.txt', 'v/two/a.txt']) {
        await storage.put(key, Buffer.from(key), 'text/plain');
      }
      await storage.deletePrefix('v/one/');
      expect(await storage.exists('v/one/a.txt')).toBe(false);
      expect(await storage.exists('v/one/b/c.txt')).toBe(false);
      expect(await storage.exists('v/onefold.txt')).toBe(true);
      expect(await storage.exists('v/two/a.txt')).toBe(true);
    });

    it('refuses keys that could leave its place', async () => {
      for (const key of ['../etc/passwd', '/abs', 'a/../../b', '.hidden', 'a//b', 'a/.meta/x', '']) {
        await expect(storage.put(key, Buffer.from('x'), 'text/plain')).rejects.toThrow(/not a media key/);
      }
    });
  });

  describe('product images and avatars', () => {
    const database = useTestDatabase();
    let services: Services;
    let replica: Services;
    let admin: SignedIn;
    // One app for each server process, as each has: building one for every request cost more than many requests.
    const apps = new Map<Services, ReturnType<ReturnType<typeof createApp>['callback']>>();
    const app = (on: Services = services) => {
      if (!apps.has(on))
        apps.set(on, createApp(testDeps(database().db, { config: testConfig(env()) }), { services: on }).callback());
      return apps.get(on)!;
    };
    const upload = (url: string, bytes: Buffer, filename: string, contentType: string, who: SignedIn = admin) =>
      as(who, request(app()).put(url)).attach('file', bytes, { filename, contentType });
    const image = (key: string, width: number, accept = CHROME_ACCEPT, on?: Services) =>
      request(app(on)).get(`/media/images/${key}?w=${width}`).set('Accept', accept).buffer(true);
    const jobsDone = () => services.jobs.runDue(DELETE_IMAGE_JOB);

    beforeAll(async () => {
      const deps = () => testDeps(database().db, { config: testConfig(env()) });
      services = createServices(deps());
      replica = createServices(deps()); // another server process on the same database and storage
      admin = await signedIn(database().db, ['admin']);
    });

    it('takes an image from the console, keeps it once, audited, and shows it in the store answers', async () => {
      const db = database().db;
      const product = await createProduct(db, { name: 'Image Course' });
      const bytes = await picture(1500, 1000, 'png');
      const answer = await upload(`/api/admin/products/${product.id}/image`, bytes, 'cover.png', 'image/png');
      expect(answer.status).toBe(200);
      const key: string = answer.body.imageKey;
      expect(key).toMatch(/^[0-9a-f]{32}-1500x1000\.png$/);
      expect(answer.body).toMatchObject({ id: product.id, name: 'Image Course', imageAlt: null });
      expect(await storage.exists(originalKey(key))).toBe(true);

      const [audit] = await db('auditLogs').where({ resource: 'products', recordId: product.id, action: 'set-image' });
      expect(audit).toMatchObject({
        actorId: admin.user.id,
        before: { imageKey: null },
        after: { imageKey: key, contentType: 'image/png', width: 1500, height: 1000, bytes: bytes.length },
      });

      const alt = await as(admin, request(app()).put(`/api/admin/products/${product.id}`)).send({
        imageAlt: 'A blue cover',
      });
      expect(alt.status).toBe(200);
      expect(alt.body.imageAlt).toBe('A blue cover');
      const expected = {
        src: `/media/images/${key}?w=960`,
        srcSet: [160, 320, 640, 960, 1280]
          .map((w) => `/media/images/${key}?w=${w} ${w}w`)
          .concat(`/media/images/${key}?w=1920 1500w`)
          .join(', '),
        width: 1500,
        height: 1000,
        alt: 'A blue cover',
      };
      const store = await request(app()).get('/api/store/products');
      expect(store.body.data.find((p: { id: string }) => p.id === product.id).image).toEqual(expected);
      const page = await request(app()).get(`/api/store/products/${product.id}`);
      expect(page.status).toBe(200);
      expect(page.body.image).toEqual(expected);
    });

    it('serves it resized, in the format the browser takes, cached for good, made once and reused by replicas', async () => {
      const db = database().db;
      const product = await createProduct(db, { name: 'Resized Course' });
      const bytes = await picture(1600, 900, 'jpeg', '#c0392b');
      const key = (await upload(`/api/admin/products/${product.id}/image`, bytes, 'a.jpg', 'image/jpeg')).body.imageKey;

      const first = await image(key, 640);
      expect(first.status).toBe(200);
      expect(first.headers).toMatchObject({
        'content-type': 'image/avif',
        'cache-control': 'public, max-age=31536000, immutable',
        'x-media-variant': 'made',
      });
      expect(first.headers.vary).toMatch(/Accept/);
      expect(first.headers.etag).toMatch(/^"[0-9a-f]{32}-640\.avif"$/);
      const made = await sharp(first.body).metadata();
      expect(made).toMatchObject({ format: 'heif', compression: 'av1', width: 640, height: 360 });

      // The next request, here or on another replica, reads the stored variant.
      expect(await storage.exists(`${variantsPrefix(key)}640.avif`)).toBe(true);
      const again = await image(key, 640, CHROME_ACCEPT, replica);
      expect(again.headers['x-media-variant']).toBe('stored');
      expect(again.body.equals(first.body)).toBe(true);
      // ... even with the original gone: it is not made again.
      const original = await readAll((await storage.get(originalKey(key)))!.body);
      await storage.delete(originalKey(key));
      expect((await image(key, 640)).status).toBe(200);
      expect((await image(key, 320)).status).toBe(404);
      await storage.put(originalKey(key), original, 'image/jpeg');

      const unchanged = await image(key, 640).set('If-None-Match', first.headers.etag!);
      expect(unchanged.status).toBe(304);
      expect(unchanged.headers['cache-control']).toBe('public, max-age=31536000, immutable');

      const webp = await image(key, 320, SAFARI_15_ACCEPT);
      expect(webp.headers['content-type']).toBe('image/webp');
      expect(await sharp(webp.body).metadata()).toMatchObject({ format: 'webp', width: 320 });
      const old = await image(key, 160, '*/*');
      expect(old.headers['content-type']).toBe('image/jpeg');
      expect(await sharp(old.body).metadata()).toMatchObject({ format: 'jpeg', width: 160, height: 90 });
      // Never larger than the original.
      const widest = await image(key, 1920, 'image/webp');
      expect(await sharp(widest.body).metadata()).toMatchObject({ width: 1600, height: 900 });
    });

    it('refuses other widths, malformed addresses and unknown images', async () => {
      const key = `${'a'.repeat(32)}-100x100.png`;
      const odd = await image(key, 500);
      expect(odd.status).toBe(400);
      expect(odd.body).toMatchObject({ code: 'validation-failed', errors: { w: expect.stringContaining('640') } });
      expect((await request(app()).get(`/media/images/${key}`)).status).toBe(400);
      expect((await image('..%2F..%2Fetc%2Fpasswd', 320)).status).toBe(400);
      const missing = await image(key, 320);
      expect(missing.status).toBe(404);
      expect(missing.headers['cache-control'] ?? '').not.toMatch(/immutable/);
    });

    it('refuses a file over 10 MB (413), text named .jpg (415), a damaged image (422), and non-support staff (403)', async () => {
      const db = database().db;
      const product = await createProduct(db, { name: 'Refusals Course' });
      const url = `/api/admin/products/${product.id}/image`;

      const huge = Buffer.concat([await picture(100, 100, 'png'), Buffer.alloc(10 * 1024 * 1024)]);
      const tooLarge = await upload(url, huge, 'huge.png', 'image/png');
      expect(tooLarge.status).toBe(413);
      expect(tooLarge.body).toMatchObject({ code: 'payload-too-large', errors: { file: 'At most 10 MB' } });

      const text = await upload(url, Buffer.from('this is not a picture\n'.repeat(50)), 'photo.jpg', 'image/jpeg');
      expect(text.status).toBe(415);
      expect(text.body).toMatchObject({ code: 'unsupported-image-type', errors: { file: expect.any(String) } });
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
      expect((await upload(url, svg, 'logo.png', 'image/png')).status).toBe(415);
      const gif = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
        .gif()
        .toBuffer();
      expect((await upload(url, gif, 'a.gif', 'image/gif')).status).toBe(415);

      const whole = await picture(800, 600, 'png');
      const damaged = await upload(url, whole.subarray(0, Math.floor(whole.length / 2)), 'half.png', 'image/png');
      expect(damaged.status).toBe(422);
      expect(damaged.body.code).toBe('image-unreadable');

      const noFile = await as(admin, request(app()).put(url)).send({ file: 'x' });
      expect(noFile.status).toBe(400);
      expect(noFile.body.errors).toHaveProperty('file');

      for (const roles of [['learner'], ['finance'], ['contributor']] as const) {
        const someone = await signedIn(db, [...roles]);
        const refused = await upload(url, whole, 'ok.png', 'image/png', someone);
        expect(refused.status).toBe(403);
      }
      expect((await request(app()).put(url).attach('file', whole, 'ok.png')).status).toBe(401);
      const support = await signedIn(db, ['support']);
      expect((await upload(url, whole, 'ok.png', 'image/png', support)).status).toBe(200);
      expect(
        (await upload(`/api/admin/products/${crypto.randomUUID()}/image`, whole, 'a.png', 'image/png')).status,
      ).toBe(404);
      // Nothing of the refused files was written or pointed to.
      expect(await db('auditLogs').where({ recordId: product.id, action: 'set-image' })).toHaveLength(1);
    });

    it('replaces and removes: the product never points to a missing image, and no replaced image stays', async () => {
      const db = database().db;
      const product = await createProduct(db, { name: 'Replace Course' });
      const twin = await createProduct(db, { name: 'Twin Course' });
      const url = `/api/admin/products/${product.id}/image`;
      const first = (await upload(url, await picture(700, 700, 'webp', '#111111'), 'a.webp', 'image/webp')).body
        .imageKey as string;
      // The same picture on another product: one original, two pointers.
      expect(
        (
          await upload(
            `/api/admin/products/${twin.id}/image`,
            await picture(700, 700, 'webp', '#111111'),
            'b.webp',
            'image/webp',
          )
        ).body.imageKey,
      ).toBe(first);
      expect((await image(first, 320)).status).toBe(200);

      const second = (await upload(url, await picture(640, 480, 'avif', '#222222'), 'b.avif', 'image/avif')).body
        .imageKey as string;
      expect(second).toMatch(/-640x480\.avif$/);
      await jobsDone();
      expect(await storage.exists(originalKey(first))).toBe(true); // the twin still shows it
      expect((await image(second, 320)).status).toBe(200);

      const twinRemoved = await as(admin, request(app()).delete(`/api/admin/products/${twin.id}/image`));
      expect(twinRemoved.status).toBe(200);
      expect(twinRemoved.body.imageKey).toBeNull();
      await jobsDone();
      expect(await storage.exists(originalKey(first))).toBe(false);
      expect(await storage.exists(`${variantsPrefix(first)}320.avif`)).toBe(false);
      expect((await image(first, 320)).status).toBe(404);

      const removed = await as(admin, request(app()).delete(url));
      expect(removed.body.imageKey).toBeNull();
      await jobsDone();
      expect(await storage.exists(originalKey(second))).toBe(false);
      const store = await request(app()).get('/api/store/products');
      expect(store.body.data.find((p: { id: string }) => p.id === product.id).image).toBeNull();
      expect((await request(app()).get(`/api/store/products/${product.id}`)).body.image).toBeNull();
      expect(
        (await db('auditLogs').where({ recordId: product.id }).orderBy('id')).map((a: { action: string }) => a.action),
      ).toEqual(['set-image', 'set-image', 'remove-image']);
    });

    it('keeps an image a racing upload is pointing to, however the removal job and the upload interleave', async () => {
      const db = database().db;
      const product = await createProduct(db, { name: 'Race Course' });
      const bytes = await picture(300, 200, 'png', '#5e35b1');
      const url = `/api/admin/products/${product.id}/image`;
      const key = (await upload(url, bytes, 'a.png', 'image/png')).body.imageKey as string;
      await as(admin, request(app()).delete(url));
      // The removal job and a new upload of the same picture, at once, many times over.
      for (let round = 0; round < 5; round++) {
        await Promise.all([services.imageAdmin.removeIfUnused(key), upload(url, bytes, 'a.png', 'image/png')]);
        expect((await db('products').where('id', product.id).first()).imageKey).toBe(key);
        expect(await storage.exists(originalKey(key))).toBe(true);
        await as(admin, request(app()).delete(url));
      }
    });

    it('takes and removes a person’s avatar, shown small with the instructors on the sales page', async () => {
      const db = database().db;
      const instructor = await signedIn(db, ['contributor']);
      await db('users').where('id', instructor.user.id).update({ name: 'Ada Teacher' });
      const product = await createProduct(db, { name: 'Taught Course' });
      await createRevenueSplit(db, { productId: product.id, userId: instructor.user.id, type: 'owner', percent: 1 });
      const instructorsOf = async () =>
        (await request(app()).get(`/api/store/products/${product.id}`)).body.instructors as {
          name: string;
          avatar: unknown;
        }[];
      expect(await instructorsOf()).toEqual([expect.objectContaining({ name: 'Ada Teacher', avatar: null })]);
      const url = `/api/admin/users/${instructor.user.id}/avatar`;
      const set = await upload(url, await picture(400, 400, 'jpeg'), 'me.jpg', 'image/jpeg');
      expect(set.status).toBe(200);
      expect(set.body).toMatchObject({ id: instructor.user.id, avatarKey: expect.stringMatching(/-400x400\.jpg$/) });
      const small = await image(set.body.avatarKey, 160);
      expect(await sharp(small.body).metadata()).toMatchObject({ width: 160, height: 160 });
      const avatarKey: string = set.body.avatarKey;
      expect(await instructorsOf()).toEqual([
        expect.objectContaining({
          name: 'Ada Teacher',
          avatar: {
            src: `/media/images/${avatarKey}?w=160`,
            srcSet: `/media/images/${avatarKey}?w=160 160w, /media/images/${avatarKey}?w=320 320w`,
          },
        }),
      ]);
      const [audit] = await db('auditLogs').where({ resource: 'users', recordId: instructor.user.id });
      expect(audit).toMatchObject({ action: 'set-avatar', after: { avatarKey: set.body.avatarKey } });
      const removed = await as(admin, request(app()).delete(url));
      expect(removed.body.avatarKey).toBeNull();
      await jobsDone();
      expect(await storage.exists(originalKey(set.body.avatarKey))).toBe(false);
      expect(await instructorsOf()).toEqual([expect.objectContaining({ avatar: null })]);
    });
  });
});
