import type { ReactNode } from 'react';
import {
  EditButton,
  FunctionField,
  Show,
  TabbedShowLayout,
  TextField,
  TopToolbar,
  usePermissions,
  useRecordContext,
} from 'react-admin';
import { date, text } from '../common/columns';
import { json } from '../common/JsonField';
import { relatedTab } from '../common/RelatedTab';
import { canRead, canRevoke, canWrite, isStaff } from '../permissions';
import { Timeline } from '../timeline/Timeline';
import { RevokeButton } from './RevokeButton';
import { RolesField } from './RolesField';
import { SignOutEverywhereButton } from './SignOutEverywhereButton';
import { BlockButton } from './BlockButton';
import { BlockedNotice } from './BlockedNotice';
import { ChangeEmailButton } from './ChangeEmailButton';
import { DeleteAccountButton, DeletedNotice } from './DeleteAccountButton';
import { DownloadDataButton } from './DownloadDataButton';
import { PersonEmails } from './PersonEmails';
import { PersonPurchases } from './PersonPurchases';
import { ViewAsButton } from './ViewAsButton';
import type { Account, User } from './types';

function accountExpiry(account: Account): string {
  if (account.expiresAt === null || account.expiresAt === '') return '—';
  const seconds = Number(account.expiresAt);
  return Number.isFinite(seconds) ? new Date(seconds * 1000).toLocaleString() : '—';
}

function UserShowActions() {
  const { permissions } = usePermissions();
  const user = useRecordContext<User>();
  // A deleted account is what finance keeps: nothing about the person is left to change or act on.
  if (user?.deletedAt) return <TopToolbar />;
  return (
    <TopToolbar>
      <ViewAsButton />
      <ChangeEmailButton />
      <SignOutEverywhereButton />
      <BlockButton />
      <DownloadDataButton />
      <DeleteAccountButton />
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

function UserTimeline(_props: { label?: false }) {
  const user = useRecordContext<User>();
  return user ? <Timeline of="users" id={user.id} /> : null;
}

export function UserShow() {
  const { permissions } = usePermissions();
  const mayRevokeSessions = canRevoke(permissions, 'sessions');
  const mayRevokeDevices = canRevoke(permissions, 'device-access-tokens');
  return (
    <Show actions={<UserShowActions />}>
      <TabbedShowLayout>
        <TabbedShowLayout.Tab label="resources.users.tabs.summary">
          <BlockedNotice label={false} />
          <DeletedNotice label={false} />
          <TextField source="email" />
          {text('name', { emptyText: '—' })}
          <RolesField label="resources.users.fields.roles" />
          {date('emailVerified', {
            label: 'resources.users.fields.emailVerified',
            emptyText: 'resources.users.notVerified',
          })}
          {text('image', { label: 'resources.users.avatar', emptyText: '—' })}
          {json('fields', 'resources.users.profileFields')}
          {date('createdAt', { label: 'resources.users.fields.createdAt' })}
          {date('updatedAt')}
          {text('id', { label: 'resources.users.fields.id' })}
        </TabbedShowLayout.Tab>

        {canRead(permissions, 'purchases') && (
          <TabbedShowLayout.Tab label="resources.users.tabs.purchases" path="purchases">
            <PersonPurchases label={false} />
          </TabbedShowLayout.Tab>
        )}

        {isStaff(permissions) && (
          <TabbedShowLayout.Tab label="console.timeline.tab" path="timeline">
            <UserTimeline label={false} />
          </TabbedShowLayout.Tab>
        )}

        {mayRevokeSessions && (
          <TabbedShowLayout.Tab label="resources.users.tabs.emails" path="emails">
            <PersonEmails label={false} permissions={permissions} />
          </TabbedShowLayout.Tab>
        )}

        {relatedTab(permissions, 'resources.users.tabs.accounts', 'accounts', {
          ...signIns('accounts', [
            text('provider', { sortable: true }),
            text('type', { sortable: true }),
            text('providerAccountId', { label: 'resources.accounts.atProvider', sortable: true }),
            text('scope', { emptyText: '—', sortable: true }),
            <FunctionField<Account>
              key="expiresAt"
              label="resources.accounts.tokenExpires"
              render={accountExpiry}
              sortable={false}
            />,
          ]),
          sort: { field: 'provider', order: 'ASC' },
        })}

        {relatedTab(permissions, 'resources.users.tabs.sessions', 'sessions', {
          ...signIns('sessions', [
            date('createdAt', { label: 'resources.sessions.fields.createdAt' }),
            date('lastSeenAt', { label: 'resources.sessions.fields.lastSeenAt', emptyText: '—' }),
            date('expires'),
            text('userAgent', { label: 'resources.sessions.fields.userAgent', emptyText: '—' }),
            mayRevokeSessions && (
              <RevokeButton key="revoke" label="" resource="sessions" noun="resources.sessions.noun" />
            ),
          ]),
        })}

        {relatedTab(permissions, 'resources.users.tabs.devices', 'device-tokens', {
          ...signIns('device-access-tokens', [
            text('clientId', { label: 'resources.device-access-tokens.fields.clientId' }),
            date('createdAt', { label: 'resources.device-access-tokens.fields.createdAt' }),
            date('lastUsedAt', {
              label: 'resources.device-access-tokens.fields.lastUsedAt',
              emptyText: 'resources.device-access-tokens.never',
            }),
            mayRevokeDevices && (
              <RevokeButton
                key="revoke"
                label=""
                resource="device-access-tokens"
                noun="resources.device-access-tokens.noun"
              />
            ),
          ]),
        })}
      </TabbedShowLayout>
    </Show>
  );
}
