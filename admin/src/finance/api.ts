import type { TranslateFunction } from 'react-admin';
import type {
  ExportKind as LedgerExportKind,
  FinanceSummaryAnswer,
  LedgerAmounts,
  PeriodQuery,
  TaxSummaryAnswer,
} from '@contract/finance/schemas';
import type { Wire } from '@contract/shared/wire';

export type { LedgerAmounts };

/** The page's downloads: the ledger's exports, and the tax report for filing. */
export type ExportKind = LedgerExportKind | 'tax-report';

/** GET /api/admin/finance/tax-summary: the tax of the period's invoices and credit notes, per month and country. */
export type TaxSummary = Wire<TaxSummaryAnswer>;

/** GET /api/admin/finance/summary, as dataProvider.getFinanceSummary answers it. */
export type FinanceSummary = Wire<FinanceSummaryAnswer>;

export type FinanceRecipient = FinanceSummary['recipients'][number];

/** One bar of the revenue-over-time chart: the days of a bucket summed, from its first day. */
export type LedgerPoint = LedgerAmounts & { start: string };

/** How the per-recipient CSV summary is grouped: the API's periods (day, week or month). */
export type ExportPeriod = PeriodQuery['period'];

/** The day after a day ("2026-03-31" → "2026-04-01"): the tax report's period ends before its `to`. */
const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** The tax report and summary's period for the page's dates (both included): up to the day after the last. */
export const taxPeriod = (period: { from: string; to: string }) => ({ from: period.from, to: dayAfter(period.to) });

export function exportUrl(kind: ExportKind, period: { from: string; to: string }, grouping?: ExportPeriod): string {
  if (kind === 'tax-report') return `/api/admin/finance/tax-report.csv?${new URLSearchParams(taxPeriod(period))}`;
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
