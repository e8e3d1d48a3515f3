import { z } from 'zod';
import { DISPLAY_NAME_LENGTH, NO_CONTROL_CHARACTERS } from '../shared/display-name';
import type { DocumentKind } from './numbering';
import type { BuyerSnapshot, SellerSnapshot } from './snapshots';

/** `/invoices/:id` and `/invoices/:id.pdf`: an invoice's or credit note's id, or (old links) its charge's. */
export const DocumentIdParam = z.object({ id: z.uuid('must be an invoice id') });

const oneLine = (max: number) =>
  z.string().trim().max(max, `at most ${max} characters`).regex(NO_CONTROL_CHARACTERS, 'must be one line');

/**
 * PUT /api/store/invoices/:id/buyer: the billing details the invoice should have named. The country stays the one the
 * tax followed; a VAT ID must fit it. '' clears a field.
 */
export const InvoiceBuyerBody = z.strictObject({
  name: oneLine(DISPLAY_NAME_LENGTH.max).min(1, 'must not be empty').optional(),
  company: oneLine(200).default(''),
  address: z
    .string()
    .trim()
    .max(500, 'at most 500 characters')
    // eslint-disable-next-line no-control-regex -- a line break is allowed, other control characters are not
    .regex(/^[^\u0000-\u0009\u000b-\u001f\u007f]*$/, 'must be plain text')
    .default(''),
  vatId: z.string().trim().max(30, 'at most 30 characters').default(''),
});
export type InvoiceBuyerInput = z.output<typeof InvoiceBuyerBody>;
export type InvoiceBuyerRequest = z.input<typeof InvoiceBuyerBody>;

/** An invoice's line (amounts signed: discounts and credit take off), in the currency's minor unit. */
export interface InvoiceLineView {
  kind: 'item' | 'discount' | 'credit' | 'refund';
  description: string;
  quantity: number;
  unitAmount: number;
  amount: number;
}

/** The tax an invoice carries; null when none applied (its notes say why where it matters). */
export interface InvoiceTax {
  name: string;
  country: string;
  region: string | null;
  /** Basis points (1900 = 19 %). */
  rate: number;
  amount: number;
  /** Inside the prices (true) or added to them (false). */
  inclusive: boolean;
  reverseCharge: boolean;
}

/** Another document of the same sale, as a link. */
export interface DocumentRef {
  id: string;
  kind: DocumentKind;
  number: string;
  issuedAt: Date;
  total: number;
}

/** GET /api/store/invoices/:id (and the console's): an invoice or credit note as issued; amounts in minor units. */
export interface InvoiceDocument {
  id: string;
  kind: DocumentKind;
  number: string;
  issuedAt: Date;
  /**
   * The date of supply: the charge's for an invoice (also one issued later for an earlier charge), the refund's for
   * a credit note. Printed when it is another day than the issue.
   */
  suppliedAt: Date;
  seller: SellerSnapshot;
  buyer: BuyerSnapshot;
  lines: InvoiceLineView[];
  /** Printed under the totals: a reverse charge's wording, why no tax applied. */
  notes: string[];
  tax: InvoiceTax | null;
  subtotal: number;
  /** Every reduction (percentage discount and upgrade credit), each named in `lines`. */
  discount: number;
  taxable: number;
  total: number;
  currency: string;
  reverseCharge: boolean;
  /** The invoice this one corrects (a corrected invoice), and the one that corrected this (superseded). */
  corrects: DocumentRef | null;
  correctedBy: DocumentRef | null;
  /** An invoice's credit notes, oldest first (across its versions: they credit the same sale). */
  creditNotes: DocumentRef[];
  /** What has been refunded of the sale so far. */
  refunded: number;
  /** A credit note's invoice. */
  invoice: DocumentRef | null;
}

/** GET /api/store/invoices (in `data`): the payer's invoices and credit notes, newest first. */
export interface InvoiceSummary extends DocumentRef {
  currency: string;
  /** What was bought (the first line's description). */
  description: string;
  corrected: boolean;
}

/** PUT /api/store/invoices/:id/buyer: the corrected invoice, and what the correction does not change. */
export interface CorrectedInvoice {
  invoice: InvoiceDocument;
  notice: string;
}
