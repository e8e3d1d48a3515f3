import { Box, Button, LinearProgress, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { ExportState } from './useCsvExport';

const count = (n: number) => n.toLocaleString('en-US');

/** Progress of a running export: "12,345 of 100,000 rows", a determinate bar when the total is known, and Cancel. */
export function ExportProgress({
  state,
  onCancel,
}: {
  state: Extract<ExportState, { phase: 'running' }>;
  onCancel(): void;
}) {
  const translate = useTranslate();
  const { rows, total } = state;
  const known = total !== null && total > 0;
  const text =
    total !== null
      ? translate('finance.exports.rowsOf', { smart_count: total, rows: count(rows), total: count(total) })
      : translate('finance.exports.rows', { smart_count: rows, rows: count(rows) });
  const what = translate(`finance.exports.kinds.${state.kind}.object`);
  return (
    <Box sx={{ mt: 2 }} aria-busy="true">
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, mb: 1 }}>
        <Typography variant="body2">{translate('finance.exports.running', { what, progress: text })}</Typography>
        <Button size="small" onClick={onCancel}>
          {translate('finance.exports.cancel')}
        </Button>
      </Box>
      <LinearProgress
        variant={known ? 'determinate' : 'indeterminate'}
        value={known ? Math.min(100, (rows / total) * 100) : undefined}
        aria-label={translate('finance.exports.progressLabel', { what })}
        aria-valuetext={text}
      />
    </Box>
  );
}
