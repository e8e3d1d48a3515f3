import type { Knex } from 'knex';

export type DocumentKind = 'invoice' | 'credit-note';

/** Credit notes run in a sequence of their own, told apart by their prefix: `2026-000042`, `CN-2026-000007`. */
const PREFIX: Record<DocumentKind, string> = { invoice: '', 'credit-note': 'CN-' };

/**
 * The next number of a kind and year, without gaps: the counter row is taken with the document's own insert in the
 * same transaction, so a rollback gives the number back and concurrent issuers queue on the row, in commit order.
 */
export async function nextNumber(
  trx: Knex.Transaction,
  kind: DocumentKind,
  year: number,
): Promise<{ year: number; sequence: number; number: string }> {
  const { rows } = await trx.raw(
    `INSERT INTO invoice_counters (kind, year, last) VALUES (?, ?, 1)
       ON CONFLICT (kind, year) DO UPDATE SET last = invoice_counters.last + 1
     RETURNING last`,
    [kind, year],
  );
  const sequence = (rows as { last: number }[])[0]!.last;
  return { year, sequence, number: `${PREFIX[kind]}${year}-${String(sequence).padStart(6, '0')}` };
}
