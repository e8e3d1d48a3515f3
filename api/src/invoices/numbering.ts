import type { Knex } from 'knex';
import { rowsInsert, byColumns, sendTogether } from '../db/rows-together';

export type DocumentKind = 'invoice' | 'credit-note';

/** Credit notes run in a sequence of their own, told apart by their prefix: `2026-000042`, `CN-2026-000007`. */
const PREFIX: Record<DocumentKind, string> = { invoice: '', 'credit-note': 'CN-' };

/**
 * The counter of a kind and this year (UTC), moved on by one: its new value and the number it makes
 * (`2026-000042`; more digits once six are not enough).
 */
const COUNTER_TAKEN = `INSERT INTO invoice_counters (kind, year, last)
     VALUES (?, extract(year from now() at time zone 'UTC')::int, 1)
   ON CONFLICT (kind, year) DO UPDATE SET last = invoice_counters.last + 1
   RETURNING year, last,
     ?::text || year::text || '-' || lpad(last::text, greatest(6, length(last::text)), '0') AS number`;

/**
 * Inserts a document under the next number of its kind and year, without gaps, in one statement: the counter row is
 * taken with the document's own insert in the same transaction, so a rollback gives the number back and concurrent
 * issuers queue on the row, in commit order. Every issuer queues on that one row until it commits, so a transaction
 * should number its document as its last write: the row is then held for one round trip and the commit, not for the
 * rest of the transaction's work. Fulfilment, the busiest issuer, uses `numberedAtCommit` for a sale settled on its
 * own and `insertNumberedTogether` for a batch.
 */
export async function insertNumbered(
  trx: Knex.Transaction,
  kind: DocumentKind,
  document: Record<string, unknown>,
): Promise<{ id: string; number: string }> {
  const [row] = await trx
    .with('counter', trx.raw(COUNTER_TAKEN, [kind, PREFIX[kind]]))
    .into('invoices')
    .insert({
      ...document,
      kind,
      year: trx('counter').select('year'),
      sequence: trx('counter').select('last'),
      number: trx('counter').select('number'),
    })
    .returning(['id', 'number']);
  return row;
}

/**
 * The insert of a document to be numbered as its transaction commits (a deferred trigger takes the counter then,
 * 20261201010000), for the caller to send, alone or with its other writes: the counter row is held only for the
 * commit, not from this statement on, so transactions with more to do after it, or many committing at once, do not
 * queue on it for their round trips. Gapless and in commit order alike; until the commit the row has no number
 * (nothing in the transaction should read it back for one).
 */
export function numberedAtCommit(
  trx: Knex.Transaction,
  kind: DocumentKind,
  document: Record<string, unknown> & { id: string },
): Knex.QueryBuilder {
  return trx('invoices').insert({ ...document, kind });
}

/**
 * Inserts several documents of a kind, numbered by the insert itself, in their order: the counter row of the kind and
 * year is moved on once by their count and each document takes the next number (`base + its place`), so the rows are
 * written once, numbered, rather than rewritten at commit (a second entry in each of their indexes). The counter row is
 * held from this statement to the commit: a transaction sends it as its LAST statement, so no other work (and no round
 * trip but the commit's) is done while other issuers queue on it. Gapless and in commit order, as `insertNumbered`.
 * The statement's text is the same for one document as for fifty (rows as one jsonb parameter, `rows-together.ts`).
 */
export async function insertNumberedTogether(
  trx: Knex.Transaction,
  kind: DocumentKind,
  documents: (Record<string, unknown> & { id: string })[],
  json: string[],
): Promise<void> {
  if (documents.length === 0) return;
  const counter = trx.raw(
    `INSERT INTO invoice_counters AS c (kind, year, last)
       VALUES (?, extract(year from now() at time zone 'UTC')::int, ?::int)
     ON CONFLICT (kind, year) DO UPDATE SET last = c.last + excluded.last
     RETURNING c.year, c.last - ?::int AS base, ?::text AS prefix`,
    [kind, documents.length, documents.length, PREFIX[kind]],
  );
  const specs = byColumns({
    table: 'invoices',
    rows: documents.map((document, n) => ({ ...document, kind, place: n + 1 })),
    json,
    extras: ['place'],
    computed: {
      year: '(SELECT year FROM counter)',
      sequence: `(SELECT base FROM counter) + (e.v->>'place')::int`,
      number: `(SELECT c.prefix || c.year::text || '-' || lpad(s.n::text, greatest(6, length(s.n::text)), '0')
        FROM counter AS c CROSS JOIN LATERAL (SELECT c.base + (e.v->>'place')::int AS n) AS s)`,
    },
  });
  await sendTogether(trx, `numbered-${kind}`, [
    ['counter', counter],
    ...specs.map((spec, n): [string, Knex.Raw] => [`numbered_${n}`, rowsInsert(trx, spec)]),
  ]);
}
