import { useEffect, useRef, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  LinearProgress,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import { exportUrl, type ExportKind, type ExportPeriod } from './api';
import { ExportRefused, fetchCsv, saveFile } from './csvDownload';
import type { Period } from './period';

const EXPORTS: { kind: ExportKind; label: string; what: string }[] = [
  {
    kind: 'charges',
    label: 'Charges',
    what: 'Every charge with its refunds, provider fee, net and the buyer’s country',
  },
  { kind: 'split-lines', label: 'Split lines', what: 'Every ledger line per recipient: sales, refunds and disputes' },
  { kind: 'recipients', label: 'Per-recipient summary', what: 'Each recipient’s totals per day, week or month' },
];

const GROUPINGS: { id: ExportPeriod; name: string }[] = [
  { id: 'day', name: 'Per day' },
  { id: 'week', name: 'Per week' },
  { id: 'month', name: 'Per month' },
];

const count = (n: number) => n.toLocaleString('en-US');
const labelOf = (kind: ExportKind) => EXPORTS.find((e) => e.kind === kind)!.label;

type ExportState =
  | { phase: 'idle' }
  | { phase: 'running'; kind: ExportKind; rows: number; total: number | null }
  | { phase: 'done'; kind: ExportKind; filename: string; rows: number }
  | { phase: 'canceled'; kind: ExportKind }
  | { phase: 'failed'; kind: ExportKind; message: string };

interface ExportsPanelProps {
  period: Period;
  /** False while a date is incomplete: nothing to ask for yet. */
  ready: boolean;
  /** The API's field errors (`from`, `to`), shown next to the date inputs. */
  onFieldErrors(errors: Record<string, string>): void;
}

/** Progress of a running export: "12,345 of 100,000 rows", a determinate bar when the total is known, and Cancel. */
function Running({ state, onCancel }: { state: Extract<ExportState, { phase: 'running' }>; onCancel(): void }) {
  const { rows, total } = state;
  const known = total !== null && total > 0;
  const text = total !== null ? `${count(rows)} of ${count(total)} rows` : `${count(rows)} rows`;
  return (
    <Box sx={{ mt: 2 }} aria-busy="true">
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, mb: 1 }}>
        <Typography variant="body2">
          Exporting {labelOf(state.kind).toLowerCase()}… {text}
        </Typography>
        <Button size="small" onClick={onCancel}>
          Cancel
        </Button>
      </Box>
      <LinearProgress
        variant={known ? 'determinate' : 'indeterminate'}
        value={known ? Math.min(100, (rows / total) * 100) : undefined}
        aria-label={`Exporting ${labelOf(state.kind).toLowerCase()}`}
        aria-valuetext={text}
      />
    </Box>
  );
}

/**
 * The finance CSV exports for the page's dates: each streams from the API with a progress bar and a Cancel button,
 * then is saved as a file. A refusal about the dates shows next to the date inputs.
 */
export function ExportsPanel({ period, ready, onFieldErrors }: ExportsPanelProps) {
  const [grouping, setGrouping] = useState<ExportPeriod>('month');
  const [state, setState] = useState<ExportState>({ phase: 'idle' });
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);
  // A refusal was about the dates then: new dates, a fresh start.
  useEffect(() => setState((s) => (s.phase === 'failed' ? { phase: 'idle' } : s)), [period.from, period.to]);

  const start = async (kind: ExportKind) => {
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
      if (error instanceof ExportRefused) {
        onFieldErrors(error.errors);
        const aboutDates = Boolean(error.errors.from || error.errors.to);
        setState({
          phase: 'failed',
          kind,
          message: aboutDates ? 'The API refused these dates: see the date inputs above.' : error.message,
        });
      } else {
        setState({
          phase: 'failed',
          kind,
          message:
            error instanceof Error && error.message ? `The export failed: ${error.message}` : 'The export failed.',
        });
      }
    } finally {
      if (controller.current === current) controller.current = null;
    }
  };

  const running = state.phase === 'running';
  return (
    <Card variant="outlined" component="section" aria-labelledby="exports-title">
      <CardContent>
        <Typography variant="h6" component="h2" id="exports-title">
          Exports
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          CSV files for the dates above (UTC days, both included), in UTF-8 with a byte-order mark so spreadsheets read
          them right. Amounts are in cents.
        </Typography>
        <Stack spacing={1.5}>
          {EXPORTS.map(({ kind, label, what }) => (
            <Box key={kind} sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
              <Button
                variant="outlined"
                startIcon={<DownloadIcon />}
                disabled={!ready || running}
                onClick={() => void start(kind)}
                sx={{ minWidth: 260, justifyContent: 'flex-start' }}
              >
                {label}
              </Button>
              {kind === 'recipients' ? (
                <TextField
                  select
                  size="small"
                  label="Grouped"
                  value={grouping}
                  onChange={(event) => setGrouping(event.target.value as ExportPeriod)}
                  disabled={running}
                  sx={{ width: 150 }}
                >
                  {GROUPINGS.map((g) => (
                    <MenuItem key={g.id} value={g.id}>
                      {g.name}
                    </MenuItem>
                  ))}
                </TextField>
              ) : null}
              <Typography variant="body2" color="text.secondary" sx={{ flex: '1 1 240px' }}>
                {what}
              </Typography>
            </Box>
          ))}
        </Stack>

        {state.phase === 'running' ? <Running state={state} onCancel={() => controller.current?.abort()} /> : null}
        <Box role="status" aria-live="polite" sx={{ mt: state.phase === 'idle' || running ? 0 : 2 }}>
          {state.phase === 'done' ? (
            <Alert severity="success">
              {labelOf(state.kind)} exported: {state.filename}, {count(state.rows)} {state.rows === 1 ? 'row' : 'rows'}.
            </Alert>
          ) : null}
          {state.phase === 'canceled' ? (
            <Alert severity="info">{labelOf(state.kind)} export canceled: nothing was saved.</Alert>
          ) : null}
          {state.phase === 'failed' ? <Alert severity="error">{state.message}</Alert> : null}
        </Box>
      </CardContent>
    </Card>
  );
}
