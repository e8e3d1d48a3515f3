import { useState } from 'react';
import { Button, DialogContentText, TextField as MuiTextField } from '@mui/material';
import ForwardToInboxIcon from '@mui/icons-material/ForwardToInbox';
import { useGetOne, usePermissions, useRecordContext } from 'react-admin';
import { FormThenConfirmDialog } from '../common/ActionDialog';
import { useConsoleAction } from '../common/useConsoleAction';
import { canManageOwnership } from '../permissions';
import type { User } from '../users/types';
import type { Purchase } from './choices';

const EMAIL_MAX = 254;
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A first look at the address before asking for confirmation; the API has the last word (shown on the input). */
function emailProblem(email: string, ownerEmail: string | undefined): string | null {
  if (!email) return 'Enter the email address of the new owner.';
  if (email.length > EMAIL_MAX || !EMAIL_SHAPE.test(email)) return 'Enter an email address, e.g. name@example.com.';
  if (ownerEmail && email === ownerEmail.toLowerCase()) return 'This purchase already belongs to that address.';
  return null;
}

/** Who may be given a purchase this way: an individual purchase that still grants access (the API's rule). */
export function isMovable(purchase: Purchase): boolean {
  return (
    !purchase.bulkCouponId &&
    !purchase.redeemedBulkCouponId &&
    (purchase.status === 'Valid' || purchase.status === 'Restricted')
  );
}

function MoveDialog({ purchase, onClose }: { purchase: Purchase; onClose(): void }) {
  const { data: owner } = useGetOne<User>('users', { id: purchase.userId });
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string | null>(null);
  const target = email.trim().toLowerCase();
  const ownerName = owner?.email ?? 'the current owner';
  const move = useConsoleAction(
    (dataProvider) => dataProvider.movePurchase(purchase.id, target),
    (moved) => `Moved the purchase from ${ownerName} to ${moved.recipientEmail ?? target}.`,
  );

  const check = () => {
    const issue = emailProblem(target, owner?.email);
    setEmailError(issue);
    return !issue;
  };

  return (
    <FormThenConfirmDialog
      formTitle="Move to another email"
      confirmTitle="Confirm the move"
      check={check}
      question={`Move this purchase from ${ownerName} to ${target}?`}
      details="Any transfer under way is canceled. The move is kept as a completed transfer and in the audit log."
      busyLabel="Moving the purchase…"
      cancelLabel="Back"
      confirmLabel="Move"
      mutation={move}
      failure="The purchase could not be moved."
      showFieldErrors={(errors) => {
        if (errors.email) setEmailError(errors.email);
        return Boolean(errors.email);
      }}
      onClose={onClose}
    >
      {(next) => (
        <>
          <DialogContentText>
            For a buyer who typed the wrong address, or asks to give the purchase to someone else: it moves at once,
            with its charge and receipt, whatever the transfer window. {ownerName} loses access.
          </DialogContentText>
          <MuiTextField
            label="New owner's email"
            type="email"
            value={email}
            onChange={(event) => {
              setEmail(event.target.value);
              setEmailError(null);
            }}
            onKeyDown={(event) => {
              if (event.key === 'Enter') next();
            }}
            required
            fullWidth
            margin="normal"
            autoFocus
            error={Boolean(emailError)}
            helperText={emailError ?? 'An account is made for this address if it has none.'}
            slotProps={{ htmlInput: { maxLength: EMAIL_MAX, autoComplete: 'off', spellCheck: false } }}
          />
        </>
      )}
    </FormThenConfirmDialog>
  );
}

/** Move to another email (support and admins): individual purchases that still grant access only. */
export function MoveButton() {
  const purchase = useRecordContext<Purchase>();
  const { permissions } = usePermissions();
  const [open, setOpen] = useState(false);
  if (!purchase || !canManageOwnership(permissions) || !isMovable(purchase)) return null;
  return (
    <>
      <Button size="small" startIcon={<ForwardToInboxIcon />} onClick={() => setOpen(true)}>
        Move to another email
      </Button>
      {open ? <MoveDialog purchase={purchase} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
