import { useState } from 'react';
import { Button } from '@mui/material';
import CancelScheduleSendIcon from '@mui/icons-material/CancelScheduleSend';
import { useGetOne, usePermissions, useRecordContext } from 'react-admin';
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
  const recipientName = recipient?.email ?? 'the recipient';
  const cancel = useConsoleAction(
    (dataProvider) => dataProvider.cancelTransfer(transfer.id),
    (fresh) =>
      `Canceled the transfer to ${recipientName}. The purchase can be offered again until ${day(fresh.expiresAt)}.`,
  );
  return (
    <ConfirmActionDialog
      title="Cancel transfer"
      question={`Cancel the transfer of this purchase to ${recipientName}?`}
      details={`${recipientName} can no longer accept it, and the purchase stays with its owner, who may offer it again until ${day(transfer.expiresAt)}.`}
      busyLabel="Canceling the transfer…"
      confirmLabel="Cancel transfer"
      cancelLabel="Keep it"
      failure="The transfer could not be canceled."
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
        Cancel transfer
      </Button>
      {open ? <CancelTransferDialog transfer={transfer} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
