import type { TranslateFunction } from 'react-admin';
import type { ExportKind, FinanceSummaryAnswer, LedgerAmounts, PeriodQuery } from '@contract/finance/schemas';
import type { Wire } from '@contract/shared/wire';

export type { ExportKind, LedgerAmounts };

/** GET /api/admin/finance/summary, as dataProvider.getFinanceSummary answers it. */
export type FinanceSummary = Wire<FinanceSummaryAnswer>;

export type FinanceRecipient = FinanceSummary['recipients'][number];

/** One bar of the revenue-over-time chart: the days of a bucket summed, from its first day. */
export type LedgerPoint = LedgerAmounts & { start: string };

/** How the per-recipient CSV summary is grouped: the API's periods (day, week or month). */
export type ExportPeriod = PeriodQuery['period'];

export function exportUrl(kind: ExportKind, period: { from: string; to: string }, grouping?: ExportPeriod): string {
  const query = new URLSearchParams({ from: period.from, to: period.to });
  if (kind === 'recipients' && grouping) query.set('period', grouping);
  return `/api/admin/exports/${kind}.csv?${query}`;
}

/** "Platform", or the person's name (else email) with their role in the split: "Cora Contributor (owner)". */
export function recipientLabel(r: FinanceRecipient, translate: TranslateFunction): string {
  if (r.type === 'platform') return translate('finance.recipients.types.platform');
  return translate('finance.recipients.withRole', {
    name: r.name || r.email || translate('finance.recipients.unknown'),
    role: translate(`finance.recipients.roles.${r.type}`),
  });
}
