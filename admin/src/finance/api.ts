import { httpClient } from '../dataProvider';

/** Sales, refunds and disputes of the split ledger, in cents: refunds and disputes are negative, sales are net of fees. */
export interface LedgerAmounts {
  sales: number;
  refunds: number;
  disputes: number;
  total: number;
}

export type RecipientType = 'platform' | 'owner' | 'contributor';

/** GET /api/admin/finance/summary (api/src/finance/summary.ts): one period of whole UTC days, at most 366. */
export interface FinanceSummary {
  from: string;
  to: string;
  totals: LedgerAmounts;
  days: (LedgerAmounts & { day: string })[];
  products: (LedgerAmounts & { productId: string; name: string })[];
  recipients: (LedgerAmounts & { type: RecipientType; userId: string | null; email: string | null; name: string | null })[];
}

export type FinanceRecipient = FinanceSummary['recipients'][number];

export async function fetchFinanceSummary(period: { from: string; to: string }, signal?: AbortSignal): Promise<FinanceSummary> {
  const query = new URLSearchParams({ from: period.from, to: period.to });
  const { json } = await httpClient(`/api/admin/finance/summary?${query}`, { signal });
  return json as FinanceSummary;
}

/** The three CSV exports (api/src/finance/routes.ts); the per-recipient summary is grouped by day, week or month. */
export type ExportKind = 'charges' | 'split-lines' | 'recipients';
export type ExportPeriod = 'day' | 'week' | 'month';

export function exportUrl(kind: ExportKind, period: { from: string; to: string }, grouping?: ExportPeriod): string {
  const query = new URLSearchParams({ from: period.from, to: period.to });
  if (kind === 'recipients' && grouping) query.set('period', grouping);
  return `/api/admin/exports/${kind}.csv?${query}`;
}

const TYPE_LABELS: Record<RecipientType, string> = { platform: 'Platform', owner: 'Owner', contributor: 'Contributor' };
export const recipientTypeLabel = (type: RecipientType) => TYPE_LABELS[type] ?? type;

/** "Platform", or the person's name (else email) with their role in the split: "Cora Contributor (owner)". */
export function recipientLabel(r: FinanceRecipient): string {
  if (r.type === 'platform') return 'Platform';
  return `${r.name || r.email || 'Unknown recipient'} (${recipientTypeLabel(r.type).toLowerCase()})`;
}
