import { PDFDocument, rgb, type PDFPage } from 'pdf-lib';
import { pdfGlyphs } from '../../certificates/typesetting/pdf-glyphs';
import { facesFor, type Typesetter } from '../../certificates/typesetting/shape';
import { formatMoney } from '../../shared/money';
import { dayOf, monthName, percentText } from './amounts';
import type { Statement } from './schemas';

/*
 * A month's statement as an A4 PDF, as many pages as its lines need. Product names come in any script (Hindi,
 * Arabic, Japanese titles), so it is typeset as certificates and invoices are: each character's Noto face, HarfBuzz
 * shaping, the glyphs written as shaped (certificates/typesetting). Amounts in each currency's own decimals.
 */

const WIDTH = 595.28;
const HEIGHT = 841.89;
const MARGIN = 40;
const INK = rgb(0.1, 0.1, 0.12);
const MUTED = rgb(0.38, 0.38, 0.42);
const SIZE = 8;
const ROW = 13;

/** The lines table's columns: left-aligned text from `x`, or numbers right-aligned at `right`. */
const COLUMNS = {
  date: { x: MARGIN },
  product: { x: MARGIN + 52, width: 165 },
  kind: { x: MARGIN + 222 },
  gross: { right: MARGIN + 320 },
  tax: { right: MARGIN + 365 },
  fee: { right: MARGIN + 410 },
  share: { right: MARGIN + 455 },
  amount: { right: WIDTH - MARGIN },
};

const ELLIPSIS = '…';
const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** The text cut (whole characters, as a reader sees them) to fit `width` points, with an ellipsis when cut. */
function fitted(type: Typesetter, text: string, width: number, size: number): string {
  if (type.line(text).width * size <= width) return text;
  const parts = [...graphemes.segment(text)].map((s) => s.segment);
  let low = 0;
  let high = parts.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (type.line(parts.slice(0, mid).join('').trimEnd() + ELLIPSIS).width * size <= width) low = mid;
    else high = mid - 1;
  }
  return parts.slice(0, low).join('').trimEnd() + ELLIPSIS;
}

/** Money taken off, with its minus sign; nothing is 0, not −0. */
const negative = (amount: number) => (amount ? -amount : 0);

const KIND_NAMES: Record<string, string> = {
  sale: 'Sale',
  refund: 'Refund',
  dispute: 'Dispute',
  'dispute-won': 'Dispute won',
};

function texts(statement: Statement) {
  const title = `Earnings statement, ${monthName(statement.month)}`;
  const payee = [statement.payee.name, statement.payee.email].filter((t): t is string => Boolean(t));
  const summary = statement.totals.map((t) => {
    const money = (amount: number) => formatMoney(amount, t.currency);
    return {
      currency: t.currency.toUpperCase(),
      rows: [
        ['Opening balance', money(t.opening)],
        ['Earned', money(t.earned)],
        ['Clawed back', money(negative(t.clawedBack))],
        ['Paid out', money(negative(t.paidOut))],
        ['Closing balance', money(t.closing)],
      ] as [string, string][],
    };
  });
  const lines = statement.lines.map((l) => {
    const money = (amount: number) => formatMoney(amount, l.currency);
    return {
      date: dayOf(l.createdAt),
      product: l.productName,
      kind: KIND_NAMES[l.kind] ?? l.kind,
      gross: money(l.gross),
      tax: money(l.tax),
      fee: money(l.fee),
      share: l.percent === null ? '' : `${percentText(l.percent)} %`,
      amount: money(l.amount),
    };
  });
  const payouts = statement.payouts.map((p) => ({
    date: p.paidAt ? dayOf(p.paidAt) : '',
    reference: p.reference ?? '',
    amount: formatMoney(p.amount, p.currency),
  }));
  return { title, payee, summary, lines, payouts };
}

const HEADINGS = ['Summary', 'Lines', 'Payouts paid this month', 'Date', 'Product', 'Kind', 'Gross', 'Tax', 'Fee'];
const HEADINGS_MORE = ['Share', 'Amount', 'Reference', 'No sales, refunds or disputes this month.', 'Page'];
const NO_PAYOUTS = 'No payout was paid this month.';

export async function statementPdf(statement: Statement): Promise<Uint8Array> {
  const parts = texts(statement);
  const plainTexts = [
    ...HEADINGS,
    ...HEADINGS_MORE,
    NO_PAYOUTS,
    ELLIPSIS,
    ...parts.payee,
    ...parts.summary.flatMap((s) => [s.currency, ...s.rows.flat()]),
    ...parts.lines.flatMap((l) => Object.values(l)),
    ...parts.payouts.flatMap((p) => Object.values(p)),
  ];
  const [plain, bold] = await Promise.all([
    facesFor(plainTexts, 'regular'),
    facesFor([parts.title, ...HEADINGS, ...HEADINGS_MORE], 'bold'),
  ]);

  const doc = await PDFDocument.create();
  doc.setTitle(parts.title);
  doc.setAuthor(parts.payee[0] ?? '');
  const glyphs = pdfGlyphs(doc);
  const pages: PDFPage[] = [];
  let page!: PDFPage;
  let y = 0;
  const newPage = () => {
    page = doc.addPage([WIDTH, HEIGHT]);
    pages.push(page);
    y = HEIGHT - MARGIN - 12;
  };
  /** Room for `height` points more on this page, else a new page. */
  const room = (height: number) => {
    if (y - height < MARGIN + 16) newPage();
  };

  const text = (type: Typesetter, value: string, x: number, size: number, color = INK) =>
    glyphs.draw(page, type.line(value), { x, y, size, color });
  const right = (type: Typesetter, value: string, x: number, size: number, color = INK) => {
    const line = type.line(value);
    glyphs.draw(page, line, { x: x - line.width * size, y, size, color });
  };
  const rule = () =>
    page.drawLine({
      start: { x: MARGIN, y: y + ROW - 4 },
      end: { x: WIDTH - MARGIN, y: y + ROW - 4 },
      thickness: 0.5,
      color: MUTED,
    });

  newPage();
  text(bold, parts.title, MARGIN, 18);
  y -= 22;
  for (const line of parts.payee) {
    text(plain, line, MARGIN, 10, MUTED);
    y -= 14;
  }

  y -= 12;
  text(bold, 'Summary', MARGIN, 12);
  y -= 18;
  for (const block of parts.summary) {
    room(ROW * 6);
    text(bold, block.currency, MARGIN, 9);
    y -= ROW;
    for (const [label, value] of block.rows) {
      text(label.endsWith('balance') ? bold : plain, label, MARGIN + 12, 9);
      right(label.endsWith('balance') ? bold : plain, value, MARGIN + 260, 9);
      y -= ROW;
    }
    y -= 4;
  }

  const lineHeadings = () => {
    text(plain, 'Date', COLUMNS.date.x, SIZE, MUTED);
    text(plain, 'Product', COLUMNS.product.x, SIZE, MUTED);
    text(plain, 'Kind', COLUMNS.kind.x, SIZE, MUTED);
    right(plain, 'Gross', COLUMNS.gross.right, SIZE, MUTED);
    right(plain, 'Tax', COLUMNS.tax.right, SIZE, MUTED);
    right(plain, 'Fee', COLUMNS.fee.right, SIZE, MUTED);
    right(plain, 'Share', COLUMNS.share.right, SIZE, MUTED);
    right(plain, 'Amount', COLUMNS.amount.right, SIZE, MUTED);
    y -= ROW;
    rule();
  };
  y -= 10;
  room(ROW * 4);
  text(bold, 'Lines', MARGIN, 12);
  y -= 18;
  if (parts.lines.length === 0) {
    text(plain, 'No sales, refunds or disputes this month.', MARGIN, 9);
    y -= ROW;
  } else lineHeadings();
  for (const line of parts.lines) {
    if (y - ROW < MARGIN + 16) {
      newPage();
      lineHeadings();
    }
    text(plain, line.date, COLUMNS.date.x, SIZE);
    text(plain, fitted(plain, line.product, COLUMNS.product.width, SIZE), COLUMNS.product.x, SIZE);
    text(plain, line.kind, COLUMNS.kind.x, SIZE);
    right(plain, line.gross, COLUMNS.gross.right, SIZE);
    right(plain, line.tax, COLUMNS.tax.right, SIZE);
    right(plain, line.fee, COLUMNS.fee.right, SIZE);
    right(plain, line.share, COLUMNS.share.right, SIZE);
    right(plain, line.amount, COLUMNS.amount.right, SIZE);
    y -= ROW;
  }

  y -= 10;
  room(ROW * 4);
  text(bold, 'Payouts paid this month', MARGIN, 12);
  y -= 18;
  if (parts.payouts.length === 0) {
    text(plain, NO_PAYOUTS, MARGIN, 9);
    y -= ROW;
  } else {
    text(plain, 'Date', MARGIN, SIZE, MUTED);
    text(plain, 'Reference', MARGIN + 80, SIZE, MUTED);
    right(plain, 'Amount', MARGIN + 360, SIZE, MUTED);
    y -= ROW;
    rule();
  }
  for (const payout of parts.payouts) {
    room(ROW);
    text(plain, payout.date, MARGIN, SIZE);
    text(plain, fitted(plain, payout.reference, 190, SIZE), MARGIN + 80, SIZE);
    right(plain, payout.amount, MARGIN + 360, SIZE);
    y -= ROW;
  }

  // Page numbers once the count is known.
  pages.forEach((p, i) =>
    glyphs.draw(p, plain.line(`Page ${i + 1} of ${pages.length}`), { x: MARGIN, y: MARGIN - 8, size: 7, color: MUTED }),
  );

  await glyphs.finish();
  return doc.save({ useObjectStreams: false });
}
