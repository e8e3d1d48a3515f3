import { useState } from 'react';
import { Button } from '@mui/material';
import LogoutIcon from '@mui/icons-material/Logout';
import { usePermissions, useRecordContext } from 'react-admin';
import { ConfirmActionDialog } from '../common/ActionDialog';
import { useConsoleAction } from '../common/useConsoleAction';
import { canRevoke, isAdmin, STAFF_ROLES } from '../permissions';
import type { User } from './types';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function SignOutEverywhereDialog({ user, onClose }: { user: User; onClose(): void }) {
  const who = user.name || user.email;
  const signOut = useConsoleAction(
    (dataProvider) => dataProvider.signOutEverywhere(user.id),
    (result) =>
      `Signed ${who} out: ${plural(result.sessions, 'session', 'sessions')} and ${plural(result.devices, 'device token', 'device tokens')} ended.`,
  );
  return (
    <ConfirmActionDialog
      title="Sign out everywhere?"
      question={`Sign ${who} out of every browser and every device?`}
      details="Every session and device token of this person ends at once: they sign in again by email, and each device needs a new code and their approval. The audit log keeps who did it."
      busyLabel="Signing out…"
      confirmLabel="Sign out everywhere"
      failure={`${who} could not be signed out.`}
      mutation={signOut}
      onClose={onClose}
    />
  );
}

/** Ends every browser session and device token of the person shown, after confirmation; the API audits it. */
export function SignOutEverywhereButton() {
  const user = useRecordContext<User>();
  const { permissions } = usePermissions();
  const [open, setOpen] = useState(false);
  if (!user || !canRevoke(permissions, 'sessions')) return null;
  const staffAccount = user.roles.some((role) => STAFF_ROLES.includes(role));
  if (staffAccount && !isAdmin(permissions)) return null; // only administrators sign out staff (the API's rule)

  return (
    <>
      <Button size="small" color="warning" startIcon={<LogoutIcon />} onClick={() => setOpen(true)}>
        Sign out everywhere
      </Button>
      {open && <SignOutEverywhereDialog user={user} onClose={() => setOpen(false)} />}
    </>
  );
}
