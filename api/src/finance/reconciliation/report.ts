import type { Knex } from 'knex';
import { bookBindings } from './book-entries';
import { CLASSIFIED, UNMATCHED_IN_BOOKS } from './classified';
import type { Period, ReconciliationDeps } from './deps';
import type { BookRow, PayoutReconciliation, ProcessorRow, ReconciliationAnswer, Tally } from './schemas';

/** The most rows of each list an answer carries; the tallies count them all. */
const LIST_LIMIT = 1000;

/** Processor − books, net of fees, for a matched row (a fee the books do not know counts whole). */
const DIFFERENCE = `(amount - fee) - (coalesce(book_amount, 0) - coalesce(book_fee, 0))`;

/**
 * What a payout should carry by the books: the books' net of each transaction matched to them, the processor's net of
 * each one they hold nothing for, and of each one the books keep in another currency, which cannot be added to the
 * payout's (docs/domain.md §20). Equal to the payout when every matched row agrees to the cent.
 */
const EXPECTED_NET = `CASE WHEN book_id IS NOT NULL AND book_currency = currency THEN book_amount - coalesce(book_fee, 0)
                           ELSE amount - fee END`;

/** A matched row the books keep in another currency: its difference is never subtracted or summed (§20). */
const OTHER_CURRENCY = `(book_id IS NOT NULL AND book_currency <> currency)`;

interface ClassifiedRow {
  id: string;
  identifier: string;
  kind: string;
  sourceIdentifier: string | null;
  chargeIdentifier: string | null;
  amount: number;
  fee: number;
  currency: string;
  createdAt: Date;
  payoutIdentifier: string | null;
  bookKind: string | null;
  bookId: string | null;
  bookAmount: number | null;
  bookFee: number | null;
  bookCurrency: string | null;
  reason: ProcessorRow['reason'];
  recoverable: boolean;
}

const rowOf = (r: ClassifiedRow): ProcessorRow => ({
  id: r.id,
  identifier: r.identifier,
  kind: r.kind,
  sourceIdentifier: r.sourceIdentifier,
  chargeIdentifier: r.chargeIdentifier,
  amount: r.amount,
  fee: r.fee,
  currency: r.currency,
  createdAt: r.createdAt,
  payoutIdentifier: r.payoutIdentifier,
  book: r.bookId
    ? { kind: r.bookKind!, id: r.bookId, amount: r.bookAmount!, fee: r.bookFee ?? 0, currency: r.bookCurrency! }
    : null,
  reason: r.reason,
  recoverable: r.recoverable,
});

async function bindingsOf({ provider }: Pick<ReconciliationDeps, 'provider'>, period: Period) {
  return { ...bookBindings(await provider.accountId(), provider.label), from: period.from, to: period.to };
}

const camel = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** A raw statement's rows with camelCase keys, as the query builder's come back. */
export const rowsOf = (result: { rows: Record<string, unknown>[] }) =>
  result.rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [camel(k), v])));

function tallyOf(groups: { currency: string; count: number; amount: number }[]): Tally {
  const byCurrency = groups.map((g) => ({ currency: g.currency, count: Number(g.count), amount: Number(g.amount) }));
  return { count: byCurrency.reduce((sum, g) => sum + g.count, 0), byCurrency };
}

/** The exceptions of the period: processor rows not matched to the cent, oldest first. */
async function exceptions(db: Knex, bindings: Record<string, unknown>): Promise<ProcessorRow[]> {
  const result = await db.raw(
    `SELECT * FROM (${CLASSIFIED}) c WHERE state <> 'matched' ORDER BY created_at, id LIMIT ${LIST_LIMIT}`,
    bindings,
  );
  return (rowsOf(result) as unknown as ClassifiedRow[]).map(rowOf);
}

/**
 * `GET /reconciliation`: the period's processor transactions matched to the cent, with a difference, and unmatched,
 * and the book entries the processor holds nothing for; counts and cents per currency, and the exceptions listed.
 */
export async function reconciliationOf(deps: ReconciliationDeps, period: Period): Promise<ReconciliationAnswer> {
  const { db } = deps;
  const bindings = await bindingsOf(deps, period);
  const groups = rowsOf(
    await db.raw(
      `SELECT state, currency, ${OTHER_CURRENCY} AS other_currency, count(*)::int AS count,
              sum(CASE WHEN ${OTHER_CURRENCY} THEN amount - fee WHEN state = 'difference' THEN ${DIFFERENCE}
                       ELSE amount END)::bigint AS amount
         FROM (${CLASSIFIED}) c GROUP BY state, currency, other_currency ORDER BY currency`,
      bindings,
    ),
  ) as unknown as { state: string; currency: string; otherCurrency: boolean; count: number; amount: number }[];
  const of = (state: string) => tallyOf(groups.filter((g) => g.state === state && !g.otherCurrency));
  const rows = await exceptions(db, bindings);
  const inBooks = rowsOf(await db.raw(`SELECT * FROM (${UNMATCHED_IN_BOOKS}) u ORDER BY at, id`, bindings)) as Omit<
    BookRow,
    'reason'
  >[];
  const bookTally = new Map<string, { currency: string; count: number; amount: number }>();
  for (const b of inBooks) {
    const t = bookTally.get(b.currency) ?? { currency: b.currency, count: 0, amount: 0 };
    bookTally.set(b.currency, { ...t, count: t.count + 1, amount: t.amount + b.amount });
  }
  return {
    from: period.from,
    to: period.to,
    matched: of('matched'),
    difference: { ...of('difference'), rows: rows.filter((r) => r.book) },
    otherCurrency: tallyOf(groups.filter((g) => g.otherCurrency)),
    unmatchedAtProcessor: { ...of('unmatched'), rows: rows.filter((r) => !r.book) },
    unmatchedInBooks: {
      ...tallyOf([...bookTally.values()]),
      rows: inBooks.slice(0, LIST_LIMIT).map((b) => ({ ...b, reason: 'not-at-processor' })),
    },
  };
}

/** `GET /reconciliation/payouts`: each processor payout of the period (and what is not paid out yet) and its matches. */
export async function payoutsOf(deps: ReconciliationDeps, period: Period): Promise<PayoutReconciliation[]> {
  const { db } = deps;
  const bindings = await bindingsOf(deps, period);
  const counts = rowsOf(
    await db.raw(
      `SELECT payout_identifier, state, count(*)::int AS count, sum(${EXPECTED_NET})::bigint AS expected
         FROM (${CLASSIFIED}) c GROUP BY payout_identifier, state`,
      bindings,
    ),
  ) as unknown as { payoutIdentifier: string | null; state: string; count: number; expected: string }[];
  const payouts = (await db('processorPayouts')
    .where({ merchantAccountId: bindings.account })
    .whereIn('identifier', [...new Set(counts.map((c) => c.payoutIdentifier).filter((p) => p !== null))])
    .orWhere((q) =>
      q
        .where({ merchantAccountId: bindings.account })
        .where('createdAt', '>=', period.from)
        .where('createdAt', '<', period.to),
    )
    .orderBy('createdAt', 'desc')
    .select('identifier', 'amount', 'currency', 'status', 'createdAt', 'arrivalOn')) as NonNullable<
    PayoutReconciliation['payout']
  >[];
  const rows = await exceptions(db, bindings);
  const entry = (payout: PayoutReconciliation['payout']): PayoutReconciliation => {
    const key = payout?.identifier ?? null;
    const count = (state: string) => counts.find((c) => c.payoutIdentifier === key && c.state === state)?.count ?? 0;
    const expected = counts.filter((c) => c.payoutIdentifier === key).reduce((sum, c) => sum + Number(c.expected), 0);
    return {
      id: key ?? 'not-paid-out',
      payout: payout && { ...payout, amount: Number(payout.amount) },
      expectedAmount: expected,
      offBy: payout ? Number(payout.amount) - expected : 0,
      matched: count('matched'),
      differences: count('difference'),
      unmatchedAtProcessor: count('unmatched'),
      rows: rows.filter((r) => r.payoutIdentifier === key),
    };
  };
  const unpaid = counts.some((c) => c.payoutIdentifier === null) ? [entry(null)] : [];
  return [...unpaid, ...payouts.map(entry)];
}
