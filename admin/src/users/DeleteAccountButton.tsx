import { useState } from 'react';
import { Alert, AlertTitle, Button, TextField } from '@mui/material';
import PersonRemoveIcon from '@mui/icons-material/PersonRemove';
import { usePermissions, useRecordContext, useTranslate } from 'react-admin';
import { FormThenConfirmDialog } from '../common/ActionDialog';
import { useConsoleAction } from '../common/useConsoleAction';
import { canRevoke, isStaffAccount } from '../permissions';
import type { User } from './types';

function DeleteAccountDialog({ user, onClose }: { user: User; onClose(): void }) {
  const translate = useTranslate();
  const [typed, setTyped] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const who = user.name || user.email;
  const remove = useConsoleAction(
    (dataProvider) => dataProvider.deleteUserAccount(user.id, typed.trim()),
    (result) => ({
      message: 'resources.users.deleteAccount.done',
      messageArgs: {
        sessions: translate('resources.users.signOut.sessions', { smart_count: result.sessionsEnded }),
        seats: translate('resources.users.deleteAccount.seats', { smart_count: result.seatsFreed }),
      },
    }),
  );
  const check = () => {
    const matches = typed.trim().toLowerCase() === user.email.toLowerCase();
    setProblem(matches ? null : translate('resources.users.deleteAccount.mismatch'));
    return matches;
  };
  return (
    <FormThenConfirmDialog
      formTitle="resources.users.deleteAccount.title"
      confirmTitle="resources.users.deleteAccount.confirmTitle"
      continueColor="error"
      check={check}
      question={translate('resources.users.deleteAccount.question', { who })}
      details="resources.users.deleteAccount.details"
      busyLabel="resources.users.deleteAccount.busy"
      confirmLabel="resources.users.deleteAccount.button"
      failure="resources.users.deleteAccount.failure"
      mutation={remove}
      showFieldErrors={(errors) => {
        if (!errors.confirm) return false;
        setProblem(translate('resources.users.deleteAccount.mismatch'));
        return true;
      }}
      onClose={onClose}
    >
      {(continueStep) => (
        <TextField
          label={translate('resources.users.deleteAccount.email')}
          type="email"
          value={typed}
          onChange={(event) => {
            setTyped(event.target.value);
            setProblem(null);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter') continueStep();
          }}
          error={Boolean(problem)}
          helperText={problem ?? translate('resources.users.deleteAccount.emailHelp', { email: user.email })}
          required
          fullWidth
          autoFocus
          sx={{ mt: 1 }}
          slotProps={{ htmlInput: { maxLength: 320, autoComplete: 'off', spellCheck: false } }}
        />
      )}
    </FormThenConfirmDialog>
  );
}

/**
 * Deletes the person's account (POST /api/admin/users/:id/delete-account) after typing their email and confirming;
 * the API erases their data, keeps finance's records and audits it. Not offered for staff accounts, which the API
 * refuses (an administrator removes their roles first), nor for an account already deleted.
 */
export function DeleteAccountButton() {
  const user = useRecordContext<User>();
  const { permissions } = usePermissions();
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  if (!user || user.deletedAt || !canRevoke(permissions, 'sessions')) return null; // support and admins
  if (isStaffAccount(user.roles)) return null;
  return (
    <>
      <Button size="small" color="error" startIcon={<PersonRemoveIcon />} onClick={() => setOpen(true)}>
        {translate('resources.users.deleteAccount.button')}
      </Button>
      {open && <DeleteAccountDialog user={user} onClose={() => setOpen(false)} />}
    </>
  );
}

/** On a deleted person's page: since when, and what is left. Nothing for anyone else. */
export function DeletedNotice(_props: { label?: false }) {
  const user = useRecordContext<User>();
  const translate = useTranslate();
  if (!user?.deletedAt) return null;
  const when = new Date(user.deletedAt).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <Alert severity="info" role="status" sx={{ mb: 1 }}>
      <AlertTitle>{translate('resources.users.deleteAccount.deleted', { when })}</AlertTitle>
      {translate('resources.users.deleteAccount.deletedNote')}
    </Alert>
  );
}
