import type { EarningsDeps } from './deps';
import { countLines, isPayee, linesOf, monthBounds, payoutsOf, productMonths } from './queries';
import type { EarningsAnswer, EarningsBalance, EarningsQueryInput } from './schemas';

/** Lines shown a page at a time. */
const LINES_PAGE_SIZE = 50;

/**
 * What a revenue-split recipient sees of their money (docs/domain.md §19.1): the balances finance pays from (the
 * payouts' own computation, for them alone), their sales per product and month, their ledger lines a page at a time
 * (of one month when asked), their payouts and the months a statement covers. Someone who is no recipient gets the
 * same answer, empty, with `payee: false`: the page then says how earnings come about.
 */
export async function earningsOverview(
  deps: EarningsDeps,
  userId: string,
  query: EarningsQueryInput,
): Promise<EarningsAnswer> {
  const { db, payouts, config } = deps;
  const range = query.month ? monthBounds(query.month) : null;
  const lineRange = range ? { from: range[0], to: range[1] } : {};
  const [payee, balances, months, total, lines, paid] = await Promise.all([
    isPayee(db, userId),
    payouts.balances(userId),
    productMonths(db, userId),
    countLines(db, userId, lineRange),
    linesOf(db, userId, { ...lineRange, limit: LINES_PAGE_SIZE, offset: (query.page - 1) * LINES_PAGE_SIZE }),
    payoutsOf(db, userId),
  ]);
  // A statement has something to say for a month with a line or a paid payout (UTC months, as the statement's).
  const statementMonths = [
    ...new Set([
      ...months.map((m) => m.month),
      ...paid.flatMap((p) => (p.paidAt ? [p.paidAt.toISOString().slice(0, 7)] : [])),
    ]),
  ].sort((a, b) => b.localeCompare(a));
  return {
    payee,
    holdDays: config.PAYOUT_HOLD_DAYS,
    balances: balances.map((b): EarningsBalance => ({
      currency: b.currency,
      earned: b.earned,
      clawedBack: b.clawedBack,
      paid: b.paid,
      balance: b.balance,
      inPayouts: b.inPayouts,
      payable: b.payable,
      // What no payout covers is either past the hold (payable) or still held.
      held: b.balance - b.inPayouts - b.payable,
    })),
    months,
    lines: { month: query.month ?? null, page: query.page, pageSize: LINES_PAGE_SIZE, total, data: lines },
    payouts: paid,
    statementMonths,
  };
}
