import { table } from '../db/base-model';
import type { DocumentKind } from './numbering';

/**
 * An invoice or a credit note as issued: numbered once, never rewritten (the table refuses it). A correction is a new
 * invoice that `correctsId` the old; a refund is a credit note on `invoiceId`.
 */
export class Invoice extends table('invoices', { jsonAttributes: ['seller', 'buyer', 'lines'] }) {
  declare id: string;
  declare kind: DocumentKind;
  declare number: string;
  declare year: number;
  declare sequence: number;
  declare issuedAt: Date;
  /** The date of supply: the sale's payment (a credit note's: its refund); the tax report's period follows it. */
  declare suppliedAt: Date;
  declare taxScheme: 'domestic' | 'eu-oss' | 'reverse-charge' | 'registration' | 'not-taxed';
  declare merchantChargeId: string;
  declare purchaseId: string | null;
  declare payerUserId: string;
  declare correctsId: string | null;
  declare invoiceId: string | null;
  declare refundedTo: number | null;
  declare seller: Record<string, unknown>;
  declare buyer: Record<string, unknown>;
  declare lines: Record<string, unknown>[];
  declare subtotal: number;
  declare discount: number;
  declare taxable: number;
  declare taxCountry: string | null;
  declare taxRegion: string | null;
  declare taxRateBp: number | null;
  declare taxName: string | null;
  declare taxInclusive: boolean | null;
  declare taxReverseCharge: boolean;
  declare taxAmount: number;
  declare total: number;
  declare currency: string;
}

/** The last number issued of a kind in a year. */
export class InvoiceCounter extends table('invoiceCounters', { idColumn: ['kind', 'year'] }) {
  declare kind: DocumentKind;
  declare year: number;
  declare last: number;
}

/** A buyer's billing details, remembered for their next checkout and for correcting an invoice. */
export class BillingProfile extends table('billingProfiles', { idColumn: 'userId' }) {
  declare userId: string;
  declare company: string;
  declare address: string;
  declare country: string | null;
  declare region: string | null;
  declare vatId: string;
  declare createdAt: Date;
  declare updatedAt: Date;
}
