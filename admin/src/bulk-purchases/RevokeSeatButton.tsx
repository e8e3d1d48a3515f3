import { useState } from 'react';
import { grantsAccess } from '../../../api/src/shared/purchase-status';
import { Button } from '@mui/material';
import PersonRemoveIcon from '@mui/icons-material/PersonRemove';
import { useGetOne, usePermissions, useRecordContext, useTranslate } from 'react-admin';
import { ConfirmActionDialog } from '../common/ActionDialog';
import { useConsoleAction } from '../common/useConsoleAction';
import { canManageOwnership } from '../permissions';
import type { Purchase } from '../purchases/choices';
import type { User } from '../users/types';
import type { TeamPurchase } from './types';

function RevokeSeatDialog({ team, member, onClose }: { team: TeamPurchase; member: Purchase; onClose(): void }) {
  const translate = useTranslate();
  const { data: user } = useGetOne<User>('users', { id: member.userId });
  const { data: product } = useGetOne<{ id: string; name: string }>('products', { id: team.productId });
  const who = user?.email ?? translate('console.teams.revoke.thisMember');
  const course = product?.name ?? translate('console.teams.revoke.theCourse');
  const revoke = useConsoleAction(
    (dataProvider) => dataProvider.revokeSeat(String(team.id), String(member.id)),
    (view) => ({
      message: 'console.teams.revoke.done',
      messageArgs: { who, free: view.seats.free, smart_count: view.seats.total },
    }),
  );
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
      mutation={revoke}
      onClose={onClose}
    />
  );
}

/**
 * Revoke seat (support and admins), on a member's row of a team: the member's seat purchase ends (the API
 * deletes it), the seat is free again.
 */
export function RevokeSeatButton({ team }: { team: TeamPurchase; label?: string }) {
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
