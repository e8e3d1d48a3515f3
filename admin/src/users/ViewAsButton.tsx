import { useState } from 'react';
import { Button, MenuItem, TextField } from '@mui/material';
import VisibilityIcon from '@mui/icons-material/VisibilityOutlined';
import { useMutation } from '@tanstack/react-query';
import { useDataProvider, usePermissions, useRecordContext, useTranslate } from 'react-admin';
import { ConfirmActionDialog } from '../common/ActionDialog';
import { ReasonField, useReason } from '../common/ReasonField';
import type { ConsoleDataProvider } from '../dataProvider';
import { canRevoke, isStaffAccount } from '../permissions';
import type { User } from './types';

const DURATIONS = [5, 15, 30];

function ViewAsDialog({ user, onClose }: { user: User; onClose(): void }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const reason = useReason();
  const [minutes, setMinutes] = useState(15);
  const who = user.name || user.email;
  const start = useMutation({
    mutationFn: async () => {
      if (!reason.check()) throw new Error(translate('resources.users.viewAs.reasonRequired'));
      const { data } = await dataProvider.startViewAs(user.id, reason.trimmed, minutes);
      // The storefront, in a new tab, as this person: the console stays yours.
      window.open(data.path, '_blank', 'noopener');
      return data;
    },
  });
  return (
    <ConfirmActionDialog
      title="resources.users.viewAs.title"
      question={translate('resources.users.viewAs.question', { who })}
      details="resources.users.viewAs.details"
      busyLabel="resources.users.viewAs.busy"
      confirmLabel="resources.users.viewAs.button"
      failure={translate('resources.users.viewAs.failure')}
      mutation={start}
      onClose={onClose}
    >
      <ReasonField
        words={{
          label: 'resources.users.viewAs.reason',
          help: 'resources.users.viewAs.reasonHelp',
          required: 'resources.users.viewAs.reasonRequired',
        }}
        field={reason.field}
      />
      <TextField
        select
        label={translate('resources.users.viewAs.minutes')}
        value={minutes}
        onChange={(event) => setMinutes(Number(event.target.value))}
        sx={{ mt: 2, minWidth: 200 }}
      >
        {DURATIONS.map((m) => (
          <MenuItem key={m} value={m}>
            {translate('resources.users.viewAs.forMinutes', { smart_count: m })}
          </MenuItem>
        ))}
      </TextField>
    </ConfirmActionDialog>
  );
}

/**
 * Support opens the storefront as this person, read-only, for at most 30 minutes and with a reason (audited, and on
 * their timeline). Not offered for staff accounts (the API refuses them too).
 */
export function ViewAsButton() {
  const user = useRecordContext<User>();
  const { permissions } = usePermissions();
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  if (!user || !canRevoke(permissions, 'sessions')) return null; // support and admins, as for sessions
  if (isStaffAccount(user.roles)) return null;
  return (
    <>
      <Button size="small" startIcon={<VisibilityIcon />} onClick={() => setOpen(true)}>
        {translate('resources.users.viewAs.button')}
      </Button>
      {open && <ViewAsDialog user={user} onClose={() => setOpen(false)} />}
    </>
  );
}
