/**
 * Revenue split arithmetic (docs/domain.md §9), pure and in integer cents. Percentages are basis points of a basis
 * point (the column's four decimals: 1 = 0.0001 = 1/10,000).
 */

import type { RecipientType } from './finance';

export interface Split {
  type: RecipientType;
  userId: string | null;
  /** 0..10,000 (numeric(5,4) × 10,000). */
  share: number;
}

export interface Line {
  type: RecipientType;
  userId: string | null;
  amount: number;
}

const SCALE = 10_000;

/** numeric(5,4) as stored ("0.3000" or 0.3) → exact ten-thousandths. */
export function shareOf(percent: string | number): number {
  return Math.round(Number(percent) * SCALE);
}

/** Adds what rounding left over to the largest line (the first of equals), so the lines sum to `total` exactly. */
function settle(lines: Line[], total: number): Line[] {
  const sum = lines.reduce((s, l) => s + l.amount, 0);
  if (sum !== total && lines.length) {
    const largest = lines.reduce((best, l) => (Math.abs(l.amount) > Math.abs(best.amount) ? l : best), lines[0]!);
    largest.amount += total - sum;
  }
  return lines;
}

/**
 * The lines of a sale: the platform's share of the gross first, then the provider's fee, and what remains to the
 * owners and contributors in proportion to their percents. With no owner or contributor the platform keeps the
 * rest. The lines always sum to the net (gross − fee), exactly.
 */
export function saleLines(gross: number, fee: number, splits: Split[]): Line[] {
  const net = gross - fee;
  const platformShare = splits.filter((s) => s.type === 'platform').reduce((sum, s) => sum + s.share, 0);
  const people = splits.filter((s) => s.type !== 'platform' && s.share > 0);
  const peopleShare = people.reduce((sum, s) => sum + s.share, 0);
  if (people.length === 0) return [{ type: 'platform', userId: null, amount: net }];

  const platform = Math.min(net, Math.round((gross * platformShare) / SCALE));
  const rest = net - platform;
  const lines: Line[] = [];
  if (platformShare > 0) lines.push({ type: 'platform', userId: null, amount: platform });
  for (const person of people)
    lines.push({ type: person.type, userId: person.userId, amount: Math.floor((rest * person.share) / peopleShare) });
  if (platformShare === 0 && platform !== 0) lines.push({ type: 'platform', userId: null, amount: platform });
  return settle(lines, net);
}

/**
 * An adjustment (a refund or dispute: negative; a won dispute: positive) spread over a charge's sale lines in
 * proportion to them, so every recipient gives back (or gets back) their part. Sums to `amount` exactly.
 */
export function adjustmentLines(amount: number, sale: Line[]): Line[] {
  const base = sale.reduce((sum, l) => sum + l.amount, 0);
  if (amount === 0) return [];
  if (base <= 0 || sale.length === 0) return [{ type: 'platform', userId: null, amount }];
  const sign = Math.sign(amount);
  const lines = sale.map((l) => ({
    type: l.type,
    userId: l.userId,
    amount: sign * Math.floor((Math.abs(amount) * Math.max(0, l.amount)) / base),
  }));
  return settle(lines, amount);
}
