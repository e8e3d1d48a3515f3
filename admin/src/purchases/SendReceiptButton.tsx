import { useState } from 'react';
import { Button } from '@mui/material';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import { useGetOne, usePermissions, useRecordContext, useTranslate } from 'react-admin';
import { grantsAccess } from '../../../api/src/shared/purchase-status';
import { ConfirmActionDialog } from '../common/ActionDialog';
import { newRequestKey } from '../common/requestKey';
import { useConsoleAction } from '../common/useConsoleAction';
import { canManageOwnership } from '../permissions';
import type { User } from '../users/types';
import type { Purchase } from './choices';

function SendReceiptDialog({ purchase, onClose }: { purchase: Purchase; onClose(): void }) {
  const translate = useTranslate();
  // A receipt is its payment's: it goes to the payer (the charge's), also after the purchase was given away.
  const { data: charge } = useGetOne<{ id: string; userId: string }>('merchant-charges', {
    id: purchase.merchantChargeId!,
  });
  const { data: payer } = useGetOne<User>('users', { id: charge?.userId ?? '' }, { enabled: Boolean(charge) });
  // One key for this dialog: a second click on Send (or a retried request) sends no second email.
  const [requestKey] = useState(newRequestKey);
  const send = useConsoleAction(
    (dataProvider) => dataProvider.sendReceiptAgain(purchase.id, requestKey),
    (sent) => ({ message: 'resources.purchases.receipt.done', messageArgs: { to: sent.toAddress } }),
  );
  return (
    <ConfirmActionDialog
      title="resources.purchases.receipt.title"
      question={translate('resources.purchases.receipt.question', { to: payer?.email ?? '…' })}
      details="resources.purchases.receipt.details"
      busyLabel="resources.purchases.receipt.busy"
      confirmLabel="resources.purchases.receipt.confirm"
      failure={translate('resources.purchases.receipt.failure')}
      mutation={send}
      onClose={onClose}
    />
  );
}

/**
 * Sends a paid purchase's receipt again (the buyer lost it), with a new sign-in link: the first one works once and
 * is never sent twice. Only for a purchase paid by itself that still grants access (the API's rule).
 */
export function SendReceiptButton() {
  const purchase = useRecordContext<Purchase>();
  const { permissions } = usePermissions();
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  if (!purchase?.merchantChargeId || !grantsAccess(purchase.status) || !canManageOwnership(permissions)) return null;
  return (
    <>
      <Button size="small" startIcon={<ReceiptLongIcon />} onClick={() => setOpen(true)}>
        {translate('resources.purchases.receipt.button')}
      </Button>
      {open ? <SendReceiptDialog purchase={purchase} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
