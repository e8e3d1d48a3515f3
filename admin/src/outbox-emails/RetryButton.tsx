import { Button, CircularProgress } from '@mui/material';
import ReplayIcon from '@mui/icons-material/Replay';
import { useMutation } from '@tanstack/react-query';
import { useDataProvider, useNotify, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../dataProvider';
import type { OutboxEmail } from './types';

/** Makes a failed email due again (the API refuses, 409, when it is not failed); shown on failed emails only. */
export function RetryButton() {
  const record = useRecordContext<OutboxEmail>();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const translate = useTranslate();
  const retry = useMutation({
    mutationFn: (email: OutboxEmail) => dataProvider.retryOutboxEmail(email.id),
    onSuccess: (_, email) => {
      notify('console.outbox.retried', { type: 'success', messageArgs: { to: email.toAddress } });
      refresh();
    },
    onError: (error) => {
      notify(error instanceof Error && error.message ? error.message : 'console.outbox.retryFailed', { type: 'error' });
      refresh();
    },
  });
  if (!record || record.status !== 'failed') return null;
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
      {translate('console.outbox.retry')}
    </Button>
  );
}
