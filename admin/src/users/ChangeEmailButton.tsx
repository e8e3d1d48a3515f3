import { useState } from 'react';
import { Button, TextField } from '@mui/material';
import AlternateEmailIcon from '@mui/icons-material/AlternateEmail';
import { usePermissions, useRecordContext, useTranslate } from 'react-admin';
import { FormThenConfirmDialog } from '../common/ActionDialog';
import { useConsoleAction } from '../common/useConsoleAction';
import { canRevoke, mayActOnPerson } from '../permissions';
import type { User } from './types';

/** The shape the API accepts (it decides; this only saves a round trip for an obvious typo). */
const LOOKS_LIKE_EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

function ChangeEmailDialog({ user, onClose }: { user: User; onClose(): void }) {
  const translate = useTranslate();
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const who = user.name || user.email;
  const next = email.trim().toLowerCase();
  const change = useConsoleAction(
    (dataProvider) => dataProvider.changeUserEmail(user.id, next),
    (result) => ({
      message: 'resources.users.changeEmail.done',
      messageArgs: {
        email: result.email,
        sessions: translate('resources.users.signOut.sessions', { smart_count: result.signedOut.sessions }),
        devices: translate('resources.users.signOut.devices', { smart_count: result.signedOut.devices }),
      },
    }),
  );
  const check = () => {
    const why = !next
      ? 'resources.users.changeEmail.emailRequired'
      : !LOOKS_LIKE_EMAIL.test(next)
        ? 'resources.users.changeEmail.emailInvalid'
        : null;
    setProblem(why && translate(why));
    return !why;
  };
  return (
    <FormThenConfirmDialog
      formTitle="resources.users.changeEmail.title"
      confirmTitle="resources.users.changeEmail.confirmTitle"
      check={check}
      question={translate('resources.users.changeEmail.question', { who, from: user.email, to: next })}
      details="resources.users.changeEmail.details"
      busyLabel="resources.users.changeEmail.busy"
      confirmLabel="resources.users.changeEmail.button"
      failure="resources.users.changeEmail.failure"
      mutation={change}
      showFieldErrors={(errors) => {
        if (!errors.email) return false;
        setProblem(`${next} ${errors.email}`);
        return true;
      }}
      onClose={onClose}
    >
      {(continueStep) => (
        <TextField
          label={translate('resources.users.changeEmail.email')}
          type="email"
          value={email}
          onChange={(event) => {
            setEmail(event.target.value);
            setProblem(null);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter') continueStep();
          }}
          error={Boolean(problem)}
          helperText={problem ?? translate('resources.users.changeEmail.emailHelp', { email: user.email })}
          required
          fullWidth
          autoFocus
          sx={{ mt: 1 }}
          slotProps={{ htmlInput: { maxLength: 254, autoComplete: 'off' } }}
        />
      )}
    </FormThenConfirmDialog>
  );
}

/**
 * Changes the person's email (POST /api/admin/users/:id/change-email): a form, then a confirmation saying what it
 * does. Another account with the address is refused on the field. Staff accounts only administrators (the API's rule).
 */
export function ChangeEmailButton() {
  const user = useRecordContext<User>();
  const { permissions } = usePermissions();
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  if (!user || !canRevoke(permissions, 'sessions')) return null; // support and admins
  if (!mayActOnPerson(permissions, user)) return null;
  return (
    <>
      <Button size="small" startIcon={<AlternateEmailIcon />} onClick={() => setOpen(true)}>
        {translate('resources.users.changeEmail.button')}
      </Button>
      {open && <ChangeEmailDialog user={user} onClose={() => setOpen(false)} />}
    </>
  );
}
