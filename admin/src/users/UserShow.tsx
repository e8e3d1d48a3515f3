import { EditButton, FunctionField, Show, TabbedShowLayout, TextField, TopToolbar, usePermissions } from 'react-admin';
import { date, text } from '../common/columns';
import { json } from '../common/JsonField';
import { RelatedRows } from '../common/Rows';
import { canRead, canRevoke, canWrite } from '../permissions';
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

/** The user's records of a sign-in resource (accounts, sessions, device tokens), a page at a time; rows do not open. */
function SignInRows({ reference, ...props }: Omit<Parameters<typeof RelatedRows>[0], 'target' | 'empty'>) {
  return (
    <RelatedRows
      reference={reference}
      target="userId"
      paginated
      rowClick={false}
      empty={`resources.${reference}.noneHere`}
      {...props}
    />
  );
}

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

        {canRead(permissions, 'accounts') && (
          <TabbedShowLayout.Tab label="Accounts" path="accounts">
            <SignInRows reference="accounts" sort={{ field: 'provider', order: 'ASC' }}>
              <TextField source="provider" />
              <TextField source="type" />
              <TextField source="providerAccountId" label="Account id at provider" />
              <TextField source="scope" emptyText="—" />
              <FunctionField<Account> label="Token expires" render={accountExpiry} sortable={false} />
            </SignInRows>
          </TabbedShowLayout.Tab>
        )}

        {canRead(permissions, 'sessions') && (
          <TabbedShowLayout.Tab label="Sessions" path="sessions">
            <SignInRows reference="sessions">
              {date('createdAt', { label: 'Signed in' })}
              {date('lastSeenAt', { label: 'Last seen', emptyText: '—' })}
              {date('expires')}
              {text('userAgent', { label: 'Browser', emptyText: '—' })}
              {mayRevokeSessions && <RevokeButton label="" resource="sessions" noun="session" />}
            </SignInRows>
          </TabbedShowLayout.Tab>
        )}

        {canRead(permissions, 'device-access-tokens') && (
          <TabbedShowLayout.Tab label="Device tokens" path="device-tokens">
            <SignInRows reference="device-access-tokens">
              {text('clientId', { label: 'Client' })}
              {date('createdAt', { label: 'Approved' })}
              {date('lastUsedAt', { label: 'Last used', emptyText: 'Never' })}
              {mayRevokeDevices && <RevokeButton label="" resource="device-access-tokens" noun="device token" />}
            </SignInRows>
          </TabbedShowLayout.Tab>
        )}
      </TabbedShowLayout>
    </Show>
  );
}
