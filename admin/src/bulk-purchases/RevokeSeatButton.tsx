import { useState } from 'react';
import { grantsAccess } from '../../../api/src/shared/purchase-status';
import { Button } from '@mui/material';
import PersonRemoveIcon from '@mui/icons-material/PersonRemove';
import { useGetOne, useNotify, usePermissions, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import { ConfirmActionDialog } from '../common/ActionDialog';
import { revokeSeat } from '../common/api';
import { canManageOwnership } from '../permissions';
import type { Purchase } from '../purchases/choices';
import type { User } from '../users/types';
import type { BulkPurchase } from './types';

function RevokeSeatDialog({ team, member, onClose }: { team: BulkPurchase; member: Purchase; onClose(): void }) {
  const notify = useNotify();
  const refresh = useRefresh();
  const translate = useTranslate();
  const { data: user } = useGetOne<User>('users', { id: member.userId });
  const { data: product } = useGetOne<{ id: string; name: string }>('products', { id: team.productId });
  const who = user?.email ?? translate('console.teams.revoke.thisMember');
  const course = product?.name ?? translate('console.teams.revoke.theCourse');
  return (
    <ConfirmActionDialog
      title="console.teams.revoke.title"
      question={translate('console.teams.revoke.question', { who })}
      details={translate(
        member.userId === team.userId ? 'console.teams.revoke.detailsBuyer' : 'console.teams.revoke.detailsMember',
        { course },
      )}
      busyLabel="console.teams.revoke.busy"
      confirmLabel="console.teams.revoke.title"
      failure="console.teams.revoke.failure"
      action={async () => {
        const view = await revokeSeat(String(team.id), String(member.id));
        notify('console.teams.revoke.done', {
          type: 'success',
          messageArgs: { who, free: view.seats.free, smart_count: view.seats.total },
        });
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
  const translate = useTranslate();
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
        {translate('console.teams.revoke.title')}
      </Button>
      {open ? <RevokeSeatDialog team={team} member={member} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
