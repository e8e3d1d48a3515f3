import { useEffect, useRef, useState } from 'react';
import { useTranslate } from 'react-admin';
import { ExportRefused, fetchCsv, saveFile } from '../common/csvDownload';
import type { Period } from '../finance/period';

export type RefundsCsvState =
  | { phase: 'idle' }
  | { phase: 'running'; rows: number; total: number | null }
  | { phase: 'done'; filename: string; rows: number }
  | { phase: 'failed'; message: string };

/**
 * The period's refunds as a CSV file: streamed from GET /api/admin/reports/refunds.csv with its progress (the same
 * download as the Finance page's exports), cancelable; a refusal about the dates goes to `onFieldErrors`.
 */
export function useRefundsCsv(period: Period, onFieldErrors: (errors: Record<string, string>) => void) {
  const translate = useTranslate();
  const [state, setState] = useState<RefundsCsvState>({ phase: 'idle' });
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);
  useEffect(() => setState({ phase: 'idle' }), [period.from, period.to]);

  const start = async () => {
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    onFieldErrors({});
    setState({ phase: 'running', rows: 0, total: null });
    try {
      const query = new URLSearchParams({ from: period.from, to: period.to });
      const file = await fetchCsv(`/api/admin/reports/refunds.csv?${query}`, {
        signal: current.signal,
        fallbackName: `refunds-${period.from}-to-${period.to}.csv`,
        onProgress: ({ rows, total }) =>
          setState((s) => (s.phase === 'running' && controller.current === current ? { ...s, rows, total } : s)),
      });
      saveFile(file.blob, file.filename);
      setState({ phase: 'done', filename: file.filename, rows: file.rows });
    } catch (error) {
      if (current.signal.aborted) {
        if (controller.current === current) setState({ phase: 'idle' });
        return;
      }
      if (error instanceof ExportRefused) onFieldErrors(error.errors);
      const message =
        error instanceof ExportRefused && (error.errors.from || error.errors.to)
          ? translate('finance.exports.refusedDates')
          : error instanceof Error && error.message
            ? error.message
            : translate('finance.exports.failedUnknown');
      setState({ phase: 'failed', message });
    } finally {
      if (controller.current === current) controller.current = null;
    }
  };

  return { state, start, cancel: () => controller.current?.abort() };
}
