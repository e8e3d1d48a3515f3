import { createHash } from 'node:crypto';
import {
  beginText,
  endText,
  PDFHexString,
  type PDFName,
  PDFString,
  setFillingColor,
  setFontAndSize,
  setTextMatrix,
  showText,
  type Color,
  type PDFDocument,
  type PDFPage,
  type PDFRef,
} from 'pdf-lib';
import type { Face } from './faces';
import type { ShapedLine } from './shape';

/*
 * Shaped glyphs into a PDF. pdf-lib's own fonts lay text out with fontkit, whose shaping is not HarfBuzz's (and whose
 * Indic shaper cannot run: see pdf.ts), so the glyphs HarfBuzz chose are written here: each face as a Type 0 font
 * whose embedded TrueType subset holds only the glyphs used. A glyph gets one character code per text it stands for
 * (a CIDToGIDMap points codes at glyphs), so its ToUnicode entry can say exactly which characters it drew: the same
 * Devanagari consonant alone and as the start of a conjunct copies back as either.
 */

const hex4 = (n: number) => n.toString(16).toUpperCase().padStart(4, '0');
const utf16Hex = (text: string) => Buffer.from(text, 'utf16le').swap16().toString('hex').toUpperCase();

/** One face's glyphs in one document, written when the document is saved. */
class EmbeddedFace {
  readonly ref: PDFRef;
  private readonly subset: ReturnType<Face['fontkit']['createSubset']>;
  private readonly codes = new Map<string, number>();
  /** Per character code: its glyph in the subset, its advance (1000 per em) and its text. */
  private readonly entries: { glyph: number; width: number; text: string }[] = [{ glyph: 0, width: 0, text: '' }];

  constructor(
    doc: PDFDocument,
    readonly face: Face,
  ) {
    this.ref = doc.context.nextRef();
    this.subset = face.fontkit.createSubset();
  }

  code(glyphId: number, text: string): number {
    const key = `${glyphId}:${text}`;
    let code = this.codes.get(key);
    if (code === undefined) {
      code = this.entries.length;
      const width = (this.face.fontkit.getGlyph(glyphId).advanceWidth * 1000) / this.face.unitsPerEm;
      this.entries.push({ glyph: this.subset.includeGlyph(glyphId), width, text });
      this.codes.set(key, code);
    }
    return code;
  }

  async write(doc: PDFDocument): Promise<void> {
    const { context } = doc;
    const font = this.face.fontkit;
    const scale = 1000 / this.face.unitsPerEm;
    const bytes = await new Promise<Uint8Array>((resolve) => {
      const parts: Uint8Array[] = [];
      this.subset
        .encodeStream()
        .on('data', (part) => parts.push(part))
        .on('end', () => resolve(Buffer.concat(parts)));
    });
    // A subset's name starts with six capitals; from its contents, so the same certificate gives the same bytes.
    const tag = [...createHash('sha1').update(bytes).digest()]
      .slice(0, 6)
      .map((b) => String.fromCharCode(65 + (b % 26)))
      .join('');
    const name = `${tag}+${this.face.name}`;
    const descriptor = context.register(
      context.obj({
        Type: 'FontDescriptor',
        FontName: name,
        Flags: 4, // symbolic: its glyphs are reached by code, not by a standard encoding
        FontBBox: [font.bbox.minX * scale, font.bbox.minY * scale, font.bbox.maxX * scale, font.bbox.maxY * scale],
        ItalicAngle: 0,
        Ascent: font.ascent * scale,
        Descent: font.descent * scale,
        CapHeight: (font.capHeight || font.ascent) * scale,
        XHeight: (font.xHeight || 0) * scale,
        StemV: 0,
        FontFile2: context.register(context.flateStream(bytes, { Length1: bytes.length })),
      }),
    );
    const cidToGid = new Uint8Array(this.entries.length * 2);
    this.entries.forEach((entry, code) => {
      cidToGid[code * 2] = entry.glyph >> 8;
      cidToGid[code * 2 + 1] = entry.glyph & 0xff;
    });
    const cidFont = context.register(
      context.obj({
        Type: 'Font',
        Subtype: 'CIDFontType2',
        BaseFont: name,
        CIDSystemInfo: { Registry: PDFString.of('Adobe'), Ordering: PDFString.of('Identity'), Supplement: 0 },
        FontDescriptor: descriptor,
        W: [0, this.entries.map((e) => Math.round(e.width))],
        CIDToGIDMap: context.register(context.flateStream(cidToGid)),
      }),
    );
    context.assign(
      this.ref,
      context.obj({
        Type: 'Font',
        Subtype: 'Type0',
        BaseFont: name,
        Encoding: 'Identity-H',
        DescendantFonts: [cidFont],
        ToUnicode: context.register(context.flateStream(toUnicode(this.entries))),
      }),
    );
  }
}

/** The ToUnicode CMap: each code's text (at most 100 a block, as the CMap format asks). */
function toUnicode(entries: { text: string }[]): string {
  const mapped = entries.flatMap((entry, code) => (entry.text ? [`<${hex4(code)}> <${utf16Hex(entry.text)}>`] : []));
  const blocks: string[] = [];
  for (let i = 0; i < mapped.length; i += 100) {
    const block = mapped.slice(i, i + 100);
    blocks.push(`${block.length} beginbfchar\n${block.join('\n')}\nendbfchar`);
  }
  return [
    '/CIDInit /ProcSet findresource begin',
    '12 dict begin',
    'begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
    '/CMapName /Adobe-Identity-UCS def',
    '/CMapType 2 def',
    '1 begincodespacerange',
    '<0000> <FFFF>',
    'endcodespacerange',
    ...blocks,
    'endcmap',
    'CMapName currentdict /CMap defineresource pop',
    'end',
    'end',
  ].join('\n');
}

/** Draws shaped lines on a document's pages; `finish()` writes the fonts, before the document is saved. */
export function pdfGlyphs(doc: PDFDocument) {
  const embedded = new Map<Face, EmbeddedFace>();
  const resourceNames = new Map<PDFPage, Map<Face, PDFName>>();

  function fontOf(page: PDFPage, face: Face): { font: EmbeddedFace; key: PDFName } {
    let font = embedded.get(face);
    if (!font) embedded.set(face, (font = new EmbeddedFace(doc, face)));
    const names = resourceNames.get(page) ?? new Map<Face, PDFName>();
    resourceNames.set(page, names);
    let key = names.get(face);
    if (!key) names.set(face, (key = page.node.newFontDictionary(face.name.replace(/[^A-Za-z0-9]/g, ''), font.ref)));
    return { font, key };
  }

  return {
    /** A line with its start at (x, y) on the baseline, at `size` points. */
    draw(page: PDFPage, line: ShapedLine, at: { x: number; y: number; size: number; color: Color }) {
      const operators = [beginText(), setFillingColor(at.color)];
      let current: Face | null = null;
      for (const glyph of line.glyphs) {
        const { font, key } = fontOf(page, glyph.face);
        if (glyph.face !== current) operators.push(setFontAndSize(key, at.size));
        current = glyph.face;
        operators.push(
          setTextMatrix(1, 0, 0, 1, at.x + glyph.x * at.size, at.y + glyph.y * at.size),
          showText(PDFHexString.of(hex4(font.code(glyph.glyphId, glyph.text)))),
        );
      }
      operators.push(endText());
      page.pushOperators(...operators);
    },
    async finish(): Promise<void> {
      for (const font of embedded.values()) await font.write(doc);
    },
  };
}
