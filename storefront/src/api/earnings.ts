import type * as Earnings from '@contract/finance/earnings/schemas';
import type { Wire } from '@contract/shared/wire';
import { getJson } from './client';

export type EarningsAnswer = Wire<Earnings.EarningsAnswer>;
export type EarningsLine = Wire<Earnings.EarningsLine>;

/** GET /api/store/earnings: the signed-in person's balances, sales, payouts and one page of lines. */
export function getEarnings(query: { month?: string | null; page?: number } = {}): Promise<EarningsAnswer> {
  const params = new URLSearchParams();
  if (query.month) params.set('month', query.month);
  if (query.page && query.page > 1) params.set('page', String(query.page));
  const search = params.toString();
  return getJson(`/api/store/earnings${search ? `?${search}` : ''}`);
}

/** A month's statement: the browser downloads it with the session cookie. */
export const statementUrl = (month: string, format: 'csv' | 'pdf') =>
  `/api/store/earnings/statements/${encodeURIComponent(month)}.${format}`;
