import { useState } from 'react';
import { Alert, Box, Button, Card, CardContent, MenuItem, Stack, TextField, Typography } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import { useTranslate } from 'react-admin';
import { EXPORT_KINDS, SUM_PERIODS } from '../../../api/src/shared/finance';
import type { ExportKind, ExportPeriod } from './api';
import { ExportProgress } from '../common/ExportProgress';
import type { Period } from './period';
import { useCsvExport, type ExportState } from './useCsvExport';

/** The ledger's exports, then the tax report for filing. */
const DOWNLOADS: readonly ExportKind[] = [...EXPORT_KINDS, 'tax-report'];

interface ExportsPanelProps {
  period: Period;
  /** False while a date is incomplete: nothing to ask for yet. */
  ready: boolean;
  /** The API's field errors (`from`, `to`), shown next to the date inputs. */
  onFieldErrors(errors: Record<string, string>): void;
}

/** How the last export ended: saved (with its row count), canceled, or failed and why. */
function ExportOutcome({ state }: { state: ExportState }) {
  const translate = useTranslate();
  if (state.phase === 'idle' || state.phase === 'running') return null;
  const label = translate(`finance.exports.kinds.${state.kind}.label`);
  if (state.phase === 'failed') return <Alert severity="error">{state.message}</Alert>;
  if (state.phase === 'canceled')
    return <Alert severity="info">{translate('finance.exports.canceled', { label })}</Alert>;
  const rows = state.rows.toLocaleString('en-US');
  return (
    <Alert severity="success">
      {translate('finance.exports.done', { label, filename: state.filename, rows, smart_count: state.rows })}
    </Alert>
  );
}

/**
 * The finance CSV exports for the page's dates: each streams from the API with a progress bar and a Cancel button,
 * then is saved as a file. A refusal about the dates shows next to the date inputs.
 */
export function ExportsPanel({ period, ready, onFieldErrors }: ExportsPanelProps) {
  const translate = useTranslate();
  const [grouping, setGrouping] = useState<ExportPeriod>('month');
  const { state, start, cancel } = useCsvExport(period, onFieldErrors);
  const running = state.phase === 'running';
  return (
    <Card variant="outlined" component="section" aria-labelledby="exports-title">
      <CardContent>
        <Typography variant="h6" component="h2" id="exports-title">
          {translate('finance.exports.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {translate('finance.exports.intro')}
        </Typography>
        <Stack spacing={1.5}>
          {DOWNLOADS.map((kind) => (
            <Box key={kind} sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
              <Button
                variant="outlined"
                startIcon={<DownloadIcon />}
                disabled={!ready || running}
                onClick={() => void start(kind, grouping)}
                sx={{ minWidth: 260, justifyContent: 'flex-start' }}
              >
                {translate(`finance.exports.kinds.${kind}.label`)}
              </Button>
              {kind === 'recipients' ? (
                <TextField
                  select
                  size="small"
                  label={translate('finance.exports.grouped')}
                  value={grouping}
                  onChange={(event) => setGrouping(event.target.value as ExportPeriod)}
                  disabled={running}
                  sx={{ width: 150 }}
                >
                  {SUM_PERIODS.map((id) => (
                    <MenuItem key={id} value={id}>
                      {translate(`finance.exports.groupings.${id}`)}
                    </MenuItem>
                  ))}
                </TextField>
              ) : null}
              <Typography variant="body2" color="text.secondary" sx={{ flex: '1 1 240px' }}>
                {translate(`finance.exports.kinds.${kind}.what`)}
              </Typography>
            </Box>
          ))}
        </Stack>

        {state.phase === 'running' ? (
          <ExportProgress
            rows={state.rows}
            total={state.total}
            what={translate(`finance.exports.kinds.${state.kind}.object`)}
            onCancel={cancel}
          />
        ) : null}
        <Box role="status" aria-live="polite" sx={{ mt: state.phase === 'idle' || running ? 0 : 2 }}>
          <ExportOutcome state={state} />
        </Box>
      </CardContent>
    </Card>
  );
}
