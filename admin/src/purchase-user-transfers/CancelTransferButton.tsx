import { useState } from 'react';
import { Button } from '@mui/material';
import CancelScheduleSendIcon from '@mui/icons-material/CancelScheduleSend';
import { useGetOne, usePermissions, useRecordContext, useTranslate } from 'react-admin';
import { ConfirmActionDialog } from '../common/ActionDialog';
import { useConsoleAction } from '../common/useConsoleAction';
import { canManageOwnership } from '../permissions';
import type { User } from '../users/types';
import { CANCELABLE_TRANSFER_STATES, type TransferState } from '../../../api/src/shared/transfer-states';
import type { PurchaseUserTransfer } from './choices';

/** The states support may cancel (POST /api/admin/purchase-user-transfers/:id/cancel): the API's own list. */
const CANCELABLE: readonly TransferState[] = CANCELABLE_TRANSFER_STATES;

const day = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

function CancelTransferDialog({ transfer, onClose }: { transfer: PurchaseUserTransfer; onClose(): void }) {
  const { data: recipient } = useGetOne<User>(
    'users',
    { id: transfer.targetUserId ?? '' },
    { enabled: Boolean(transfer.targetUserId) },
  );
  const translate = useTranslate();
  const recipientName = recipient?.email ?? translate('resources.purchase-user-transfers.cancel.theRecipient');
  const cancel = useConsoleAction(
    (dataProvider) => dataProvider.cancelTransfer(transfer.id),
    (fresh) => ({
      message: 'resources.purchase-user-transfers.cancel.done',
      messageArgs: { who: recipientName, day: day(fresh.expiresAt) },
    }),
  );
  return (
    <ConfirmActionDialog
      title="resources.purchase-user-transfers.cancel.title"
      question={translate('resources.purchase-user-transfers.cancel.question', { who: recipientName })}
      details={translate('resources.purchase-user-transfers.cancel.details', {
        who: recipientName,
        day: day(transfer.expiresAt),
      })}
      busyLabel="resources.purchase-user-transfers.cancel.busy"
      confirmLabel="resources.purchase-user-transfers.cancel.title"
      cancelLabel="resources.purchase-user-transfers.cancel.keep"
      failure="resources.purchase-user-transfers.cancel.failure"
      mutation={cancel}
      onClose={onClose}
    />
  );
}

interface CancelTransferButtonProps {
  /** Column header, in a Datagrid. */
  label?: string;
  /** A transfer whose button the page already shows elsewhere. */
  skip?: string;
}

/** Cancel transfer (support and admins), while the transfer is INITIATED or VERIFIED; the API reopens it as AVAILABLE. */
export function CancelTransferButton({ skip }: CancelTransferButtonProps) {
  const transfer = useRecordContext<PurchaseUserTransfer>();
  const { permissions } = usePermissions();
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  if (
    !transfer ||
    transfer.id === skip ||
    !canManageOwnership(permissions) ||
    !CANCELABLE.includes(transfer.transferState)
  )
    return null;
  return (
    <>
      <Button
        size="small"
        color="error"
        startIcon={<CancelScheduleSendIcon />}
        sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
        onClick={(event) => {
          event.stopPropagation(); // inside a row: do not open the transfer
          setOpen(true);
        }}
      >
        {translate('resources.purchase-user-transfers.cancel.title')}
      </Button>
      {open ? <CancelTransferDialog transfer={transfer} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
