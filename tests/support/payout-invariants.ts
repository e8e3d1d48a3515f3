import { expect } from 'vitest';
import type { Db } from '../../api/src/db/connection';
import type { PayoutBalance } from '../../api/src/finance/payouts/schemas';

const sum = (rows: { amount: number | string }[]) => rows.reduce((s, r) => s + Number(r.amount), 0);

/**
 * What must hold for payouts after anything (docs/domain.md §19): each balance agrees with the ledger and the payouts
 * read directly (paid + balance = earned − clawed back), every recipient with lines has one and the platform none,
 * no split line is covered by two payouts, and each payout is exactly the lines it covers, all its recipient's and
 * in its currency.
 */
export async function expectPayoutInvariants(db: Db, balances: readonly PayoutBalance[]): Promise<void> {
  const lines = (await db('splitLines').whereNotNull('userId').select('userId', 'currency', 'amount')) as {
    userId: string;
    currency: string;
    amount: number;
  }[];
  const payouts = (await db('payouts').select('recipientId', 'currency', 'amount', 'status')) as {
    recipientId: string;
    currency: string;
    amount: number;
    status: string;
  }[];
  const pairs = new Set(lines.map((l) => `${l.userId} ${l.currency}`));
  expect(
    new Set(balances.map((b) => `${b.recipientId} ${b.currency}`)),
    'one balance per recipient and currency',
  ).toEqual(pairs);
  for (const b of balances) {
    const theirs = lines.filter((l) => l.userId === b.recipientId && l.currency === b.currency);
    expect(b.earned).toBe(sum(theirs.filter((l) => l.amount > 0)));
    expect(b.clawedBack).toBe(0 - sum(theirs.filter((l) => l.amount < 0)));
    const sent = payouts.filter((p) => p.recipientId === b.recipientId && p.currency === b.currency);
    expect(b.paid).toBe(sum(sent.filter((p) => p.status === 'paid')));
    expect(b.inPayouts).toBe(sum(sent.filter((p) => p.status !== 'paid')));
    expect(b.paid + b.balance).toBe(b.earned - b.clawedBack);
  }
  const twice = await db.raw(
    'SELECT split_line_id FROM payout_lines GROUP BY split_line_id HAVING count(DISTINCT payout_id) > 1',
  );
  expect(twice.rows, 'split lines covered by two payouts').toEqual([]);
  const mismatched = await db.raw(`
    SELECT p.id FROM payouts p
      LEFT JOIN payout_lines pl ON pl.payout_id = p.id
      LEFT JOIN split_lines l ON l.id = pl.split_line_id
     GROUP BY p.id, p.amount
    HAVING coalesce(sum(l.amount), 0) <> p.amount
        OR bool_or(l.user_id IS DISTINCT FROM p.recipient_id OR l.currency <> p.currency)`);
  expect(mismatched.rows, 'payouts that are not exactly the lines they cover').toEqual([]);
}
