import { useState } from 'react';
import { Button, CircularProgress } from '@mui/material';
import BlockIcon from '@mui/icons-material/Block';
import {
  Confirm,
  useDataProvider,
  useNotify,
  usePermissions,
  useRecordContext,
  useRefresh,
  useShowContext,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { mayActOnPerson } from '../permissions';

interface RevokeButtonProps {
  resource: 'sessions' | 'device-access-tokens';
  /** What is revoked, for the dialog and the notification: a catalog key ("resources.sessions.noun": "session"). */
  noun: string;
  /** Column header when used in a Datagrid. */
  label?: string;
}

/**
 * Deletes one session or device token (the API revokes it), after confirmation; then notifies and refreshes. On the
 * person's page it shows: a staff account's only to administrators (the API's rule).
 */
export function RevokeButton({ resource, noun }: RevokeButtonProps) {
  const record = useRecordContext<RaRecord>();
  const { record: person } = useShowContext<RaRecord & { roles: string[] }>();
  const { permissions } = usePermissions();
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const refresh = useRefresh();
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  if (!record || (person && !mayActOnPerson(permissions, person))) return null;
  const what = { noun: translate(noun) };

  const revoke = async () => {
    setPending(true);
    try {
      await dataProvider.delete(resource, { id: record.id, previousData: record });
      notify('resources.users.revoke.done', { type: 'success', messageArgs: what });
      refresh();
    } catch (error) {
      notify(error instanceof Error && error.message ? error.message : 'resources.users.revoke.failure', {
        type: 'error',
        messageArgs: what,
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
        aria-label={translate('resources.users.revoke.label', what)}
        onClick={(event) => {
          event.stopPropagation();
          setOpen(true);
        }}
      >
        {translate('resources.users.revoke.button')}
      </Button>
      <Confirm
        isOpen={open}
        loading={pending}
        title="resources.users.revoke.title"
        translateOptions={what}
        content="resources.users.revoke.content"
        confirm="resources.users.revoke.button"
        confirmColor="warning"
        onConfirm={revoke}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
