import sharp from 'sharp';
import { drawCertificate, type CertificateDrawingInput, type Mark, type Rgb } from './drawing';

/*
 * The link preview's picture (og:image) of a certificate: its page as the PDF draws it (drawing.ts), on a 1200 × 630
 * card, the size link previews show. The glyphs are written as outlines (paths) from the same faces HarfBuzz shaped
 * them with, so the picture needs no font on the server and shows any script as the PDF does; sharp turns the SVG
 * into a PNG.
 */

export const PREVIEW_WIDTH = 1200;
export const PREVIEW_HEIGHT = 630;
const MARGIN = 24;
const BACKDROP = '#e8edf5';

const hex = (c: Rgb) =>
  `#${[c.red, c.green, c.blue]
    .map((v) =>
      Math.round(v * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
const n = (v: number) => Number(v.toFixed(3));

function markSvg(mark: Mark): string {
  if (mark.kind === 'frame') {
    return `<rect x="${n(mark.x)}" y="${n(mark.y)}" width="${n(mark.width)}" height="${n(mark.height)}" fill="none" stroke="${hex(mark.color)}" stroke-width="${mark.lineWidth}"/>`;
  }
  if (mark.kind === 'rule') {
    return `<line x1="${n(mark.x1)}" y1="${n(mark.y)}" x2="${n(mark.x2)}" y2="${n(mark.y)}" stroke="${hex(mark.color)}" stroke-width="${mark.lineWidth}"/>`;
  }
  const paths = mark.line.glyphs.map((glyph) => {
    const scale = mark.size / glyph.face.unitsPerEm;
    const x = mark.x + glyph.x * mark.size;
    const y = mark.y + glyph.y * mark.size;
    return `<path transform="translate(${n(x)} ${n(y)}) scale(${n(scale * 1000) / 1000})" d="${glyph.face.harfbuzz.glyphToPath(glyph.glyphId)}"/>`;
  });
  return `<g fill="${hex(mark.color)}">${paths.join('')}</g>`;
}

/** The certificate's preview as a PNG, and the characters no face could draw. */
export async function certificatePreview(
  input: CertificateDrawingInput,
): Promise<{ bytes: Uint8Array; missing: string[] }> {
  const drawing = await drawCertificate(input);
  const scale = (PREVIEW_HEIGHT - 2 * MARGIN) / drawing.height;
  const left = (PREVIEW_WIDTH - drawing.width * scale) / 2;
  // The page in PDF's own coordinates (y up): moved onto the card and flipped.
  const svg = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${PREVIEW_WIDTH}" height="${PREVIEW_HEIGHT}" viewBox="0 0 ${PREVIEW_WIDTH} ${PREVIEW_HEIGHT}">`,
    `<rect width="100%" height="100%" fill="${BACKDROP}"/>`,
    `<g transform="translate(${n(left)} ${PREVIEW_HEIGHT - MARGIN}) scale(${n(scale)} ${n(-scale)})">`,
    `<rect width="${drawing.width}" height="${drawing.height}" fill="#ffffff"/>`,
    ...drawing.marks.map(markSvg),
    '</g></svg>',
  ].join('');
  const bytes = await sharp(Buffer.from(svg)).png({ compressionLevel: 9 }).toBuffer();
  return { bytes, missing: drawing.missing };
}
