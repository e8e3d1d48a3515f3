import { Button, CircularProgress } from '@mui/material';
import ReplayIcon from '@mui/icons-material/Replay';
import { useMutation } from '@tanstack/react-query';
import { useDataProvider, useNotify, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../dataProvider';
import { NAME_LABELS } from './choices';
import type { Job } from './types';

/** Runs a failed job again (the API refuses, 409, when it is not failed); shown on failed jobs only. */
export function RetryButton() {
  const record = useRecordContext<Job>();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const translate = useTranslate();
  const retry = useMutation({
    mutationFn: (job: Job) => dataProvider.retryJob(job.id),
    onSuccess: (_, job) => {
      const name = NAME_LABELS[job.name];
      notify('console.jobs.retried', {
        type: 'success',
        messageArgs: { name: name ? translate(name) : job.name },
      });
      refresh();
    },
    onError: (error) => {
      notify(error instanceof Error && error.message ? error.message : 'console.jobs.retryFailed', { type: 'error' });
      refresh();
    },
  });
  if (!record || record.state !== 'failed') return null;
  const pending = retry.isPending;

  return (
    <Button
      size="small"
      startIcon={pending ? <CircularProgress size={14} color="inherit" aria-hidden /> : <ReplayIcon />}
      disabled={pending}
      onClick={(event) => {
        event.stopPropagation();
        retry.mutate(record);
      }}
    >
      {translate('console.jobs.retry')}
    </Button>
  );
}
