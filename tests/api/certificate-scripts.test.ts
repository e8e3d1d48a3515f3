import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { certificatePreview } from '../../api/src/certificates/preview';
import { createServices, type Services } from '../../api/src/services';
import { createUser } from '../../seeds/factories';
import { testConfig, testDeps } from '../support/app';
import { signedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';
import { pdfText } from '../support/pdf-text';

/** Names people write, one per script the certificate must set (with Latin's diacritics and a mixed one). */
const NAMES = {
  latin: 'Zoë Łukasz-Ångström Nguyễn',
  devanagari: 'अनुराधा शर्मा',
  arabic: 'ليلى حداد',
  arabicLigature: 'علاء الدين',
  hebrew: 'נועה כהן',
  bengali: 'অনন্যা রায়',
  tamil: 'கார்த்திக் சுப்ரமணியன்',
  thai: 'สมชาย ใจดี',
  korean: '김민준',
  cjk: '山田 太郎',
  japanese: 'さくら カタカナ',
  greekCyrillic: 'Ελένη Жуковская',
  gujarati: 'પ્રિયા પટેલ',
  telugu: 'శ్రీనివాస్ రెడ్డి',
  georgian: 'ნინო ბერიძე',
  amharic: 'አበበ በቀለ',
};

/** The text a reader copies out of the PDF, as Poppler's pdftotext reads it (ToUnicode, in reading order). */
function extracted(pdf: Buffer): string[] {
  const text = execFileSync('pdftotext', ['-enc', 'UTF-8', '-', '-'], { input: pdf }).toString('utf8');
  // Poppler marks right-to-left lines with embedding controls; names are compared as Unicode text (NFC).
  return text
    .split('\n')
    .map((line) =>
      line
        .replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')
        .trim()
        .normalize('NFC'),
    )
    .filter(Boolean);
}

/** The fonts a PDF embeds, as Poppler's pdffonts names them (subset prefix and all). */
function fontsOf(pdf: Buffer): string[] {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'certificate-fonts-'));
  try {
    const file = path.join(dir, 'certificate.pdf');
    writeFileSync(file, pdf);
    const table = execFileSync('pdffonts', [file]).toString('utf8').split('\n').slice(2);
    return table.map((line) => line.split(/\s+/)[0]!).filter(Boolean);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The row of each pixel that differs (by more than a faint edge) between two pictures of one size, in grey. */
async function differingRows(a: Uint8Array, b: Uint8Array): Promise<number[]> {
  const grey = (png: Uint8Array) => sharp(Buffer.from(png)).greyscale().raw().toBuffer({ resolveWithObject: true });
  const [left, right] = await Promise.all([grey(a), grey(b)]);
  const rows: number[] = [];
  for (let i = 0; i < left.data.length; i++) {
    if (Math.abs(left.data[i]! - right.data[i]!) > 32) rows.push(Math.floor(i / left.info.width));
  }
  return rows;
}

describe('certificates in every script', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let services: Services;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    const deps = testDeps(db(), { config: testConfig({ PUBLIC_URL: 'https://learn.example.com' }) });
    services = createServices(deps);
    app = createApp(deps, { services }).callback();
    let n = 0;
    for (const [script, name] of Object.entries(NAMES)) {
      const user = await createUser(db(), { name });
      ids[script] = `SCR1PT${String(n++).padStart(6, '0')}`;
      await db()('certificates').insert({
        id: ids[script],
        userId: user.id,
        learnerName: name,
        courseTitle: 'Typography',
      });
    }
  });

  const bytes = (path: string) =>
    request(app)
      .get(path)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });

  it.each(Object.entries(NAMES))('sets a %s name with real glyphs that copy back as the name', async (script, name) => {
    const pdf = await bytes(`/certificates/${ids[script]}.pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(extracted(pdf.body)).toContain(name.normalize('NFC'));
    // Every glyph drawn is a glyph of its face with an outline: none .notdef (a box), none blank.
    const { blankGlyphs, lines } = await pdfText(pdf.body);
    expect(blankGlyphs).toEqual([]);
    expect(lines).toContain('Certificate of completion');
  });

  it('puts a name that mixes directions in visual order', async () => {
    const name = 'Leila ليلى';
    const user = await createUser(db(), { name });
    await db()('certificates').insert({
      id: 'M1XED0000000',
      userId: user.id,
      learnerName: name,
      courseTitle: 'Typography',
    });
    const pdf = await bytes('/certificates/M1XED0000000.pdf');
    expect(pdf.status).toBe(200);
    expect(extracted(pdf.body)).toContain(name);
    expect((await pdfText(pdf.body)).blankGlyphs).toEqual([]);
  });

  it('draws emoji in Noto Emoji, a ZWJ sequence as one glyph that copies back as its characters', async () => {
    const name = 'Ana 🌸 👩‍💻';
    const user = await createUser(db(), { name });
    await db()('certificates').insert({
      id: 'EM0J10000000',
      userId: user.id,
      learnerName: name,
      courseTitle: 'Typography',
    });
    const pdf = await bytes('/certificates/EM0J10000000.pdf');
    expect(pdf.status).toBe(200);
    // Poppler puts the sequence's glyph (taller than the text's) on a line of its own: the name's lines, read together.
    expect(extracted(pdf.body).join(' ')).toContain(name);
    expect((await pdfText(pdf.body)).blankGlyphs).toEqual([]);
    expect(fontsOf(pdf.body)).toEqual(expect.arrayContaining([expect.stringMatching(/NotoEmoji/)]));
  });

  it('draws Han in its Japanese forms when the name has kana, in its Chinese forms otherwise', async () => {
    const name = '山田 たろう';
    const user = await createUser(db(), { name });
    await db()('certificates').insert({
      id: 'JAPAN0000000',
      userId: user.id,
      learnerName: name,
      courseTitle: 'Typography',
    });
    const japanese = await bytes('/certificates/JAPAN0000000.pdf');
    expect(extracted(japanese.body)).toContain(name);
    expect(fontsOf(japanese.body)).toEqual(expect.arrayContaining([expect.stringMatching(/NotoSansJP/)]));
    expect(fontsOf(japanese.body).some((font) => /NotoSansSC/.test(font))).toBe(false);

    const chinese = await bytes(`/certificates/${ids.cjk}.pdf`);
    expect(fontsOf(chinese.body)).toEqual(expect.arrayContaining([expect.stringMatching(/NotoSansSC/)]));
    expect(fontsOf(chinese.body).some((font) => /NotoSansJP/.test(font))).toBe(false);
  });

  it('previews a certificate as a 1200 × 630 PNG for link previews, cached by its ETag, gone once revoked', async () => {
    const preview = await bytes(`/certificates/${ids.devanagari}.png`);
    expect(preview.status).toBe(200);
    expect(preview.headers['content-type']).toBe('image/png');
    const { width, height, format } = await sharp(preview.body as Buffer).metadata();
    expect({ width, height, format }).toEqual({ width: 1200, height: 630, format: 'png' });
    // The name's glyphs are drawn: against the same card named by a character no face has (the line kept, no ink),
    // every pixel that differs is in the name's band, and there are a name's worth of them.
    const row = await db()('certificates').where({ id: ids.devanagari }).first();
    const input = {
      id: row.id,
      learnerName: row.learnerName,
      courseTitle: row.courseTitle,
      issuedAt: row.issuedAt,
      schoolName: (await services.school.get()).name,
      verifyUrl: `https://learn.example.com/certificates/${row.id}`,
    };
    const named = await certificatePreview(input);
    expect(named.missing).toEqual([]);
    expect(Buffer.from(named.bytes).equals(preview.body as Buffer)).toBe(true); // what the address serves
    const nameless = await certificatePreview({ ...input, learnerName: '\uE000' });
    expect(nameless.missing).toEqual(['\uE000']);
    const changed = await differingRows(named.bytes, nameless.bytes);
    expect(changed.length).toBeGreaterThan(1500);
    // Between "This certifies that" (its baseline at row 214) and the rule under the name (row 279).
    expect(Math.min(...changed)).toBeGreaterThan(217);
    expect(Math.max(...changed)).toBeLessThan(279);

    const again = await request(app)
      .get(`/certificates/${ids.devanagari}.png`)
      .set('If-None-Match', preview.headers.etag!);
    expect(again.status).toBe(304);

    const support = await signedIn(db(), ['support']);
    await request(app)
      .post(`/api/admin/certificates/${ids.devanagari}/revoke`)
      .set('Cookie', support.cookie)
      .set('X-CSRF-Token', support.csrfToken)
      .send({ reason: 'Issued in error.' });
    const revoked = await request(app).get(`/certificates/${ids.devanagari}.png`);
    expect(revoked.status).toBe(410);
    expect(revoked.body.code).toBe('certificate-revoked');
  });
});
