import { facesFor, type ShapedLine, type Typesetter } from './typesetting/shape';

/*
 * What a certificate looks like, once: a page of frames, a rule and lines of shaped text. The PDF (pdf.ts) and the
 * link preview's picture (preview.ts) each only put these marks on their surface, so both show the same certificate.
 */

export interface CertificateDrawingInput {
  id: string;
  learnerName: string;
  courseTitle: string;
  issuedAt: Date;
  /** The school that issues it. */
  schoolName: string;
  /** The public verification page's absolute address. */
  verifyUrl: string;
}

/** 0 to 1 each. */
export interface Rgb {
  red: number;
  green: number;
  blue: number;
}

export type Mark =
  | { kind: 'frame'; x: number; y: number; width: number; height: number; lineWidth: number; color: Rgb }
  | { kind: 'rule'; x1: number; x2: number; y: number; lineWidth: number; color: Rgb }
  /** A shaped line starting at x on the baseline y, at `size` points. */
  | { kind: 'text'; line: ShapedLine; x: number; y: number; size: number; color: Rgb };

export interface CertificateDrawing {
  /** In points, y up from the bottom (as PDF has it). */
  width: number;
  height: number;
  marks: Mark[];
  /** Characters no face could draw (left out, and logged by the caller). */
  missing: string[];
}

/** US Letter, landscape, in points. */
const WIDTH = 792;
const HEIGHT = 612;
const TEXT_WIDTH = WIDTH - 2 * 72;

const INK: Rgb = { red: 0.11, green: 0.13, blue: 0.18 };
const MUTED: Rgb = { red: 0.36, green: 0.39, blue: 0.45 };
const ACCENT: Rgb = { red: 0.13, green: 0.33, blue: 0.62 };

/** "November 26, 2026": the day it was issued, in UTC (the same date wherever it is printed). */
export function certificateDate(issuedAt: Date): string {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(issuedAt);
}

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * The lines `text` takes at `size` within the page's text width: broken at spaces, and inside a word (or a run of
 * Chinese, which has no spaces) between letters as a reader sees them (never inside a conjunct or a mark's base).
 */
function wrap(type: Typesetter, text: string, size: number): string[] {
  const fits = (line: string) => type.line(line).width * size <= TEXT_WIDTH;
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
    for (const { segment } of graphemes.segment(word)) {
      if (line && !fits(line + segment)) {
        lines.push(line);
        line = '';
      }
      line += segment;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** The largest size up to `size` at which `text` takes at most `maxLines` lines (never below `min`), and its lines. */
function fit(type: Typesetter, text: string, size: number, min: number, maxLines: number) {
  for (let s = size; s > min; s -= 1) {
    const lines = wrap(type, text, s);
    if (lines.length <= maxLines) return { size: s, lines };
  }
  return { size: min, lines: wrap(type, text, min) };
}

export async function drawCertificate(input: CertificateDrawingInput): Promise<CertificateDrawing> {
  const date = `on ${certificateDate(input.issuedAt)}`;
  const plainTexts = ['This certifies that', 'has completed the course', date, input.id, input.verifyUrl];
  const strongTexts = [
    input.schoolName.toUpperCase(),
    'Certificate of completion',
    input.learnerName,
    input.courseTitle,
  ];
  const [plain, strong] = await Promise.all([facesFor(plainTexts, 'regular'), facesFor(strongTexts, 'bold')]);

  const marks: Mark[] = [
    // A double frame, as certificates have.
    { kind: 'frame', x: 24, y: 24, width: WIDTH - 48, height: HEIGHT - 48, lineWidth: 3, color: ACCENT },
    { kind: 'frame', x: 34, y: 34, width: WIDTH - 68, height: HEIGHT - 68, lineWidth: 0.75, color: ACCENT },
  ];
  const centered = (type: Typesetter, text: string, y: number, size: number, color: Rgb = INK) => {
    const line = type.line(text);
    marks.push({ kind: 'text', line, x: (WIDTH - line.width * size) / 2, y, size, color });
  };

  centered(strong, input.schoolName.toUpperCase(), HEIGHT - 96, 14, ACCENT);
  centered(strong, 'Certificate of completion', HEIGHT - 150, 34);
  centered(plain, 'This certifies that', HEIGHT - 200, 14, MUTED);

  const name = fit(strong, input.learnerName, 36, 16, 2);
  let y = HEIGHT - 216 - name.size;
  for (const line of name.lines) {
    centered(strong, line, y, name.size);
    y -= name.size * 1.2;
  }
  const rule = y + name.size * 0.75;
  marks.push({ kind: 'rule', x1: WIDTH / 2 - 180, x2: WIDTH / 2 + 180, y: rule, lineWidth: 1, color: MUTED });

  y -= 18;
  centered(plain, 'has completed the course', y, 14, MUTED);
  const course = fit(strong, input.courseTitle, 24, 12, 3);
  y -= 14 + course.size;
  for (const line of course.lines) {
    centered(strong, line, y, course.size);
    y -= course.size * 1.25;
  }
  centered(plain, date, y - 8, 14, MUTED);

  centered(plain, `Certificate ID ${input.id}`, 86, 11, MUTED);
  centered(plain, `Verify it at ${input.verifyUrl}`, 68, 11, ACCENT);

  const missing = marks.flatMap((m) => (m.kind === 'text' ? m.line.missing : []));
  return { width: WIDTH, height: HEIGHT, marks, missing: [...new Set(missing)] };
}
