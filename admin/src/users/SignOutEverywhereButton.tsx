import { useState } from 'react';
import { Button } from '@mui/material';
import LogoutIcon from '@mui/icons-material/Logout';
import { useNotify, usePermissions, useRecordContext, useRefresh } from 'react-admin';
import { ConfirmActionDialog } from '../common/ActionDialog';
import { httpClient } from '../dataProvider';
import { canRevoke, isAdmin, STAFF_ROLES } from '../permissions';
import type { User } from './types';
import type { SignedOut } from '@contract/identity/schemas';

/** POST /api/admin/users/:id/sign-out-everywhere (api/src/identity/admin-routes.ts): support and admins; staff accounts admins only. */
async function signOutEverywhere(userId: string): Promise<SignedOut> {
  const { json } = await httpClient(`/api/admin/users/${encodeURIComponent(userId)}/sign-out-everywhere`, {
    method: 'POST',
    body: '{}',
  });
  return json as SignedOut;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Ends every browser session and device token of the person shown, after confirmation; the API audits it. */
export function SignOutEverywhereButton() {
  const user = useRecordContext<User>();
  const { permissions } = usePermissions();
  const notify = useNotify();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  if (!user || !canRevoke(permissions, 'sessions')) return null;
  const staffAccount = user.roles.some((role) => STAFF_ROLES.includes(role));
  if (staffAccount && !isAdmin(permissions)) return null; // only administrators sign out staff (the API's rule)
  const who = user.name || user.email;

  return (
    <>
      <Button size="small" color="warning" startIcon={<LogoutIcon />} onClick={() => setOpen(true)}>
        Sign out everywhere
      </Button>
      {open && (
        <ConfirmActionDialog
          title="Sign out everywhere?"
          question={`Sign ${who} out of every browser and every device?`}
          details="Every session and device token of this person ends at once: they sign in again by email, and each device needs a new code and their approval. The audit log keeps who did it."
          busyLabel="Signing out…"
          confirmLabel="Sign out everywhere"
          failure={`${who} could not be signed out.`}
          onFailed={refresh}
          onClose={() => setOpen(false)}
          action={async () => {
            const result = await signOutEverywhere(user.id);
            notify(
              `Signed ${who} out: ${plural(result.sessions, 'session', 'sessions')} and ${plural(result.devices, 'device token', 'device tokens')} ended.`,
              {
                type: 'success',
              },
            );
            refresh();
          }}
        />
      )}
    </>
  );
}
