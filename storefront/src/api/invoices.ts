import type * as Invoices from '@contract/invoices/schemas';
import type { ListAnswer, Wire } from '@contract/shared/wire';
import { getJson, putJson } from './client';

/** An invoice or credit note as issued; amounts in the currency's minor unit. */
export type InvoiceDocument = Wire<Invoices.InvoiceDocument>;
export type InvoiceSummary = Wire<Invoices.InvoiceSummary>;
export type CorrectedInvoice = Wire<Invoices.CorrectedInvoice>;
export type InvoiceBuyerRequest = Invoices.InvoiceBuyerRequest;

/** GET /api/store/invoices/:id (an old receipt's link names the charge: it answers that charge's latest invoice). */
export function getInvoice(id: string): Promise<InvoiceDocument> {
  return getJson(`/api/store/invoices/${encodeURIComponent(id)}`);
}

/** The PDF's address: the browser opens it with the session cookie. */
export const invoicePdfUrl = (id: string) => `/api/store/invoices/${encodeURIComponent(id)}.pdf`;

export async function listInvoices(): Promise<InvoiceSummary[]> {
  return (await getJson<ListAnswer<InvoiceSummary>>('/api/store/invoices')).data;
}

/** A corrected invoice under a new number; the one corrected stays as it was. */
export function correctInvoiceBuyer(id: string, body: InvoiceBuyerRequest): Promise<CorrectedInvoice> {
  return putJson(`/api/store/invoices/${encodeURIComponent(id)}/buyer`, body);
}
