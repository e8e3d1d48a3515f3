import type { ReactNode } from 'react';
import { EditButton, FunctionField, Show, TabbedShowLayout, TextField, TopToolbar, usePermissions } from 'react-admin';
import { date, text } from '../common/columns';
import { json } from '../common/JsonField';
import { relatedTab } from '../common/RelatedTab';
import { canRevoke, canWrite } from '../permissions';
import { RevokeButton } from './RevokeButton';
import { RolesField } from './RolesField';
import { SignOutEverywhereButton } from './SignOutEverywhereButton';
import type { Account } from './types';

function accountExpiry(account: Account): string {
  if (account.expiresAt === null || account.expiresAt === '') return '—';
  const seconds = Number(account.expiresAt);
  return Number.isFinite(seconds) ? new Date(seconds * 1000).toLocaleString() : '—';
}

function UserShowActions() {
  const { permissions } = usePermissions();
  return (
    <TopToolbar>
      <SignOutEverywhereButton />
      {canWrite(permissions, 'users') && <EditButton />}
    </TopToolbar>
  );
}

/** The user's records of a sign-in resource (accounts, sessions, device tokens): rows that do not open. */
const signIns = (reference: string, columns: ReactNode[]) => ({
  reference,
  target: 'userId',
  rowClick: false as const,
  empty: `resources.${reference}.noneHere`,
  children: columns,
});

export function UserShow() {
  const { permissions } = usePermissions();
  const mayRevokeSessions = canRevoke(permissions, 'sessions');
  const mayRevokeDevices = canRevoke(permissions, 'device-access-tokens');
  return (
    <Show actions={<UserShowActions />}>
      <TabbedShowLayout>
        <TabbedShowLayout.Tab label="Summary">
          <TextField source="email" />
          {text('name', { emptyText: '—' })}
          <RolesField label="Roles" />
          {date('emailVerified', { label: 'Email verified', emptyText: 'Not verified' })}
          {text('image', { label: 'Avatar URL', emptyText: '—' })}
          {json('fields', 'Fields')}
          {date('createdAt', { label: 'Joined' })}
          {date('updatedAt')}
          {text('id', { label: 'Id' })}
        </TabbedShowLayout.Tab>

        {relatedTab(permissions, 'Accounts', 'accounts', {
          ...signIns('accounts', [
            text('provider', { sortable: true }),
            text('type', { sortable: true }),
            text('providerAccountId', { label: 'Account id at provider', sortable: true }),
            text('scope', { emptyText: '—', sortable: true }),
            <FunctionField<Account> key="expiresAt" label="Token expires" render={accountExpiry} sortable={false} />,
          ]),
          sort: { field: 'provider', order: 'ASC' },
        })}

        {relatedTab(permissions, 'Sessions', 'sessions', {
          ...signIns('sessions', [
            date('createdAt', { label: 'Signed in' }),
            date('lastSeenAt', { label: 'Last seen', emptyText: '—' }),
            date('expires'),
            text('userAgent', { label: 'Browser', emptyText: '—' }),
            mayRevokeSessions && <RevokeButton key="revoke" label="" resource="sessions" noun="session" />,
          ]),
        })}

        {relatedTab(permissions, 'Device tokens', 'device-tokens', {
          ...signIns('device-access-tokens', [
            text('clientId', { label: 'Client' }),
            date('createdAt', { label: 'Approved' }),
            date('lastUsedAt', { label: 'Last used', emptyText: 'Never' }),
            mayRevokeDevices && (
              <RevokeButton key="revoke" label="" resource="device-access-tokens" noun="device token" />
            ),
          ]),
        })}
      </TabbedShowLayout>
    </Show>
  );
}
