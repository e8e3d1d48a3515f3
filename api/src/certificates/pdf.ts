import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, rgb, type PDFFont, type PDFPage, type RGB } from 'pdf-lib';

/*
 * The certificate as a one-page PDF (pdf-lib). Names and titles come in any script ("Zoë Łukasz 李雷"): text is set
 * in Noto Sans (Latin, Greek, Cyrillic, Vietnamese), and what it has no glyph for (Chinese, Japanese kana) in Noto
 * Sans SC, both TrueType files from the @expo-google-fonts packages, each embedded as a subset of the glyphs used (a
 * few kilobytes, not ten megabytes).
 */

const require = createRequire(import.meta.url);
const FONT_FILES = {
  regular: require.resolve('@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf'),
  bold: require.resolve('@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf'),
  /** Only names and course titles (set in bold) may need it: read the first time one does. */
  boldCjk: require.resolve('@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf'),
};

type Fontkit = Parameters<PDFDocument['registerFontkit']>[0];
type FontkitFont = ReturnType<Fontkit['create']>;

/** What fontkit's TrueType subset keeps of each glyph (private fields of @pdf-lib/fontkit 1.1.1, pinned). */
interface TrueTypeSubset {
  _addGlyph(gid: number): number;
  glyf: Uint8Array[];
  offset: number;
}

/**
 * @pdf-lib/fontkit writes a subset's `loca` table in its short form (offsets / 2) whenever the glyphs fit, which
 * takes every glyph to be an even number of bytes long. Google's fonts do not pad them, so a glyph after an odd one
 * came out empty (fixed in upstream fontkit, foliojs/fontkit#191, not in this fork). Each glyph is padded here to an
 * even length, which TrueType allows.
 */
function evenGlyphs(font: FontkitFont): FontkitFont {
  const createSubset = font.createSubset.bind(font);
  font.createSubset = () => {
    const subset = createSubset();
    const inner = subset as unknown as TrueTypeSubset;
    if (typeof inner._addGlyph !== 'function') return subset; // a CFF font: no loca table
    const addGlyph = inner._addGlyph.bind(subset);
    inner._addGlyph = (gid) => {
      const index = addGlyph(gid);
      const glyph = inner.glyf[index]!;
      if (glyph.length % 2 === 1) {
        const padded = new Uint8Array(glyph.length + 1);
        padded.set(glyph);
        Object.setPrototypeOf(padded, Object.getPrototypeOf(glyph)); // the kind of buffer fontkit's writer takes
        inner.glyf[index] = padded;
        inner.offset += 1;
      }
      return index;
    };
    return subset;
  };
  return font;
}

interface LoadedFont {
  bytes: Uint8Array;
  parsed: FontkitFont;
}

/**
 * Each font read and parsed once per process. pdf-lib parses the bytes it is given on every embed (a quarter of a
 * second for a large font): the fontkit it is given hands back the font parsed here.
 */
const fonts = new Map<string, Promise<LoadedFont>>();
function font(file: string): Promise<LoadedFont> {
  if (!fonts.has(file)) {
    const loading = readFile(file).then((bytes) => ({ bytes, parsed: evenGlyphs(fontkit.create(bytes)) }));
    loading.catch(() => fonts.delete(file)); // a failed read is tried again next time
    fonts.set(file, loading);
  }
  return fonts.get(file)!;
}

const parsedKit = (loaded: LoadedFont[]): Fontkit => ({
  create: (bytes) => loaded.find((f) => f.bytes === bytes)?.parsed ?? evenGlyphs(fontkit.create(bytes)),
});

/** Text in one font, with another for the characters it has no glyph for. */
interface Face {
  runs(text: string): { font: PDFFont; text: string }[];
}

function face(main: PDFFont, covers: (codePoint: number) => boolean, fallback: PDFFont | null): Face {
  return {
    runs(text) {
      const runs: { font: PDFFont; text: string }[] = [];
      for (const char of text) {
        const font = fallback && !covers(char.codePointAt(0)!) ? fallback : main;
        const last = runs.at(-1);
        if (last?.font === font) last.text += char;
        else runs.push({ font, text: char });
      }
      return runs;
    },
  };
}

const widthOf = (face: Face, text: string, size: number) =>
  face.runs(text).reduce((sum, run) => sum + run.font.widthOfTextAtSize(run.text, size), 0);

export interface CertificatePdfInput {
  id: string;
  learnerName: string;
  courseTitle: string;
  issuedAt: Date;
  /** The platform that issues it (the storefront's name). */
  platformName: string;
  /** The public verification page's absolute address. */
  verifyUrl: string;
}

/** US Letter, landscape, in points. */
const WIDTH = 792;
const HEIGHT = 612;
const TEXT_WIDTH = WIDTH - 2 * 72;

const INK = rgb(0.11, 0.13, 0.18);
const MUTED = rgb(0.36, 0.39, 0.45);
const ACCENT = rgb(0.13, 0.33, 0.62);

/** "November 26, 2026": the day it was issued, in UTC (the same date wherever it is printed). */
export function certificateDate(issuedAt: Date): string {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(issuedAt);
}

/**
 * The lines `text` takes at `size` within the page's text width: broken at spaces, and inside a word (or a run of
 * Chinese, which has no spaces) where it alone is too wide.
 */
function wrap(face: Face, text: string, size: number): string[] {
  const fits = (line: string) => widthOf(face, line, size) <= TEXT_WIDTH;
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (fits(candidate)) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    line = '';
    for (const char of word) {
      if (line && !fits(line + char)) {
        lines.push(line);
        line = '';
      }
      line += char;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** The largest size up to `size` at which `text` takes at most `maxLines` lines (never below `min`), and its lines. */
function fit(face: Face, text: string, size: number, min: number, maxLines: number) {
  for (let s = size; s > min; s -= 1) {
    const lines = wrap(face, text, s);
    if (lines.length <= maxLines) return { size: s, lines };
  }
  return { size: min, lines: wrap(face, text, min) };
}

function centered(page: PDFPage, face: Face, text: string, y: number, size: number, color: RGB = INK) {
  let x = (WIDTH - widthOf(face, text, size)) / 2;
  for (const run of face.runs(text)) {
    page.drawText(run.text, { x, y, size, font: run.font, color });
    x += run.font.widthOfTextAtSize(run.text, size);
  }
}

/** The certificate's PDF: the same bytes for the same certificate (its dates are the issue date, never "now"). */
export async function certificatePdf(input: CertificatePdfInput): Promise<Uint8Array> {
  const [regularFont, boldFont] = await Promise.all([font(FONT_FILES.regular), font(FONT_FILES.bold)]);
  const covered = (codePoint: number) => boldFont.parsed.hasGlyphForCodePoint(codePoint);
  const needsCjk = [...`${input.learnerName}${input.courseTitle}`].some((c) => !covered(c.codePointAt(0)!));
  const cjkFont = needsCjk ? await font(FONT_FILES.boldCjk) : null;

  const doc = await PDFDocument.create();
  doc.registerFontkit(parsedKit([regularFont, boldFont, ...(cjkFont ? [cjkFont] : [])]));
  const [regular, bold, boldCjk] = await Promise.all([
    doc.embedFont(regularFont.bytes, { subset: true }),
    doc.embedFont(boldFont.bytes, { subset: true }),
    cjkFont ? doc.embedFont(cjkFont.bytes, { subset: true }) : null,
  ]);
  const plain = face(regular, () => true, null);
  const strong = face(bold, covered, boldCjk);

  doc.setTitle(`Certificate of completion: ${input.courseTitle}`);
  doc.setSubject(`${input.learnerName} completed ${input.courseTitle}`);
  doc.setAuthor(input.platformName);
  doc.setCreator(input.platformName);
  doc.setProducer(input.platformName);
  doc.setKeywords([input.id]);
  doc.setCreationDate(input.issuedAt);
  doc.setModificationDate(input.issuedAt);

  const page = doc.addPage([WIDTH, HEIGHT]);
  // A double frame, as certificates have.
  page.drawRectangle({ x: 24, y: 24, width: WIDTH - 48, height: HEIGHT - 48, borderColor: ACCENT, borderWidth: 3 });
  page.drawRectangle({ x: 34, y: 34, width: WIDTH - 68, height: HEIGHT - 68, borderColor: ACCENT, borderWidth: 0.75 });

  centered(page, strong, input.platformName.toUpperCase(), HEIGHT - 96, 14, ACCENT);
  centered(page, strong, 'Certificate of completion', HEIGHT - 150, 34);
  centered(page, plain, 'This certifies that', HEIGHT - 200, 14, MUTED);

  const name = fit(strong, input.learnerName, 36, 16, 2);
  let y = HEIGHT - 216 - name.size;
  for (const line of name.lines) {
    centered(page, strong, line, y, name.size);
    y -= name.size * 1.2;
  }
  const rule = y + name.size * 0.75;
  page.drawLine({ start: { x: WIDTH / 2 - 180, y: rule }, end: { x: WIDTH / 2 + 180, y: rule }, color: MUTED });

  y -= 18;
  centered(page, plain, 'has completed the course', y, 14, MUTED);
  const course = fit(strong, input.courseTitle, 24, 12, 3);
  y -= 14 + course.size;
  for (const line of course.lines) {
    centered(page, strong, line, y, course.size);
    y -= course.size * 1.25;
  }
  centered(page, plain, `on ${certificateDate(input.issuedAt)}`, y - 8, 14, MUTED);

  centered(page, plain, `Certificate ID ${input.id}`, 86, 11, MUTED);
  centered(page, plain, `Verify it at ${input.verifyUrl}`, 68, 11, ACCENT);
  return doc.save({ useObjectStreams: false });
}
