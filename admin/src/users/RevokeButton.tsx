import { useState } from 'react';
import { Button, CircularProgress } from '@mui/material';
import BlockIcon from '@mui/icons-material/Block';
import { Confirm, useDataProvider, useNotify, useRecordContext, useRefresh, type RaRecord } from 'react-admin';

interface RevokeButtonProps {
  resource: 'sessions' | 'device-access-tokens';
  /** What is revoked, for the dialog and the notification: "session", "device token". */
  noun: string;
  /** Column header when used in a Datagrid. */
  label?: string;
}

/** Deletes one session or device token (the API revokes it), after confirmation; then notifies and refreshes. */
export function RevokeButton({ resource, noun }: RevokeButtonProps) {
  const record = useRecordContext<RaRecord>();
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  if (!record) return null;

  const revoke = async () => {
    setPending(true);
    try {
      await dataProvider.delete(resource, { id: record.id, previousData: record });
      notify(`The ${noun} was revoked.`, { type: 'success' });
      refresh();
    } catch (error) {
      notify(error instanceof Error && error.message ? error.message : `The ${noun} could not be revoked.`, {
        type: 'error',
      });
    } finally {
      setPending(false);
      setOpen(false);
    }
  };

  return (
    <>
      <Button
        size="small"
        color="error"
        startIcon={pending ? <CircularProgress size={14} color="inherit" aria-hidden /> : <BlockIcon />}
        disabled={pending}
        aria-label={`Revoke ${noun}`}
        onClick={(event) => {
          event.stopPropagation();
          setOpen(true);
        }}
      >
        Revoke
      </Button>
      <Confirm
        isOpen={open}
        loading={pending}
        title={`Revoke this ${noun}?`}
        content={`The device or browser using it is signed out at once. This cannot be undone.`}
        confirm="Revoke"
        confirmColor="warning"
        onConfirm={revoke}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
