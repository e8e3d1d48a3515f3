import { useState } from 'react';
import { Button, CircularProgress } from '@mui/material';
import ReplayIcon from '@mui/icons-material/Replay';
import { useDataProvider, useNotify, useRecordContext, useRefresh } from 'react-admin';
import type { ConsoleDataProvider } from '../dataProvider';
import type { OutboxEmail } from './types';

/** Makes a failed email due again (the API refuses, 409, when it is not failed); shown on failed emails only. */
export function RetryButton() {
  const record = useRecordContext<OutboxEmail>();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [pending, setPending] = useState(false);
  if (!record || record.status !== 'failed') return null;

  const retry = async () => {
    setPending(true);
    try {
      await dataProvider.retryOutboxEmail(record.id);
      notify(`The email to ${record.toAddress} will be sent again shortly.`, { type: 'success' });
      refresh();
    } catch (error) {
      notify(error instanceof Error && error.message ? error.message : 'The email could not be retried.', {
        type: 'error',
      });
      refresh();
    } finally {
      setPending(false);
    }
  };

  return (
    <Button
      size="small"
      startIcon={pending ? <CircularProgress size={14} color="inherit" aria-hidden /> : <ReplayIcon />}
      disabled={pending}
      onClick={(event) => {
        event.stopPropagation();
        void retry();
      }}
    >
      Retry
    </Button>
  );
}
