import request from 'supertest';
import { expect } from 'vitest';
import type { Db } from '../../api/src/db/connection';
import { currencyExponent } from '../../api/src/shared/currency';
import { taxRefunded, taxShare } from '../../api/src/tax/amounts';
import type { testApp } from './app';
import { as, type SignedIn } from './auth';
import { csvRows } from './csv';

/**
 * Tax and the documents filed for it (docs/domain.md §18), read from the database alone, for any test that sells, refunds
 * or disputes: what each charge carried, what its invoice and credit notes say, what the ledger counts as revenue, and
 * numbers without gaps. The model-based test (tests/reliability) checks them after every step.
 */

interface ChargeRow {
  id: string;
  userId: string;
  amount: number;
  fee: number;
  currency: string;
  refundAmount: number;
  refundedTax: number;
  taxCountry: string | null;
  taxRegion: string | null;
  taxRateBp: number | null;
  taxInclusive: boolean | null;
  taxReverseCharge: boolean;
  taxAmount: number;
  /** The merchant account's label: 'test' (the built-in engine's tax) or 'stripe' (Stripe Tax's). */
  account: string;
  /** The amount_total of the checkout it paid (by its metadata, else the purchase it wrote); null: none. */
  checkoutTotal: number | null;
}

interface Party {
  country: string | null;
  vatId?: string;
}

interface DocumentLine {
  kind: 'item' | 'discount' | 'credit' | 'refund' | 'note';
  amount?: number;
}

interface DocumentRow {
  id: string;
  kind: 'invoice' | 'credit-note';
  number: string;
  year: number;
  sequence: number;
  merchantChargeId: string;
  payerUserId: string;
  correctsId: string | null;
  invoiceId: string | null;
  refundedTo: number | null;
  seller: Party;
  buyer: Party;
  lines: DocumentLine[];
  subtotal: number;
  discount: number;
  taxable: number;
  taxCountry: string | null;
  taxRegion: string | null;
  taxRateBp: number | null;
  taxInclusive: boolean | null;
  taxReverseCharge: boolean;
  taxAmount: number;
  total: number;
  currency: string;
}

/** Tax by currency, in its minor unit: collected on charges (net of refunds) and reported on invoices less credit notes. */
export interface TaxTotals {
  collected: Record<string, number>;
  reported: Record<string, number>;
  /** Invoices and credit notes issued: what a tax report reads (they never change once issued). */
  documents: number;
}

const TAX_FIELDS = ['taxCountry', 'taxRegion', 'taxRateBp', 'taxInclusive', 'taxReverseCharge'] as const;
const PREFIX = { invoice: '', 'credit-note': 'CN-' } as const;

const add = (sums: Record<string, number>, currency: string, amount: number) =>
  (sums[currency] = (sums[currency] ?? 0) + amount);

/** round(n / d) half up, in BigInt: the tax recomputed apart from api/src/tax/amounts.ts, whatever its size. */
const halfUp = (n: bigint, d: bigint) => (2n * n + d) / (2n * d);

/**
 * The tax of a charge recomputed from its rate (basis points to a tenth, so in hundred-thousandths here): inside the
 * amount, round(amount × r ÷ (1 + r)); on top of the price, round(taxable × r), the taxable amount being the rest.
 */
function taxFromRate(charge: Pick<ChargeRow, 'amount' | 'taxAmount' | 'taxRateBp' | 'taxInclusive'>): number {
  const tenths = Math.round(charge.taxRateBp! * 10);
  expect(tenths, `rate ${charge.taxRateBp} bp to a tenth`).toBe(charge.taxRateBp! * 10);
  const r = BigInt(tenths);
  const tax = charge.taxInclusive
    ? halfUp(BigInt(charge.amount) * r, 100_000n + r)
    : halfUp(BigInt(charge.amount - charge.taxAmount) * r, 100_000n);
  return Number(tax);
}

/** A VAT ID's country prefix as VIES writes it: Greece's is EL. */
const vatPrefixOf = (country: string) => (country === 'GR' ? 'EL' : country);

const sumOf = (lines: DocumentLine[], kinds: DocumentLine['kind'][]) =>
  lines.filter((l) => kinds.includes(l.kind)).reduce((sum, l) => sum + l.amount!, 0);

/**
 * What an invoice or credit note prints adds up: the items (a credit note's refund) are its subtotal, the discount
 * and credit lines take its discount off, and what is left is the price after discounts: the total, or the taxable
 * amount when the tax was added on top. A reverse-charged one names the buyer's VAT ID, of the buyer's country,
 * where the tax was due, another country than the seller's.
 */
function expectDocumentAddsUp(document: DocumentRow, about: string): void {
  const lines = document.lines;
  expect(sumOf(lines, ['item', 'refund']), `${about}: its items are its subtotal`).toBe(document.subtotal);
  expect(sumOf(lines, ['discount', 'credit']) + document.discount, `${about}: its discount and credit lines`).toBe(0);
  // An invoice's lines are the price, tax on top of them or inside; a credit note's refund is what was paid back.
  const onTop = document.kind === 'invoice' && document.taxInclusive === false;
  const afterDiscounts = onTop ? document.taxable : document.total;
  expect(document.subtotal - document.discount, `${about}: subtotal − discount`).toBe(afterDiscounts);
  if (document.taxReverseCharge) {
    const country = document.buyer.country;
    expect(country, `${about}: reverse-charged where the buyer is`).toBe(document.taxCountry);
    expect(country, `${about}: reverse-charged across a border`).not.toBe(document.seller.country);
    expect(document.buyer.vatId ?? '', `${about}: the buyer's VAT ID, of ${country}`).toMatch(
      new RegExp(`^${vatPrefixOf(country ?? '')}[0-9A-Z+*]{2,12}$`),
    );
  }
}

/**
 * Every charge, its invoice and its credit notes agree: a charge is its taxable amount plus its tax; it has exactly
 * one current invoice (the latest correction), whose payer is the charge's and whose amounts and tax are the charge's;
 * its credit notes, one per growth of the refunded total, add up to what was refunded and give back the tax in
 * proportion (refunded_tax); the split lines are revenue net of tax; invoice and credit-note numbers run 1..n per kind
 * and year. Apart from the code's own arithmetic: the built-in engine's tax is recomputed from each charge's rate; a
 * charge is its checkout's amount_total; an invoice's lines add up to its sums; a reverse charge names a VAT ID of
 * the buyer's country. `payers` (charge id → user id), when the caller knows who paid, must be the charges' and
 * invoices' payers; `quotedTotals` (charge id → the total its quote said) must be what their checkouts charged.
 */
export async function expectTaxInvariants(
  db: Db,
  known: { payers?: Map<string, string>; quotedTotals?: Map<string, number> } = {},
): Promise<TaxTotals> {
  const { payers, quotedTotals } = known;
  const charges: ChargeRow[] = await db('merchantCharges as c')
    .join('merchantAccounts as a', 'a.id', 'c.merchantAccountId')
    .select(
      'c.id',
      'c.userId',
      'c.amount',
      'c.fee',
      'c.currency',
      'c.refundAmount',
      'c.refundedTax',
      ...TAX_FIELDS.map((f) => `c.${f}`),
      'c.taxAmount',
      'a.label as account',
      db.raw(
        `coalesce(
           (SELECT k.amount_total FROM checkouts k
             WHERE k.id = CASE WHEN c.metadata->>'checkoutId' ~* '^[0-9a-f-]{36}$'
                               THEN (c.metadata->>'checkoutId')::uuid END),
           (SELECT k.amount_total FROM checkouts k JOIN purchases p ON p.id = k.purchase_id
             WHERE p.merchant_charge_id = c.id LIMIT 1)) AS checkout_total`,
      ),
    );
  const documents: DocumentRow[] = await db('invoices').select(
    'id',
    'kind',
    'number',
    'year',
    'sequence',
    'merchantChargeId',
    'payerUserId',
    'correctsId',
    'invoiceId',
    'refundedTo',
    'seller',
    'buyer',
    'lines',
    'subtotal',
    'discount',
    'taxable',
    ...TAX_FIELDS,
    'taxAmount',
    'total',
    'currency',
  );
  const lines = (await db('splitLines')
    .groupBy('merchantChargeId')
    .select('merchantChargeId')
    .sum({ sum: 'amount' })) as { merchantChargeId: string; sum: string }[];
  const linesOf = new Map(lines.map((l) => [l.merchantChargeId, Number(l.sum)]));
  const disputes: { merchantChargeId: string; amount: number }[] = await db('merchantDisputes')
    .whereIn('status', ['open', 'lost'])
    .select('merchantChargeId', 'amount');

  const byId = new Map(documents.map((d) => [d.id, d]));
  const corrected = new Set(documents.map((d) => d.correctsId).filter(Boolean));
  const totals: TaxTotals = { collected: {}, reported: {}, documents: documents.length };

  for (const charge of charges) {
    const what = `charge ${charge.id} (${charge.amount} ${charge.currency}, tax ${charge.taxAmount})`;
    if (payers?.has(charge.id)) expect(charge.userId, `payer of ${what}`).toBe(payers.get(charge.id));
    expect(charge.taxAmount, `${what}: tax within the amount`).toBeLessThanOrEqual(charge.amount);
    if (charge.taxCountry === null) expect(charge.taxAmount, `${what}: no tax place, no tax`).toBe(0);
    // The built-in engine's tax, recomputed from the rate (Stripe Tax's is Stripe's: recorded as it said).
    else if (charge.account === 'test')
      expect(charge.taxAmount, `${what}: tax at ${charge.taxRateBp} bp`).toBe(taxFromRate(charge));
    // What is charged is what the checkout said, which is what its quote said.
    if (charge.checkoutTotal !== null)
      expect(charge.amount, `${what}: its checkout's amount_total`).toBe(charge.checkoutTotal);
    if (quotedTotals?.has(charge.id))
      expect(charge.checkoutTotal, `${what}: the quote's total`).toBe(quotedTotals.get(charge.id));
    expect(charge.refundedTax, `${what}: tax refunded for ${charge.refundAmount} refunded`).toBe(
      taxRefunded(charge.refundAmount, charge.amount, charge.taxAmount),
    );
    add(totals.collected, charge.currency, charge.taxAmount - charge.refundedTax);

    // The ledger: revenue is never tax. Sale net of tax and fee, refunds net of their tax, disputes net of their share.
    const disputed = disputes
      .filter((d) => d.merchantChargeId === charge.id)
      .reduce((sum, d) => sum + d.amount - taxShare(d.amount, charge.amount, charge.taxAmount), 0);
    const revenue =
      charge.amount - charge.taxAmount - charge.fee - (charge.refundAmount - charge.refundedTax) - disputed;
    expect(linesOf.get(charge.id) ?? 0, `split lines of ${what}: revenue net of tax`).toBe(revenue);

    // Exactly one current invoice: the charge's amount as taxable + tax, its tax, its payer.
    const invoices = documents.filter((d) => d.kind === 'invoice' && d.merchantChargeId === charge.id);
    const current = invoices.filter((d) => !corrected.has(d.id));
    expect(
      current.map((d) => d.number),
      `${what}: one current invoice among ${invoices.map((d) => d.number).join(', ') || 'none'}`,
    ).toHaveLength(1);
    for (const invoice of invoices) {
      const about = `invoice ${invoice.number} of ${what}`;
      expect(invoice.payerUserId, `${about}: its payer`).toBe(charge.userId);
      expect(invoice.currency, about).toBe(charge.currency);
      expect({ total: invoice.total, taxable: invoice.taxable, tax: invoice.taxAmount }, about).toEqual({
        total: charge.amount,
        taxable: charge.amount - charge.taxAmount,
        tax: charge.taxAmount,
      });
      for (const field of TAX_FIELDS) expect(invoice[field], `${about}: ${field}`).toBe(charge[field]);
      expectDocumentAddsUp(invoice, about);
      if (invoice.correctsId) {
        expect(byId.get(invoice.correctsId)?.merchantChargeId, `${about} corrects one of its charge`).toBe(charge.id);
      }
    }
    add(totals.reported, charge.currency, current[0]!.taxAmount);

    // Credit notes: one per growth of the refunded total, each the increment and its tax, on an invoice of the charge.
    const notes = documents
      .filter((d) => d.kind === 'credit-note' && d.merchantChargeId === charge.id)
      .sort((a, b) => a.refundedTo! - b.refundedTo!);
    let before = 0;
    for (const note of notes) {
      const about = `credit note ${note.number} of ${what}, refunded to ${note.refundedTo}`;
      const credited = byId.get(note.invoiceId!);
      expect(credited?.kind, `${about}: credits an invoice`).toBe('invoice');
      expect(credited?.merchantChargeId, `${about}: credits its charge's invoice`).toBe(charge.id);
      expect(note.payerUserId, `${about}: its payer`).toBe(charge.userId);
      const tax =
        taxRefunded(note.refundedTo!, charge.amount, charge.taxAmount) -
        taxRefunded(before, charge.amount, charge.taxAmount);
      expect({ total: note.total, tax: note.taxAmount }, about).toEqual({ total: note.refundedTo! - before, tax });
      for (const field of TAX_FIELDS) expect(note[field], `${about}: ${field}`).toBe(charge[field]);
      expectDocumentAddsUp(note, about);
      before = note.refundedTo!;
      add(totals.reported, charge.currency, -note.taxAmount);
    }
    expect(before, `${what}: credit notes up to the refunded total`).toBe(charge.refundAmount);
  }
  for (const document of documents)
    expect(
      charges.some((c) => c.id === document.merchantChargeId),
      `${document.number} is of a charge`,
    ).toBe(true);

  expectGapFree(documents);
  expect(totals.reported, 'tax reported (invoices − credit notes) = tax collected (charges − refunds)').toEqual(
    totals.collected,
  );
  return totals;
}

/** Numbers 1..n per kind and year, each written as its kind, year and sequence say (`2026-000042`, `CN-2026-000007`). */
export function expectGapFree(documents: Pick<DocumentRow, 'kind' | 'year' | 'sequence' | 'number'>[]): void {
  const runs = new Map<string, number[]>();
  for (const d of documents) {
    expect(d.number).toBe(`${PREFIX[d.kind]}${d.year}-${String(d.sequence).padStart(6, '0')}`);
    const key = `${d.kind} ${d.year}`;
    runs.set(key, [...(runs.get(key) ?? []), d.sequence]);
  }
  for (const [key, sequences] of runs) {
    const sorted = [...sequences].sort((a, b) => a - b);
    expect(sorted, `${key}: numbers 1..${sorted.length} without gaps`).toEqual(
      Array.from({ length: sorted.length }, (_, i) => i + 1),
    );
  }
}

/** A decimal of a currency as the finance CSVs write it ("-12.50", yen "500") back in its minor unit, digit by digit. */
export function minorUnits(text: string, currency: string): number {
  const exponent = currencyExponent(currency);
  const [whole, fraction = ''] = text.replace(/^-/, '').split('.');
  expect(fraction.length, `${text} in ${currency}`).toBe(exponent === 0 ? 0 : exponent);
  const units = Number(`${whole}${fraction}`);
  return text.startsWith('-') ? -units : units;
}

/**
 * The tax report for filing (GET /api/admin/finance/tax-report.csv) of the days around today, read back: each row's
 * net tax due is its tax less its refunded tax, and the net tax due per currency, in minor units, is returned.
 */
export async function reportedTaxDue(app: ReturnType<typeof testApp>, who: SignedIn): Promise<Record<string, number>> {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const answer = await as(who, request(app).get('/api/admin/finance/tax-report.csv'))
    .query({ from: day(-1), to: day(2) })
    .buffer(true)
    .parse((res, done) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      res.on('end', () => done(null, text));
    });
  expect(answer.status, String(answer.body)).toBe(200);
  const due: Record<string, number> = {};
  for (const row of csvRows(answer.body as string)) {
    const currency = row.Currency!.toLowerCase();
    const [tax, refunded, net] = [row.Tax!, row['Refunded tax']!, row['Net tax due']!].map((t) =>
      minorUnits(t, currency),
    );
    expect(net, `the tax report's row ${JSON.stringify(row)}`).toBe(tax! - refunded!);
    add(due, currency, net!);
  }
  return due;
}
