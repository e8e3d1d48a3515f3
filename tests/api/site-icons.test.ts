import sharp from 'sharp';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../support/app';
import { as, signedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';

/** The images inside an ICO file, read as the format says (a header, a 16-byte entry per image, the images). */
function parseIco(bytes: Buffer) {
  expect(bytes.readUInt16LE(0)).toBe(0); // reserved
  expect(bytes.readUInt16LE(2)).toBe(1); // 1: an icon (2 would be a cursor)
  const count = bytes.readUInt16LE(4);
  return Array.from({ length: count }, (_, i) => {
    const entry = 6 + 16 * i;
    const size = bytes.readUInt32LE(entry + 8);
    const offset = bytes.readUInt32LE(entry + 12);
    return {
      width: bytes.readUInt8(entry) || 256,
      height: bytes.readUInt8(entry + 1) || 256,
      bitCount: bytes.readUInt16LE(entry + 6),
      image: bytes.subarray(offset, offset + size),
      end: offset + size,
    };
  });
}

const binary = (req: request.Test) =>
  req.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });

/** The colour at (x, y) of a PNG, as #rrggbb. */
async function pixel(png: Buffer, x: number, y: number): Promise<string> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const i = (y * info.width + x) * info.channels;
  return `#${[data[i], data[i + 1], data[i + 2]].map((c) => c!.toString(16).padStart(2, '0')).join('')}`;
}

describe("the site's icons and manifest, made from the school's logo", () => {
  const database = useTestDatabase();
  const app = () => testApp(database().db);
  let admin: Awaited<ReturnType<typeof signedIn>>;

  beforeAll(async () => {
    admin = await signedIn(database().db, ['admin']);
    const saved = await as(admin, request(app()).put('/api/admin/school')).send({
      name: 'typed Academy of Types',
      legalName: '',
      address: '',
      supportEmail: '',
      accentColor: '#0f766e',
      termsHtml: '',
      privacyHtml: '',
    });
    expect(saved.status).toBe(200);
  });

  it('serves /favicon.ico as a real ICO of 16, 32 and 48 px PNGs, cached by its version', async () => {
    const res = await binary(request(app()).get('/favicon.ico')).expect(200);
    expect(res.headers['content-type']).toBe('image/x-icon');
    expect(res.headers['cache-control']).toBe('public, max-age=86400');
    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const body = res.body as Buffer;
    const images = parseIco(body);
    expect(images.map((i) => [i.width, i.height, i.bitCount])).toEqual([
      [16, 16, 32],
      [32, 32, 32],
      [48, 48, 32],
    ]);
    expect(Math.max(...images.map((i) => i.end))).toBe(body.length);
    for (const { width, image } of images) {
      const meta = await sharp(image).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', width, width]);
    }
    await request(app()).get('/favicon.ico').set('If-None-Match', etag).expect(304);
  });

  it('serves the home-screen icons at their sizes: without a logo, the name’s first letter on the accent', async () => {
    for (const [path, size] of [
      ['/apple-touch-icon.png', 180],
      ['/icon-192.png', 192],
      ['/icon-512.png', 512],
    ] as const) {
      const res = await binary(request(app()).get(path)).expect(200);
      expect(res.headers['content-type'], path).toBe('image/png');
      const meta = await sharp(res.body as Buffer).metadata();
      expect([meta.format, meta.width, meta.height], path).toEqual(['png', size, size]);
    }
    // The monogram: the accent around, a white "T" (the first letter, in capitals) through the middle's top bar.
    const icon = (await binary(request(app()).get('/icon-192.png'))).body as Buffer;
    expect(await pixel(icon, 96, 12)).toBe('#0f766e');
    expect(await pixel(icon, 96, 100)).toBe('#ffffff');
  });

  it('makes the icons from the logo once there is one: new bytes under a new ETag, the page links the new version', async () => {
    const before = await binary(request(app()).get('/icon-192.png')).expect(200);
    const page = (await request(app()).get('/')).text;
    const linked = /<link rel="icon" href="\/favicon.ico\?v=([\w-]+)"/.exec(page)?.[1];
    expect(linked).toBeTruthy();
    expect(page).toContain(`<link rel="apple-touch-icon" href="/apple-touch-icon.png?v=${linked}" />`);
    expect(page).toContain(`<link rel="manifest" href="/manifest.webmanifest?v=${linked}" />`);

    // A wide red logo: contained in the square on white, not stretched.
    const logo = await sharp({ create: { width: 400, height: 100, channels: 3, background: '#dc2626' } })
      .png()
      .toBuffer();
    const uploaded = await as(admin, request(app()).put('/api/admin/school/logo')).attach('file', logo, {
      filename: 'logo.png',
      contentType: 'image/png',
    });
    expect(uploaded.status).toBe(200);
    const after = await binary(request(app()).get('/icon-192.png')).expect(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    const icon = after.body as Buffer;
    expect(await pixel(icon, 96, 96)).toBe('#dc2626');
    expect(await pixel(icon, 96, 30)).toBe('#ffffff'); // above the logo: the white it is set on
    const favicon = parseIco((await binary(request(app()).get('/favicon.ico')).expect(200)).body as Buffer);
    expect(await pixel(favicon[2]!.image, 24, 24)).toBe('#dc2626');
    const relinked = /<link rel="icon" href="\/favicon.ico\?v=([\w-]+)"/.exec(
      (await request(app()).get('/')).text,
    )?.[1];
    expect(relinked).not.toBe(linked);

    expect((await as(admin, request(app()).delete('/api/admin/school/logo'))).status).toBe(200);
    expect(await pixel((await binary(request(app()).get('/icon-192.png'))).body as Buffer, 96, 12)).toBe('#0f766e');
  });

  it('draws a name in any script with its own face: Chinese, Arabic, Devanagari; no letter at all, the plain accent', async () => {
    /** The share of the icon's pixels that are the letter's white. */
    const whiteShare = async () => {
      const icon = (await binary(request(app()).get('/icon-192.png')).expect(200)).body as Buffer;
      const { data, info } = await sharp(icon).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      let white = 0;
      for (let i = 0; i < data.length; i += info.channels) if (data[i]! > 240 && data[i + 1]! > 240) white++;
      return white / (info.width * info.height);
    };
    const rename = async (name: string) => {
      const school = (await request(app()).get('/api/store/school')).body as Record<string, unknown>;
      const { logo: _logo, updatedAt: _updatedAt, ...fields } = school;
      expect((await as(admin, request(app()).put('/api/admin/school')).send({ ...fields, name })).status).toBe(200);
    };
    for (const name of ['学校', 'مدرسة', 'अकादमी']) {
      await rename(name);
      expect(await whiteShare(), name).toBeGreaterThan(0.05);
    }
    await rename('!!!');
    expect(await whiteShare()).toBe(0);
    await rename('typed Academy of Types');
  });

  it('serves /manifest.webmanifest: the school’s name, its accent as the theme, icons that exist at their sizes', async () => {
    const res = await request(app())
      .get('/manifest.webmanifest')
      .buffer(true)
      .parse((r, done) => {
        let text = '';
        r.on('data', (c: Buffer) => (text += c.toString()));
        r.on('end', () => done(null, text));
      });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(res.headers.etag).toBeTruthy();
    const manifest = JSON.parse(res.body as string) as {
      name: string;
      short_name: string;
      start_url: string;
      display: string;
      theme_color: string;
      background_color: string;
      icons: { src: string; sizes: string; type: string }[];
    };
    expect(manifest).toMatchObject({
      name: 'typed Academy of Types',
      short_name: 'typed',
      start_url: '/',
      display: 'standalone',
      theme_color: '#0f766e',
      background_color: '#ffffff',
    });
    expect(manifest.icons.map((i) => i.sizes)).toEqual(['192x192', '512x512']);
    for (const icon of manifest.icons) {
      const served = await binary(request(app()).get(icon.src)).expect(200);
      const meta = await sharp(served.body as Buffer).metadata();
      expect(`${meta.width}x${meta.height}`).toBe(icon.sizes);
      expect(served.headers['content-type']).toBe(icon.type);
    }
  });
});
