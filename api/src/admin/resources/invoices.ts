import { Invoice } from '../../invoices/models';
import { derived, instant, labelled, money, text, yesNo } from '../../http/csv-columns';
import { defineResource } from '../resource';
import { person } from '../lists/export-lookups';

/** A party's field from its frozen snapshot (a jsonb column, an object as the driver reads it). */
const party = (side: 'buyer' | 'seller', field: string) => (row: Record<string, unknown>) =>
  ((row[side] as Record<string, unknown> | null)?.[field] as string | null | undefined) ?? null;

/** Basis points as the percentage people read: 1900 → 19. */
const percentOf = (bp: unknown) => (typeof bp === 'number' ? Number((bp / 100).toFixed(3)) : null);

/**
 * Invoices and credit notes as issued (api/src/invoices): read-only, since the table refuses any rewrite. Finance files
 * them; the export is the register of both, one row each, with the credited or corrected invoice's number.
 */
export const invoices = defineResource({
  name: 'invoices',
  model: Invoice,
  read: ['finance'],
  write: [],
  filterable: {
    id: 'id',
    kind: 'enum',
    number: 'text',
    year: 'number',
    issuedAt: 'date',
    merchantChargeId: 'id',
    purchaseId: 'id',
    payerUserId: 'id',
    invoiceId: 'id',
    correctsId: 'id',
    currency: 'text',
    taxCountry: 'text',
    taxReverseCharge: 'boolean',
    total: 'number',
  },
  sortable: ['issuedAt', 'number', 'total', 'kind'],
  searchable: ['number'],
  defaultSort: ['issuedAt', 'DESC'],
  export: {
    lookups: [
      person('payerUserId', 'payer'),
      { from: 'invoiceId', table: 'invoices', fields: { creditedNumber: 'number' } },
      { from: 'correctsId', table: 'invoices', fields: { correctedNumber: 'number' } },
      { from: 'merchantChargeId', table: 'merchantCharges', fields: { charge: 'identifier' } },
    ],
    columns: [
      text('Number', 'number'),
      labelled('Kind', 'kind', { invoice: 'Invoice', 'credit-note': 'Credit note' }),
      instant('Issued', 'issuedAt'),
      text('Credits invoice', 'creditedNumber'),
      text('Corrects invoice', 'correctedNumber'),
      derived('Buyer name', party('buyer', 'name')),
      derived('Buyer email', party('buyer', 'email')),
      derived('Buyer company', party('buyer', 'company')),
      derived('Buyer country', party('buyer', 'country')),
      derived('Buyer region', party('buyer', 'region')),
      derived('Buyer VAT ID', party('buyer', 'vatId')),
      text('Payer email', 'payerEmail'),
      money('Subtotal', 'subtotal'),
      money('Discounts', 'discount'),
      money('Taxable amount', 'taxable'),
      text('Tax name', 'taxName'),
      text('Tax country', 'taxCountry'),
      text('Tax region', 'taxRegion'),
      derived('Tax rate in percent', (r) => percentOf(r.taxRateBp)),
      yesNo('Tax included in prices', 'taxInclusive'),
      yesNo('Reverse charge', 'taxReverseCharge'),
      money('Tax', 'taxAmount'),
      money('Total', 'total'),
      derived('Currency', (r) => String(r.currency).toUpperCase()),
      text('Charge', 'charge'),
      text('Id', 'id'),
    ],
  },
});
