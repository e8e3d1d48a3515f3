import { useState } from 'react';
import { Button, CircularProgress } from '@mui/material';
import ReplayIcon from '@mui/icons-material/Replay';
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
  const [pending, setPending] = useState(false);
  if (!record || record.status !== 'failed') return null;

  const retry = async () => {
    setPending(true);
    try {
      await dataProvider.retryOutboxEmail(record.id);
      notify('console.outbox.retried', { type: 'success', messageArgs: { to: record.toAddress } });
      refresh();
    } catch (error) {
      notify(error instanceof Error && error.message ? error.message : 'console.outbox.retryFailed', { type: 'error' });
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
      {translate('console.outbox.retry')}
    </Button>
  );
}
