import { Typography } from '@mui/material';
import {
  Datagrid,
  DateField,
  EditButton,
  FunctionField,
  Pagination,
  ReferenceManyField,
  Show,
  TabbedShowLayout,
  TextField,
  TopToolbar,
  usePermissions,
} from 'react-admin';
import { canRead, canRevoke, canWrite } from '../permissions';
import { RevokeButton } from './RevokeButton';
import { RolesField } from './RolesField';
import { SignOutEverywhereButton } from './SignOutEverywhereButton';
import type { Account, User } from './types';

function Empty({ children }: { children: string }) {
  return (
    <Typography sx={{ py: 2 }} color="text.secondary">
      {children}
    </Typography>
  );
}

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

export function UserShow() {
  const { permissions } = usePermissions();
  const mayRevokeSessions = canRevoke(permissions, 'sessions');
  const mayRevokeDevices = canRevoke(permissions, 'device-access-tokens');
  return (
    <Show actions={<UserShowActions />}>
      <TabbedShowLayout>
        <TabbedShowLayout.Tab label="Summary">
          <TextField source="email" />
          <TextField source="name" emptyText="—" />
          <RolesField label="Roles" />
          <DateField source="emailVerified" label="Email verified" showTime emptyText="Not verified" />
          <TextField source="image" label="Avatar URL" emptyText="—" />
          <FunctionField<User>
            label="Fields"
            render={(user) =>
              Object.keys(user.fields ?? {}).length ? (
                <Typography
                  component="pre"
                  variant="body2"
                  sx={{ m: 0, fontFamily: 'monospace', whiteSpace: 'pre-wrap' }}
                >
                  {JSON.stringify(user.fields, null, 2)}
                </Typography>
              ) : (
                '—'
              )
            }
          />
          <DateField source="createdAt" label="Joined" showTime />
          <DateField source="updatedAt" showTime />
          <TextField source="id" label="Id" />
        </TabbedShowLayout.Tab>

        {canRead(permissions, 'accounts') && (
          <TabbedShowLayout.Tab label="Accounts" path="accounts">
            <ReferenceManyField
              reference="accounts"
              target="userId"
              sort={{ field: 'provider', order: 'ASC' }}
              pagination={<Pagination />}
            >
              <Datagrid
                bulkActionButtons={false}
                rowClick={false}
                empty={<Empty>No external sign-in accounts: this user signs in by email.</Empty>}
              >
                <TextField source="provider" />
                <TextField source="type" />
                <TextField source="providerAccountId" label="Account id at provider" />
                <TextField source="scope" emptyText="—" />
                <FunctionField<Account> label="Token expires" render={accountExpiry} sortable={false} />
              </Datagrid>
            </ReferenceManyField>
          </TabbedShowLayout.Tab>
        )}

        {canRead(permissions, 'sessions') && (
          <TabbedShowLayout.Tab label="Sessions" path="sessions">
            <ReferenceManyField
              reference="sessions"
              target="userId"
              sort={{ field: 'createdAt', order: 'DESC' }}
              pagination={<Pagination />}
            >
              <Datagrid
                bulkActionButtons={false}
                rowClick={false}
                empty={<Empty>No active sessions: this user is signed out everywhere.</Empty>}
              >
                <DateField source="createdAt" label="Signed in" showTime />
                <DateField source="lastSeenAt" label="Last seen" showTime emptyText="—" />
                <DateField source="expires" showTime />
                <TextField source="userAgent" label="Browser" emptyText="—" sortable={false} />
                {mayRevokeSessions && <RevokeButton label="" resource="sessions" noun="session" />}
              </Datagrid>
            </ReferenceManyField>
          </TabbedShowLayout.Tab>
        )}

        {canRead(permissions, 'device-access-tokens') && (
          <TabbedShowLayout.Tab label="Device tokens" path="device-tokens">
            <ReferenceManyField
              reference="device-access-tokens"
              target="userId"
              sort={{ field: 'createdAt', order: 'DESC' }}
              pagination={<Pagination />}
            >
              <Datagrid
                bulkActionButtons={false}
                rowClick={false}
                empty={<Empty>No devices: this user has not approved any device sign-in.</Empty>}
              >
                <TextField source="clientId" label="Client" sortable={false} />
                <DateField source="createdAt" label="Approved" showTime />
                <DateField source="lastUsedAt" label="Last used" showTime emptyText="Never" />
                {mayRevokeDevices && <RevokeButton label="" resource="device-access-tokens" noun="device token" />}
              </Datagrid>
            </ReferenceManyField>
          </TabbedShowLayout.Tab>
        )}
      </TabbedShowLayout>
    </Show>
  );
}
