import { Box, Button, LinearProgress, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';

const count = (n: number) => n.toLocaleString('en-US');

/**
 * Progress of a running CSV export (finance's, a list's): "12,345 of 100,000 rows" ("of about", past an estimated
 * total, never fewer than the rows received), a determinate bar when the total is known, and Cancel. `what` names what is exported ("charges", "coupons").
 */
export function ExportProgress({
  rows,
  total,
  estimated = false,
  what,
  onCancel,
}: {
  rows: number;
  total: number | null;
  /** The total is an estimate (a list past ten thousand rows): "of about". */
  estimated?: boolean;
  what: string;
  onCancel(): void;
}) {
  const translate = useTranslate();
  const known = total !== null && total > 0;
  const text =
    total !== null
      ? translate(estimated ? 'console.csv.rowsOfAbout' : 'console.csv.rowsOf', {
          smart_count: total,
          rows: count(rows),
          total: count(Math.max(total, rows)),
        })
      : translate('console.csv.rows', { smart_count: rows, rows: count(rows) });
  return (
    <Box sx={{ mt: 2 }} aria-busy="true">
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, mb: 1 }}>
        <Typography variant="body2">{translate('console.csv.running', { what, progress: text })}</Typography>
        <Button size="small" onClick={onCancel}>
          {translate('console.csv.cancel')}
        </Button>
      </Box>
      <LinearProgress
        variant={known ? 'determinate' : 'indeterminate'}
        value={known ? Math.min(100, (rows / total) * 100) : undefined}
        aria-label={translate('console.csv.progressLabel', { what })}
        aria-valuetext={text}
      />
    </Box>
  );
}
