import { AppError } from '../../shared/errors';
import type { EarningsDeps } from './deps';
import { balancesAt, isPayee, linesOf, monthBounds, payoutsPaidIn } from './queries';
import type { Statement, StatementTotals } from './schemas';

/**
 * A recipient's statement of one UTC month (docs/domain.md §19.1): the month's lines, oldest first, and per currency
 * the opening balance (lines before the month less payouts paid before it), what was earned and clawed back in it,
 * what was paid out in it, and the closing balance. A currency appears when it opens or closes non-zero or moved.
 * Someone who is no recipient has no statements (404).
 */
export async function monthlyStatement(deps: EarningsDeps, userId: string, month: string): Promise<Statement> {
  const { db } = deps;
  if (!(await isPayee(db, userId)))
    throw new AppError('earnings-not-found', 'You have no earnings: statements are for authors and contributors.');
  const [from, to] = monthBounds(month);
  const [payee, lines, payouts, opening] = await Promise.all([
    db('users').where({ id: userId }).first('name', 'email') as Promise<{ name: string | null; email: string }>,
    linesOf(db, userId, { from, to }),
    payoutsPaidIn(db, userId, from, to),
    balancesAt(db, userId, from),
  ]);
  lines.reverse(); // a statement reads from the month's start
  const totals = new Map<string, StatementTotals>();
  const totalsOf = (currency: string) => {
    let row = totals.get(currency);
    if (!row) {
      row = { currency, opening: opening.get(currency) ?? 0, earned: 0, clawedBack: 0, paidOut: 0, closing: 0 };
      totals.set(currency, row);
    }
    return row;
  };
  for (const currency of opening.keys()) totalsOf(currency);
  for (const line of lines) {
    const row = totalsOf(line.currency);
    if (line.amount > 0) row.earned += line.amount;
    else row.clawedBack -= line.amount;
  }
  for (const payout of payouts) totalsOf(payout.currency).paidOut += payout.amount;
  for (const row of totals.values()) row.closing = row.opening + row.earned - row.clawedBack - row.paidOut;
  const shown = [...totals.values()]
    .filter((row) => row.opening || row.closing || row.earned || row.clawedBack || row.paidOut)
    .sort((a, b) => a.currency.localeCompare(b.currency));
  return { month, payee: { name: payee.name, email: payee.email }, lines, totals: shown, payouts };
}
