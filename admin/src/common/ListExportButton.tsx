import DownloadIcon from '@mui/icons-material/Download';
import { Paper } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { Button, useListContext, useNotify, useResourceContext, useTranslate } from 'react-admin';
import { ExportRefused, fetchCsv, saveFile } from './csvDownload';
import { ExportProgress } from './ExportProgress';

/** The list's CSV: the API's export of this resource, with the list's own filters and sort (every page). */
function listExportUrl(resource: string, filter: object, sort: { field: string; order: string }): string {
  const query = new URLSearchParams({ filter: JSON.stringify(filter), sort: JSON.stringify([sort.field, sort.order]) });
  return `/api/admin/${encodeURIComponent(resource)}/export.csv?${query}`;
}

/**
 * Downloads what the list shows, every page of it, as CSV streamed by the API (GET /api/admin/<resource>/export.csv):
 * its progress (rows of the announced total) shows in a corner while it runs, and it may be canceled.
 */
export function ListExportButton() {
  const resource = useResourceContext()!;
  const { filterValues, sort, total } = useListContext();
  const translate = useTranslate();
  const notify = useNotify();
  const [progress, setProgress] = useState<{ rows: number; total: number | null; estimated: boolean } | null>(null);
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const start = async () => {
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    setProgress({ rows: 0, total: null, estimated: false });
    try {
      const file = await fetchCsv(listExportUrl(resource, filterValues, sort), {
        signal: current.signal,
        fallbackName: `${resource}.csv`,
        onProgress: ({ rows, total: announced, estimated }) =>
          controller.current === current && setProgress({ rows, total: announced, estimated }),
      });
      saveFile(file.blob, file.filename);
      notify('console.lists.export.done', {
        type: 'success',
        messageArgs: { smart_count: file.rows, rows: file.rows.toLocaleString('en-US'), filename: file.filename },
      });
    } catch (error) {
      if (current.signal.aborted) {
        notify('console.lists.export.canceled', { type: 'info' });
      } else if (error instanceof ExportRefused) {
        notify(error.message || translate('console.lists.export.httpFailed', { status: error.status }), {
          type: 'error',
        });
      } else {
        notify('console.lists.export.failed', {
          type: 'error',
          messageArgs: { message: error instanceof Error ? error.message : String(error) },
        });
      }
    } finally {
      if (controller.current === current) {
        controller.current = null;
        setProgress(null);
      }
    }
  };

  return (
    <>
      <Button
        label="console.lists.export.label"
        title={translate('console.lists.export.help')}
        onClick={() => void start()}
        disabled={progress !== null || total === 0}
      >
        <DownloadIcon />
      </Button>
      {progress ? (
        <Paper
          elevation={6}
          role="status"
          sx={{
            position: 'fixed',
            right: 24,
            bottom: 24,
            width: 380,
            maxWidth: 'calc(100vw - 48px)',
            px: 2,
            pb: 2,
            zIndex: 1400,
          }}
        >
          <ExportProgress
            rows={progress.rows}
            total={progress.total}
            estimated={progress.estimated}
            what={translate(`resources.${resource}.name`, { smart_count: 2, _: resource }).toLowerCase()}
            onCancel={() => controller.current?.abort()}
          />
        </Paper>
      ) : null}
    </>
  );
}
