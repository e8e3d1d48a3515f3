import { useEffect, useRef, useState } from 'react';
import { useTranslate, type TranslateFunction } from 'react-admin';
import { exportUrl, type ExportKind, type ExportPeriod } from './api';
import { ExportRefused, fetchCsv, saveFile } from '../common/csvDownload';
import type { Period } from './period';

export type ExportState =
  | { phase: 'idle' }
  | { phase: 'running'; kind: ExportKind; rows: number; total: number | null }
  | { phase: 'done'; kind: ExportKind; filename: string; rows: number }
  | { phase: 'canceled'; kind: ExportKind }
  | { phase: 'failed'; kind: ExportKind; message: string };

/** Why an export failed, in words: a refusal about the dates points at the date inputs, where its details show. */
function failureOf(error: unknown, translate: TranslateFunction): string {
  if (error instanceof ExportRefused) {
    if (error.errors.from || error.errors.to) return translate('finance.exports.refusedDates');
    if (error.status === 403) return translate('finance.exports.forbidden');
    return error.message || translate('finance.exports.httpFailed', { status: error.status });
  }
  return error instanceof Error && error.message
    ? translate('finance.exports.failed', { message: error.message })
    : translate('finance.exports.failedUnknown');
}

/**
 * One CSV export at a time for the page's dates: it streams from the API with its progress, may be canceled, and is
 * saved as a file. A streamed download is not a react-query query (nothing to cache, progress to show), so it keeps
 * its own AbortController. The API's field errors go to `onFieldErrors`, for the date inputs.
 */
export function useCsvExport(period: Period, onFieldErrors: (errors: Record<string, string>) => void) {
  const translate = useTranslate();
  const [state, setState] = useState<ExportState>({ phase: 'idle' });
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);
  // A refusal was about the dates then: new dates, a fresh start.
  useEffect(() => setState((s) => (s.phase === 'failed' ? { phase: 'idle' } : s)), [period.from, period.to]);

  const start = async (kind: ExportKind, grouping: ExportPeriod) => {
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    onFieldErrors({});
    setState({ phase: 'running', kind, rows: 0, total: null });
    try {
      const file = await fetchCsv(exportUrl(kind, period, grouping), {
        signal: current.signal,
        fallbackName: `${kind}-${period.from}-${period.to}.csv`,
        onProgress: ({ rows, total }) =>
          setState((s) => (s.phase === 'running' && controller.current === current ? { ...s, rows, total } : s)),
      });
      saveFile(file.blob, file.filename);
      setState({ phase: 'done', kind, filename: file.filename, rows: file.rows });
    } catch (error) {
      if (current.signal.aborted) {
        if (controller.current === current) setState({ phase: 'canceled', kind });
        return;
      }
      if (error instanceof ExportRefused) onFieldErrors(error.errors);
      setState({ phase: 'failed', kind, message: failureOf(error, translate) });
    } finally {
      if (controller.current === current) controller.current = null;
    }
  };

  return { state, start, cancel: () => controller.current?.abort() };
}
