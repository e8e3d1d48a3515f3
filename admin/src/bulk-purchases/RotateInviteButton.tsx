import { useState } from 'react';
import { Button } from '@mui/material';
import AutorenewIcon from '@mui/icons-material/Autorenew';
import { usePermissions, useTranslate } from 'react-admin';
import { grantsAccess } from '../../../api/src/shared/purchase-status';
import { ConfirmActionDialog } from '../common/ActionDialog';
import { useConsoleAction } from '../common/useConsoleAction';
import { canManageOwnership } from '../permissions';
import type { TeamPurchase } from './types';

/**
 * Rotate the invite link (support and admins): a new code; the old link stops working at once (the storefront tells
 * whoever opens it to ask for the current link). Audited.
 */
export function RotateInviteButton({ team }: { team: TeamPurchase }) {
  const { permissions } = usePermissions();
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const rotate = useConsoleAction(
    (dataProvider) => dataProvider.rotateTeamInvite(String(team.id)),
    () => 'console.teams.rotate.done',
  );
  if (!canManageOwnership(permissions) || !grantsAccess(team.status)) return null;
  return (
    <>
      <Button size="small" startIcon={<AutorenewIcon />} onClick={() => setOpen(true)}>
        {translate('console.teams.rotate.title')}
      </Button>
      {open ? (
        <ConfirmActionDialog
          title="console.teams.rotate.title"
          question="console.teams.rotate.question"
          details="console.teams.rotate.details"
          busyLabel="console.teams.rotate.busy"
          confirmLabel="console.teams.rotate.confirm"
          failure="console.teams.rotate.failure"
          mutation={rotate}
          onClose={() => setOpen(false)}
        />
      ) : null}
    </>
  );
}
