import { useState } from 'react';
import { grantsAccess } from '../../../api/src/shared/purchase-status';
import { Button } from '@mui/material';
import PersonRemoveIcon from '@mui/icons-material/PersonRemove';
import { useGetOne, useNotify, usePermissions, useRecordContext, useRefresh } from 'react-admin';
import { ConfirmActionDialog } from '../common/ActionDialog';
import { revokeSeat } from '../common/api';
import { canManageOwnership } from '../permissions';
import type { Purchase } from '../purchases/choices';
import type { User } from '../users/types';
import type { BulkPurchase } from './types';

const seatsFree = (free: number, total: number) => `${free} of ${total} ${total === 1 ? 'seat is' : 'seats are'} free.`;

function RevokeSeatDialog({ team, member, onClose }: { team: BulkPurchase; member: Purchase; onClose(): void }) {
  const notify = useNotify();
  const refresh = useRefresh();
  const { data: user } = useGetOne<User>('users', { id: member.userId });
  const { data: product } = useGetOne<{ id: string; name: string }>('products', { id: team.productId });
  const who = user?.email ?? 'this member';
  return (
    <ConfirmActionDialog
      title="Revoke seat"
      question={`Revoke the seat of ${who}?`}
      details={
        member.userId === team.userId
          ? `The buyer loses access to ${product?.name ?? 'the course'} at once and keeps their progress. The seat is free again; they may claim it again.`
          : `They lose access to ${product?.name ?? 'the course'} at once and keep their progress, and we email them. The seat is free again for someone else; the invite link will not let them back in unless the team's owner allows it from their team page.`
      }
      busyLabel="Revoking the seat…"
      confirmLabel="Revoke seat"
      failure="The seat could not be revoked."
      action={async () => {
        const view = await revokeSeat(String(team.id), String(member.id));
        notify(`Revoked the seat of ${who}. ${seatsFree(view.seats.free, view.seats.total)}`, { type: 'success' });
        refresh();
      }}
      onFailed={refresh} // someone may have revoked it meanwhile
      onClose={onClose}
    />
  );
}

/**
 * Revoke seat (support and admins), on a member's row of a team: the member's seat purchase ends (the API
 * deletes it), the seat is free again.
 */
export function RevokeSeatButton({ team }: { team: BulkPurchase; label?: string }) {
  const member = useRecordContext<Purchase>();
  const { permissions } = usePermissions();
  const [open, setOpen] = useState(false);
  if (!member || !canManageOwnership(permissions) || !grantsAccess(member.status)) return null;
  return (
    <>
      <Button
        size="small"
        color="error"
        startIcon={<PersonRemoveIcon />}
        sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
        onClick={(event) => {
          event.stopPropagation(); // inside a row: do not open the purchase
          setOpen(true);
        }}
      >
        Revoke seat
      </Button>
      {open ? <RevokeSeatDialog team={team} member={member} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
