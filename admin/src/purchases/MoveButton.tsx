import { useState } from 'react';
import { Button, DialogContentText, TextField as MuiTextField } from '@mui/material';
import ForwardToInboxIcon from '@mui/icons-material/ForwardToInbox';
import { useGetOne, usePermissions, useRecordContext, useTranslate } from 'react-admin';
import { useText } from '../common/useText';
import { grantsAccess } from '../../../api/src/shared/purchase-status';
import { FormThenConfirmDialog } from '../common/ActionDialog';
import { useConsoleAction } from '../common/useConsoleAction';
import { canManageOwnership } from '../permissions';
import type { User } from '../users/types';
import type { Purchase } from './choices';

const EMAIL_MAX = 254;
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A first look at the address before asking for confirmation (a catalog key); the API has the last word (shown on the input). */
function emailProblem(email: string, ownerEmail: string | undefined): string | null {
  if (!email) return 'resources.purchases.move.noEmail';
  if (email.length > EMAIL_MAX || !EMAIL_SHAPE.test(email)) return 'resources.purchases.move.notEmail';
  if (ownerEmail && email === ownerEmail.toLowerCase()) return 'resources.purchases.move.sameOwner';
  return null;
}

/** Who may be given a purchase this way: an individual purchase that still grants access (the API's rule). */
export function isMovable(purchase: Purchase): boolean {
  return !purchase.bulkCouponId && !purchase.redeemedBulkCouponId && grantsAccess(purchase.status);
}

function MoveDialog({ purchase, onClose }: { purchase: Purchase; onClose(): void }) {
  const { data: owner } = useGetOne<User>('users', { id: purchase.userId });
  const translate = useTranslate();
  const text = useText();
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string | null>(null);
  const target = email.trim().toLowerCase();
  const ownerName = owner?.email ?? translate('resources.purchases.move.theOwner');
  const move = useConsoleAction(
    (dataProvider) => dataProvider.movePurchase(purchase.id, target),
    (moved) => ({
      message: 'resources.purchases.move.done',
      messageArgs: { owner: ownerName, recipient: moved.recipientEmail ?? target },
    }),
  );

  const check = () => {
    const issue = emailProblem(target, owner?.email);
    setEmailError(issue);
    return !issue;
  };

  return (
    <FormThenConfirmDialog
      formTitle="resources.purchases.move.button"
      confirmTitle="resources.purchases.move.confirmTitle"
      check={check}
      question={translate('resources.purchases.move.question', { owner: ownerName, target })}
      details="resources.purchases.move.details"
      busyLabel="resources.purchases.move.busy"
      cancelLabel="resources.purchases.move.back"
      confirmLabel="resources.purchases.move.confirm"
      mutation={move}
      failure="resources.purchases.move.failure"
      showFieldErrors={(errors) => {
        if (errors.email) setEmailError(errors.email);
        return Boolean(errors.email);
      }}
      onClose={onClose}
    >
      {(next) => (
        <>
          <DialogContentText>{translate('resources.purchases.move.intro', { owner: ownerName })}</DialogContentText>
          <MuiTextField
            label={translate('resources.purchases.move.email')}
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
            helperText={text(emailError ?? 'resources.purchases.move.emailHelp')}
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
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  if (!purchase || !canManageOwnership(permissions) || !isMovable(purchase)) return null;
  return (
    <>
      <Button size="small" startIcon={<ForwardToInboxIcon />} onClick={() => setOpen(true)}>
        {translate('resources.purchases.move.button')}
      </Button>
      {open ? <MoveDialog purchase={purchase} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
