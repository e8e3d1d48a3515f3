import type { Knex } from 'knex';
import type { Db } from '../db/connection';
import { AppError } from '../shared/errors';
import { normalizeVatId, vatIdProblem } from '../tax/vat-ids';
import { issueCorrection, latestInvoiceOf } from './issue';
import type { Invoice } from './models';
import type {
  CorrectedInvoice,
  DocumentRef,
  InvoiceBuyerInput,
  InvoiceDocument,
  InvoiceLineView,
  InvoiceSummary,
} from './schemas';
import type { BuyerSnapshot, InvoiceLine } from './snapshots';

/**
 * Invoices and credit notes as their payer reads them (and staff in the console): issued once, shown as issued. The
 * payer is who paid, for ever: a transfer or a seat gives the purchase, never its invoice.
 */

type Row = Omit<Invoice, 'lines' | 'buyer' | 'seller'> & {
  lines: InvoiceLine[];
  buyer: InvoiceDocument['buyer'];
  seller: InvoiceDocument['seller'];
};

const refOf = (row: Pick<Row, 'id' | 'kind' | 'number' | 'issuedAt' | 'total'>): DocumentRef => ({
  id: row.id,
  kind: row.kind,
  number: row.number,
  issuedAt: row.issuedAt,
  total: row.total,
});

const REF_COLUMNS = ['id', 'kind', 'number', 'issuedAt', 'total'] as const;

/** pdf-lib and the typefaces load with the first PDF asked for, not with the server. */
const renderInvoicePdf = (document: InvoiceDocument) => import('./pdf').then(({ invoicePdf }) => invoicePdf(document));

export const CORRECTION_NOTICE =
  'The tax charged does not change: a VAT ID added after paying does not refund VAT. Contact support if it should.';

/** An issued document with its neighbours: what it corrects or was corrected by, its credit notes or its invoice. */
export async function presentDocument(conn: Knex, row: Row): Promise<InvoiceDocument> {
  const [corrects, correctedBy, creditNotes, invoice] = await Promise.all([
    row.correctsId
      ? conn('invoices')
          .where({ id: row.correctsId })
          .first(...REF_COLUMNS)
      : null,
    conn('invoices')
      .where({ correctsId: row.id })
      .first(...REF_COLUMNS),
    conn('invoices')
      .where({ merchantChargeId: row.merchantChargeId, kind: 'credit-note' })
      .orderBy('refundedTo')
      .select(...REF_COLUMNS, 'refundedTo'),
    row.invoiceId
      ? conn('invoices')
          .where({ id: row.invoiceId })
          .first(...REF_COLUMNS)
      : null,
  ]);
  const money = row.lines.filter((l): l is Extract<InvoiceLine, { amount: number }> => l.kind !== 'note');
  return {
    id: row.id,
    kind: row.kind,
    number: row.number,
    issuedAt: row.issuedAt,
    suppliedAt: row.suppliedAt,
    seller: row.seller,
    buyer: row.buyer,
    lines: money as InvoiceLineView[],
    notes: row.lines.filter((l) => l.kind === 'note').map((l) => l.description),
    tax:
      row.taxCountry === null
        ? null
        : {
            name: row.taxName!,
            country: row.taxCountry,
            region: row.taxRegion,
            rate: row.taxRateBp!,
            amount: row.taxAmount,
            inclusive: row.taxInclusive!,
            reverseCharge: row.taxReverseCharge,
          },
    subtotal: row.subtotal,
    discount: row.discount,
    taxable: row.taxable,
    total: row.total,
    currency: row.currency,
    reverseCharge: row.taxReverseCharge,
    corrects: corrects ? refOf(corrects) : null,
    correctedBy: correctedBy ? refOf(correctedBy) : null,
    creditNotes: row.kind === 'invoice' ? creditNotes.map(refOf) : [],
    refunded: Math.max(0, ...creditNotes.map((c: { refundedTo: number }) => c.refundedTo)),
    invoice: invoice ? refOf(invoice) : null,
  };
}

/** A document by its id, or an old link's charge id (its latest invoice); undefined when there is neither. */
export async function findDocument(conn: Knex, id: string, payerUserId: string | null): Promise<Row | undefined> {
  const mine = (q: Knex.QueryBuilder) => (payerUserId ? q.where('payerUserId', payerUserId) : q);
  const own = (await mine(conn('invoices').where({ id })).first()) as Row | undefined;
  if (own) return own;
  const latest = (await latestInvoiceOf(conn, id)) as Row | undefined;
  return latest && (!payerUserId || latest.payerUserId === payerUserId) ? latest : undefined;
}

/**
 * The buyer as the corrected invoice names them. The VAT ID must fit the billing country the tax followed; a
 * reverse-charged sale's invoice must keep one, since the reverse charge stands on it.
 */
function correctedBuyer(current: BuyerSnapshot, input: InvoiceBuyerInput, reverseCharged: boolean): BuyerSnapshot {
  const vatId = input.vatId ? normalizeVatId(input.vatId) : '';
  if (reverseCharged && !vatId) {
    throw new AppError('vat-id-invalid', 'This invoice was reverse-charged: it must name the buyer’s VAT ID.', {
      vatId: "a reverse-charged invoice names the buyer's VAT ID",
    });
  }
  if (vatId) {
    const problem = current.country ? vatIdProblem(vatId, current.country) : 'vat-id-format';
    if (problem) {
      const why =
        problem === 'vat-id-format'
          ? 'must be a VAT number, such as FR12345678901'
          : `must be a VAT number of the billing country (${current.country})`;
      throw new AppError('vat-id-invalid', 'This VAT ID does not fit the billing country.', { vatId: why });
    }
  }
  return {
    ...current,
    name: input.name ?? current.name,
    company: input.company,
    address: input.address,
    vatId,
  };
}

export function invoiceDocuments({ db }: { db: Db }) {
  async function mine(userId: string, id: string): Promise<Row> {
    const row = await findDocument(db, id, userId);
    if (!row) throw new AppError('not-found', 'No such invoice.');
    return row;
  }

  return {
    async list(userId: string): Promise<InvoiceSummary[]> {
      const rows = await db('invoices as i')
        .where('i.payerUserId', userId)
        .orderBy([
          { column: 'i.issuedAt', order: 'desc' },
          { column: 'i.sequence', order: 'desc' },
        ])
        .select(
          ...REF_COLUMNS.map((c) => `i.${c}`),
          'i.currency',
          'i.lines',
          db.raw('exists (select 1 from invoices c where c.corrects_id = i.id) as corrected'),
        );
      return rows.map((r: Row & { corrected: boolean }) => ({
        ...refOf(r),
        currency: r.currency,
        description: r.lines[0]?.description ?? '',
        corrected: r.corrected,
      }));
    },

    async get(userId: string, id: string): Promise<InvoiceDocument> {
      return presentDocument(db, await mine(userId, id));
    },

    async pdf(userId: string, id: string): Promise<{ filename: string; bytes: Uint8Array }> {
      const document = await presentDocument(db, await mine(userId, id));
      return { filename: `${document.number}.pdf`, bytes: await renderInvoicePdf(document) };
    },

    /** Any invoice's or credit note's PDF, for the console. */
    async staffPdf(id: string): Promise<{ filename: string; bytes: Uint8Array }> {
      const row = await findDocument(db, id, null);
      if (!row) throw new AppError('not-found', 'No such invoice.');
      const document = await presentDocument(db, row);
      return { filename: `${document.number}.pdf`, bytes: await renderInvoicePdf(document) };
    },

    /**
     * A corrected invoice with the buyer's details as they should have been: only of the latest version (a
     * superseded one answers 409), under a new number; the original stays. The tax charged stays as it was. The
     * billing profile takes the details for the next checkout.
     */
    async correctBuyer(userId: string, id: string, input: InvoiceBuyerInput): Promise<CorrectedInvoice> {
      const row = await mine(userId, id);
      if (row.kind !== 'invoice') {
        throw new AppError('invoice-not-latest', 'A credit note is not corrected: correct its invoice.');
      }
      const buyer = correctedBuyer(row.buyer, input, row.taxReverseCharge);
      const issued = await db.transaction(async (trx) => {
        // Corrections of one sale queue here: only one of two at once corrects the latest version.
        await trx('merchantCharges').where({ id: row.merchantChargeId }).forUpdate().first('id');
        const latest = (await latestInvoiceOf(trx, row.merchantChargeId)) as Row;
        if (latest.id !== row.id) {
          throw new AppError('invoice-not-latest', `This invoice was corrected by ${latest.number}: correct that one.`);
        }
        const corrected = await issueCorrection(trx, latest as unknown as Row & { id: string }, buyer);
        const profile = {
          company: buyer.company,
          address: buyer.address,
          vatId: buyer.vatId,
          country: buyer.country,
          region: buyer.region,
        };
        await trx('billingProfiles')
          .insert({ userId, ...profile })
          .onConflict('userId')
          .merge(['company', 'address', 'vatId']);
        return corrected;
      });
      return {
        invoice: await presentDocument(db, (await findDocument(db, issued.id, userId))!),
        notice: CORRECTION_NOTICE,
      };
    },
  };
}

export type InvoiceDocuments = ReturnType<typeof invoiceDocuments>;
