import type { FinanceSummaryAnswer, RecipientType } from '@contract/finance/schemas';
import type { Wire } from '@contract/shared/wire';
import { httpClient } from '../dataProvider';

export type { LedgerAmounts } from '@contract/finance/schemas';

/** GET /api/admin/finance/summary (api/src/finance/summary.ts): one period of whole UTC days, at most 366. */
export type FinanceSummary = Wire<FinanceSummaryAnswer>;

export type FinanceRecipient = FinanceSummary['recipients'][number];

export async function fetchFinanceSummary(
  period: { from: string; to: string },
  signal?: AbortSignal,
): Promise<FinanceSummary> {
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
