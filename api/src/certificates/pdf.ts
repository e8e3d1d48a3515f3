import { PDFDocument, rgb } from 'pdf-lib';
import { drawCertificate, type CertificateDrawing, type CertificateDrawingInput, type Rgb } from './drawing';
import { pdfGlyphs } from './typesetting/pdf-glyphs';

/*
 * The certificate as a one-page PDF (pdf-lib). Names come in any script: each character's script picks its Noto Sans
 * face, HarfBuzz shapes the runs and the glyphs are written as they were shaped (typesetting/). pdf-lib's own text
 * drawing is not used: it shapes with @pdf-lib/fontkit, whose Indic shaper threw `regeneratorRuntime is not defined`
 * on every Devanagari, Bengali or Tamil name (its state machine is a generator compiled for a runtime the bundle
 * does not ship), and whose Arabic and Indic shaping falls short of HarfBuzz's in any case.
 */

export type CertificatePdfInput = CertificateDrawingInput;

const color = (c: Rgb) => rgb(c.red, c.green, c.blue);

async function render(drawing: CertificateDrawing, input: CertificatePdfInput): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Certificate of completion: ${input.courseTitle}`);
  doc.setSubject(`${input.learnerName} completed ${input.courseTitle}`);
  doc.setAuthor(input.schoolName);
  doc.setCreator(input.schoolName);
  doc.setProducer(input.schoolName);
  doc.setKeywords([input.id]);
  doc.setCreationDate(input.issuedAt);
  doc.setModificationDate(input.issuedAt);

  const page = doc.addPage([drawing.width, drawing.height]);
  const glyphs = pdfGlyphs(doc);
  for (const mark of drawing.marks) {
    if (mark.kind === 'frame') {
      const { x, y, width, height } = mark;
      page.drawRectangle({ x, y, width, height, borderColor: color(mark.color), borderWidth: mark.lineWidth });
    } else if (mark.kind === 'rule') {
      page.drawLine({
        start: { x: mark.x1, y: mark.y },
        end: { x: mark.x2, y: mark.y },
        thickness: mark.lineWidth,
        color: color(mark.color),
      });
    } else {
      glyphs.draw(page, mark.line, { x: mark.x, y: mark.y, size: mark.size, color: color(mark.color) });
    }
  }
  await glyphs.finish();
  return doc.save({ useObjectStreams: false });
}

/**
 * The certificate's PDF: the same bytes for the same certificate (its dates are the issue date, never "now"), and
 * the characters no face could draw (left out; the caller logs them).
 */
export async function certificatePdf(input: CertificatePdfInput): Promise<{ bytes: Uint8Array; missing: string[] }> {
  const drawing = await drawCertificate(input);
  return { bytes: await render(drawing, input), missing: drawing.missing };
}
