import { PDFDocument, rgb, type PDFPage } from 'pdf-lib';
import { facesFor, type Typesetter } from '../certificates/typesetting/shape';
import { pdfGlyphs } from '../certificates/typesetting/pdf-glyphs';
import { formatMoney } from '../shared/money';
import { ratePercent } from '../shared/tax-text';
import type { InvoiceDocument } from './schemas';
import { countryName } from './snapshots';

/*
 * An invoice or credit note as an A4 PDF. Its text comes in any script (a buyer's name in Devanagari, an address in
 * Arabic, a company in Japanese), so it is typeset as certificates are: each character's Noto face, HarfBuzz shaping,
 * the glyphs written as shaped (certificates/typesetting). The same document gives the same bytes.
 */

const WIDTH = 595.28;
const HEIGHT = 841.89;
const MARGIN = 56;
const INK = rgb(0.1, 0.1, 0.12);
const MUTED = rgb(0.38, 0.38, 0.42);

const dateOf = (d: Date) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(d);

/** The texts of a document, in the order they are printed (the faces are loaded for all of them at once). */
function partyLines(party: {
  name: string;
  email?: string | null;
  company?: string;
  address: string;
  country: string | null;
}): string[] {
  const address = party.address.split('\n').filter((line) => line.trim());
  const country = party.country ? countryName(party.country) : null;
  // A postal address often ends with its country already: it is not printed twice.
  const named = country !== null && address.at(-1)?.trim().toLowerCase() === country.toLowerCase();
  // A buyer who gave no name is named by their email address.
  const name = party.name || party.email || '';
  return [
    ...(party.company ? [party.company] : []),
    ...(name ? [name] : []),
    ...address,
    ...(country && !named ? [country] : []),
  ];
}

export function taxLabel(document: InvoiceDocument): string | null {
  const { tax } = document;
  if (!tax) return null;
  if (tax.reverseCharge) return `${tax.name} (reverse charge, 0 %)`;
  const place = tax.region ? `${tax.country}-${tax.region}` : tax.country;
  return `${tax.name} ${ratePercent(tax.rate)} (${place}, ${tax.inclusive ? 'included' : 'added'})`;
}

interface Row {
  label: string;
  value: string;
  bold?: boolean;
}

function layout(document: InvoiceDocument) {
  const money = (amount: number) => formatMoney(amount, document.currency);
  const credit = document.kind === 'credit-note';
  const title = credit ? `Credit note ${document.number}` : `Invoice ${document.number}`;
  const facts: Row[] = [
    { label: 'Date', value: dateOf(document.issuedAt) },
    // An invoice issued on another day than the sale says when the sale was (a credit note, the refund).
    ...(dateOf(document.suppliedAt) !== dateOf(document.issuedAt)
      ? [{ label: 'Date of supply', value: dateOf(document.suppliedAt) }]
      : []),
    ...(document.invoice ? [{ label: 'Credits invoice', value: document.invoice.number }] : []),
    ...(document.corrects ? [{ label: 'Corrects invoice', value: document.corrects.number }] : []),
    ...(document.correctedBy ? [{ label: 'Corrected by', value: document.correctedBy.number }] : []),
  ];
  const seller = [
    ...partyLines({ ...document.seller, company: '' }),
    ...(document.seller.taxId ? [`VAT ID ${document.seller.taxId}`] : []),
    ...(document.seller.email ? [document.seller.email] : []),
  ];
  const buyer = [
    ...partyLines(document.buyer),
    ...(document.buyer.vatId ? [`VAT ID ${document.buyer.vatId}`] : []),
    document.buyer.email,
  ];
  const lines = document.lines.map((l) => ({
    description: l.description,
    quantity: String(l.quantity),
    amount: money(l.amount),
  }));
  const tax = taxLabel(document);
  const totals: Row[] = [
    { label: 'Subtotal', value: money(document.subtotal) },
    ...(document.discount ? [{ label: 'Discounts', value: money(-document.discount) }] : []),
    { label: 'Taxable amount', value: money(document.taxable) },
    ...(tax && document.tax ? [{ label: tax, value: money(document.tax.amount) }] : []),
    { label: credit ? 'Total credited' : 'Total', value: money(document.total), bold: true },
    ...(document.refunded && !credit ? [{ label: 'Refunded so far', value: money(document.refunded) }] : []),
  ];
  return { title, facts, seller, buyer, lines, totals, notes: document.notes };
}

export async function invoicePdf(document: InvoiceDocument): Promise<Uint8Array> {
  const parts = layout(document);
  const plainTexts = [
    ...parts.facts.flatMap((f) => [f.label, f.value]),
    ...parts.seller,
    ...parts.buyer,
    ...parts.lines.flatMap((l) => [l.description, l.quantity, l.amount]),
    ...parts.totals.flatMap((t) => [t.label, t.value]),
    ...parts.notes,
    'From',
    'Billed to',
    'Description',
    'Qty',
    'Amount',
  ];
  const [plain, bold] = await Promise.all([facesFor(plainTexts, 'regular'), facesFor([parts.title], 'bold')]);

  const doc = await PDFDocument.create();
  doc.setTitle(parts.title);
  doc.setAuthor(document.seller.name);
  doc.setCreator(document.seller.name);
  doc.setProducer(document.seller.name);
  doc.setKeywords([document.number]);
  doc.setCreationDate(document.issuedAt);
  doc.setModificationDate(document.issuedAt);
  const page = doc.addPage([WIDTH, HEIGHT]);
  const glyphs = pdfGlyphs(doc);

  const text = (type: Typesetter, value: string, x: number, y: number, size: number, color = INK) =>
    glyphs.draw(page, type.line(value), { x, y, size, color });
  const right = (type: Typesetter, value: string, x: number, y: number, size: number, color = INK) => {
    const line = type.line(value);
    glyphs.draw(page, line, { x: x - line.width * size, y, size, color });
  };
  const rule = (p: PDFPage, y: number) =>
    p.drawLine({ start: { x: MARGIN, y }, end: { x: WIDTH - MARGIN, y }, thickness: 0.5, color: MUTED });

  let y = HEIGHT - MARGIN - 20;
  text(bold, parts.title, MARGIN, y, 20);
  y -= 28;
  for (const fact of parts.facts) {
    text(plain, `${fact.label}: ${fact.value}`, MARGIN, y, 10, MUTED);
    y -= 14;
  }
  y -= 14;
  const top = y;
  text(plain, 'From', MARGIN, y, 9, MUTED);
  parts.seller.forEach((line, i) => text(plain, line, MARGIN, y - 14 - i * 13, 10));
  text(plain, 'Billed to', WIDTH / 2, top, 9, MUTED);
  parts.buyer.forEach((line, i) => text(plain, line, WIDTH / 2, top - 14 - i * 13, 10));
  y = top - 14 - Math.max(parts.seller.length, parts.buyer.length) * 13 - 20;

  const qtyX = WIDTH - MARGIN - 120;
  text(plain, 'Description', MARGIN, y, 9, MUTED);
  right(plain, 'Qty', qtyX, y, 9, MUTED);
  right(plain, 'Amount', WIDTH - MARGIN, y, 9, MUTED);
  y -= 6;
  rule(page, y);
  y -= 16;
  for (const line of parts.lines) {
    text(plain, line.description, MARGIN, y, 10);
    right(plain, line.quantity, qtyX, y, 10);
    right(plain, line.amount, WIDTH - MARGIN, y, 10);
    y -= 16;
  }
  rule(page, y + 8);
  y -= 8;
  for (const total of parts.totals) {
    right(total.bold ? bold : plain, total.label, qtyX, y, total.bold ? 11 : 10);
    right(total.bold ? bold : plain, total.value, WIDTH - MARGIN, y, total.bold ? 11 : 10);
    y -= 16;
  }
  y -= 12;
  for (const note of parts.notes) {
    text(plain, note, MARGIN, y, 10); // a reverse charge's wording is part of the invoice, not a footnote
    y -= 14;
  }

  await glyphs.finish();
  return doc.save({ useObjectStreams: false });
}
