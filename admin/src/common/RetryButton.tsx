import { Button, CircularProgress } from '@mui/material';
import ReplayIcon from '@mui/icons-material/Replay';
import { useMutation } from '@tanstack/react-query';
import { useDataProvider, useNotify, useRecordContext, useRefresh, useTranslate, type RaRecord } from 'react-admin';
import type { ConsoleDataProvider } from '../dataProvider';

interface RetryButtonProps<R extends RaRecord> {
  /** Whether the record failed (the button shows on failed records only; the API refuses the rest with 409). */
  failed(record: R): boolean;
  retry(dataProvider: ConsoleDataProvider, record: R): Promise<unknown>;
  /** Catalog keys: the label, the success notice (with `succeeded`'s arguments) and the generic failure. */
  messages: { label: string; retried: string; retryFailed: string };
  succeeded(record: R, translate: (key: string) => string): Record<string, string>;
}

/** Runs a failed record (an email, a job) again, with a notice and a refresh either way. */
export function RetryButton<R extends RaRecord>({ failed, retry, messages, succeeded }: RetryButtonProps<R>) {
  const record = useRecordContext<R>();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const translate = useTranslate();
  const mutation = useMutation({
    mutationFn: (target: R) => retry(dataProvider, target),
    onSuccess: (_, target) => {
      notify(messages.retried, { type: 'success', messageArgs: succeeded(target, translate) });
      refresh();
    },
    onError: (error) => {
      notify(error instanceof Error && error.message ? error.message : messages.retryFailed, { type: 'error' });
      refresh();
    },
  });
  if (!record || !failed(record)) return null;
  const pending = mutation.isPending;

  return (
    <Button
      size="small"
      startIcon={pending ? <CircularProgress size={14} color="inherit" aria-hidden /> : <ReplayIcon />}
      disabled={pending}
      onClick={(event) => {
        event.stopPropagation();
        mutation.mutate(record);
      }}
    >
      {translate(messages.label)}
    </Button>
  );
}
