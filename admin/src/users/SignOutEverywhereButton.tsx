import { useState } from 'react';
import { Button } from '@mui/material';
import LogoutIcon from '@mui/icons-material/Logout';
import { usePermissions, useRecordContext, useTranslate } from 'react-admin';
import { ConfirmActionDialog } from '../common/ActionDialog';
import { useConsoleAction } from '../common/useConsoleAction';
import { canRevoke, mayActOnPerson } from '../permissions';
import type { User } from './types';

function SignOutEverywhereDialog({ user, onClose }: { user: User; onClose(): void }) {
  const translate = useTranslate();
  const who = user.name || user.email;
  const signOut = useConsoleAction(
    (dataProvider) => dataProvider.signOutEverywhere(user.id),
    (result) => ({
      message: 'resources.users.signOut.done',
      messageArgs: {
        who,
        sessions: translate('resources.users.signOut.sessions', { smart_count: result.sessions }),
        devices: translate('resources.users.signOut.devices', { smart_count: result.devices }),
      },
    }),
  );
  return (
    <ConfirmActionDialog
      title="resources.users.signOut.title"
      question={translate('resources.users.signOut.question', { who })}
      details="resources.users.signOut.details"
      busyLabel="resources.users.signOut.busy"
      confirmLabel="resources.users.signOut.button"
      failure={translate('resources.users.signOut.failure', { who })}
      mutation={signOut}
      onClose={onClose}
    />
  );
}

/** Ends every browser session and device token of the person shown, after confirmation; the API audits it. */
export function SignOutEverywhereButton() {
  const user = useRecordContext<User>();
  const { permissions } = usePermissions();
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  if (!user || !canRevoke(permissions, 'sessions')) return null;
  if (!mayActOnPerson(permissions, user)) return null; // only administrators sign out staff (the API's rule)

  return (
    <>
      <Button size="small" color="warning" startIcon={<LogoutIcon />} onClick={() => setOpen(true)}>
        {translate('resources.users.signOut.button')}
      </Button>
      {open && <SignOutEverywhereDialog user={user} onClose={() => setOpen(false)} />}
    </>
  );
}
