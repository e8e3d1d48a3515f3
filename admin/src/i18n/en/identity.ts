/** Labels of the people and system screens. */
export const identity = {
  users: {
    name: 'User |||| Users',
    emptyTitle: 'No users yet',
    emptyNote: 'People appear here the first time they sign in or buy something.',
    noneFound: 'No user matches these filters.',
    search: 'Search email or name',
    fields: {
      role: 'Role',
      email: 'Email',
      name: 'Name',
      roles: 'Roles',
      emailVerified: 'Email verified',
      createdAt: 'Joined',
      updatedAt: 'Updated',
    },
  },
  'outbox-emails': {
    name: 'Email |||| Email outbox',
    fields: {
      toAddress: 'To',
      subject: 'Subject',
      kind: 'Kind',
      status: 'Status',
      attempts: 'Attempts',
      lastError: 'Last error',
      sentAt: 'Sent',
      createdAt: 'Queued',
    },
  },
  accounts: {
    noneHere: 'No external sign-in accounts: this user signs in by email.',
    name: 'External account |||| External accounts',
    fields: { provider: 'Provider', providerAccountId: 'Account id', scope: 'Scope' },
  },
  sessions: {
    noneHere: 'No active sessions: this user is signed out everywhere.',
    name: 'Session |||| Sessions',
    fields: { createdAt: 'Signed in', lastSeenAt: 'Last seen', expires: 'Expires', userAgent: 'Browser' },
  },
  'device-access-tokens': {
    noneHere: 'No devices: this user has not approved any device sign-in.',
    name: 'Device token |||| Device tokens',
    fields: { clientId: 'Client', createdAt: 'Approved', lastUsedAt: 'Last used' },
  },
  // No screens; named for the audit log's resource filter and column.
  'verification-tokens': { name: 'Sign-in link |||| Sign-in links' },
  'device-verifications': { name: 'Device approval |||| Device approvals' },
};
