import fontkit from '@pdf-lib/fontkit';
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  type PDFRawStream,
  type PDFPage,
  type PDFRef,
} from 'pdf-lib';

/**
 * The text of a PDF's pages as a reader copies it: the glyphs each `Tj` shows, read back through their font's
 * ToUnicode map, one line per baseline. Enough for the PDFs pdf-lib writes (hex strings in embedded fonts).
 */
export interface PdfText {
  pageCount: number;
  /** Width and height of the first page, in points. */
  size: { width: number; height: number };
  lines: string[];
  title: string | undefined;
  /**
   * Characters shown whose glyph in the embedded font has no outline or is .notdef (a broken subset prints them blank,
   * a missing glyph as a box); a glyph that stands for no character of its own is named by its code, `<0005>`.
   */
  blankGlyphs: string[];
}

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');
const decoded = (stream: unknown) => latin1(decodePDFRawStream(stream as PDFRawStream).decode());

/** A ToUnicode CMap's glyph code → text (bfchar lines and bfrange runs). */
function toUnicode(cmap: string): Map<string, string> {
  const map = new Map<string, string>();
  const text = (hex: string) => String.fromCodePoint(...(hex.match(/.{4}/g) ?? []).map((h) => parseInt(h, 16)));
  for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const [, code, unicode] of block[1]!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g)) {
      map.set(code!.toUpperCase(), text(unicode!));
    }
  }
  for (const block of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const [, from, to, unicode] of block[1]!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g)) {
      const start = parseInt(from!, 16);
      for (let code = start; code <= parseInt(to!, 16); code++) {
        const first = parseInt(unicode!, 16) + (code - start);
        map.set(code.toString(16).toUpperCase().padStart(from!.length, '0'), String.fromCodePoint(first));
      }
    }
  }
  return map;
}

/**
 * The characters of a Type0 font's ToUnicode map whose glyph in its embedded TrueType file draws nothing (or is
 * .notdef, glyph 0): codes reach glyphs through the CIDToGIDMap when the font has one, else are glyph ids.
 */
function blankGlyphsOf(font: PDFDict, map: Map<string, string>): string[] {
  const descendant = font.lookup(PDFName.of('DescendantFonts'), PDFArray).lookup(0, PDFDict);
  const descriptor = descendant.lookup(PDFName.of('FontDescriptor'), PDFDict);
  const file = decodePDFRawStream(descriptor.lookup(PDFName.of('FontFile2')) as PDFRawStream).decode();
  const embedded = fontkit.create(file);
  const cidToGid = descendant.lookup(PDFName.of('CIDToGIDMap'));
  const gids = cidToGid instanceof PDFName ? null : decodePDFRawStream(cidToGid as PDFRawStream).decode();
  const glyphOf = (code: number) => (gids ? (gids[code * 2]! << 8) | gids[code * 2 + 1]! : code);
  const draws = (code: string) => {
    const gid = glyphOf(parseInt(code, 16));
    try {
      return gid !== 0 && embedded.getGlyph(gid).path.toSVG() !== '';
    } catch {
      return false; // its bytes end early: a broken subset
    }
  };
  return [...map].flatMap(([code, text]) => ((text && /^\s*$/.test(text)) || draws(code) ? [] : [text || `<${code}>`]));
}

function pageText(doc: PDFDocument, page: PDFPage): { lines: string[]; blankGlyphs: string[] } {
  const fonts = page.node.Resources()!.lookup(PDFName.of('Font'), PDFDict);
  const maps = new Map<string, Map<string, string>>();
  /** Per font, every code shown, with its text ('' for a glyph that carries none, as a conjunct's second may). */
  const shown = new Map<string, Map<string, string>>();
  for (const [key] of fonts.entries()) {
    const font = doc.context.lookup(fonts.get(key) as PDFRef, PDFDict);
    maps.set(key.asString(), toUnicode(decoded(font.lookup(PDFName.of('ToUnicode')))));
    shown.set(key.asString(), new Map());
  }
  const contents = page.node.Contents();
  const streams = contents instanceof PDFArray ? contents.asArray().map((r) => doc.context.lookup(r)) : [contents];
  const program = streams.map(decoded).join('\n');

  const lines: { y: string; text: string }[] = [];
  let font = '';
  let y = '';
  for (const [, fontKey, tmY, hex] of program.matchAll(
    /(\/[^\s/]+)\s+[\d.]+\s+Tf|[-\d.]+\s+[-\d.]+\s+[-\d.]+\s+[-\d.]+\s+[-\d.]+\s+([-\d.]+)\s+Tm|<([0-9a-fA-F]*)>\s*Tj/g,
  )) {
    if (fontKey) font = fontKey;
    else if (tmY) y = tmY;
    else {
      const map = maps.get(font)!;
      for (const code of hex!.toUpperCase().match(/.{4}/g) ?? []) shown.get(font)!.set(code, map.get(code) ?? '');
      const text = (hex!.match(/.{4}/g) ?? []).map((code) => map.get(code.toUpperCase()) ?? '\uFFFD').join('');
      const last = lines.at(-1);
      if (last && last.y === y) last.text += text;
      else lines.push({ y, text });
    }
  }
  const blankGlyphs = [...fonts.entries()].flatMap(([key, ref]) =>
    blankGlyphsOf(doc.context.lookup(ref as PDFRef, PDFDict), shown.get(key.asString())!),
  );
  return { lines: lines.map((l) => l.text), blankGlyphs };
}

export async function pdfText(bytes: Uint8Array): Promise<PdfText> {
  const doc = await PDFDocument.load(bytes);
  const first = doc.getPage(0);
  const pages = doc.getPages().map((page) => pageText(doc, page));
  return {
    pageCount: doc.getPageCount(),
    size: first.getSize(),
    lines: pages.flatMap((p) => p.lines),
    title: doc.getTitle(),
    blankGlyphs: [...new Set(pages.flatMap((p) => p.blankGlyphs))],
  };
}
