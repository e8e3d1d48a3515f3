import { useState } from 'react';
import { Button } from '@mui/material';
import BlockIcon from '@mui/icons-material/Block';
import LockOpenIcon from '@mui/icons-material/LockOpen';
import { useGetIdentity, usePermissions, useRecordContext, useTranslate } from 'react-admin';
import { ConfirmActionDialog } from '../common/ActionDialog';
import { ReasonField, useReason } from '../common/ReasonField';
import { useConsoleAction } from '../common/useConsoleAction';
import { canRevoke, mayActOnPerson } from '../permissions';
import type { User } from './types';

function BlockDialog({ user, onClose }: { user: User; onClose(): void }) {
  const translate = useTranslate();
  const reason = useReason();
  const who = user.name || user.email;
  const block = useConsoleAction(
    (dataProvider) =>
      reason.check()
        ? dataProvider.blockUser(user.id, reason.trimmed)
        : Promise.reject(new Error(translate('resources.users.block.reasonRequired'))),
    (result) => ({
      message: 'resources.users.block.done',
      messageArgs: {
        who,
        sessions: translate('resources.users.signOut.sessions', { smart_count: result.signedOut.sessions }),
        devices: translate('resources.users.signOut.devices', { smart_count: result.signedOut.devices }),
      },
    }),
  );
  return (
    <ConfirmActionDialog
      title="resources.users.block.title"
      question={translate('resources.users.block.question', { who })}
      details={translate('resources.users.block.details', { email: user.email })}
      busyLabel="resources.users.block.busy"
      confirmLabel="resources.users.block.button"
      failure={translate('resources.users.block.failure', { who })}
      mutation={block}
      onClose={onClose}
    >
      <ReasonField
        words={{
          label: 'resources.users.block.reason',
          help: 'resources.users.block.reasonHelp',
          required: 'resources.users.block.reasonRequired',
        }}
        field={reason.field}
      />
    </ConfirmActionDialog>
  );
}

function UnblockDialog({ user, onClose }: { user: User; onClose(): void }) {
  const translate = useTranslate();
  const who = user.name || user.email;
  const unblock = useConsoleAction(
    (dataProvider) => dataProvider.unblockUser(user.id),
    () => ({ message: 'resources.users.unblock.done', messageArgs: { who } }),
  );
  return (
    <ConfirmActionDialog
      title="resources.users.unblock.title"
      question={translate('resources.users.unblock.question', { who })}
      details="resources.users.unblock.details"
      busyLabel="resources.users.unblock.busy"
      confirmLabel="resources.users.unblock.button"
      failure={translate('resources.users.unblock.failure', { who })}
      mutation={unblock}
      onClose={onClose}
    />
  );
}

/**
 * Blocks the person shown, with a reason, or unblocks them (POST /api/admin/users/:id/block|unblock). Support and
 * admins; staff accounts only administrators, and never one's own account (the API's rules).
 */
export function BlockButton() {
  const user = useRecordContext<User>();
  const { permissions } = usePermissions();
  const { identity } = useGetIdentity();
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  if (!user || !canRevoke(permissions, 'sessions') || identity?.id === user.id) return null;
  if (!mayActOnPerson(permissions, user)) return null;
  const blocked = Boolean(user.blockedAt);
  return (
    <>
      <Button
        size="small"
        color={blocked ? 'primary' : 'error'}
        startIcon={blocked ? <LockOpenIcon /> : <BlockIcon />}
        onClick={() => setOpen(true)}
      >
        {translate(blocked ? 'resources.users.unblock.button' : 'resources.users.block.button')}
      </Button>
      {open &&
        (blocked ? (
          <UnblockDialog user={user} onClose={() => setOpen(false)} />
        ) : (
          <BlockDialog user={user} onClose={() => setOpen(false)} />
        ))}
    </>
  );
}
