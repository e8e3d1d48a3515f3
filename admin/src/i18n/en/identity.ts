/** Labels of the people and system screens. */
export const identity = {
  users: {
    name: 'User |||| Users',
    emptyTitle: 'No users yet',
    emptyNote: 'People appear here the first time they sign in or buy something.',
    noneFound: 'No user matches these filters.',
    search: 'Search email or name',
    saved: 'Saved %{who}.',
    rolesAdminOnly: 'Only administrators can change roles.',
    notVerified: 'Not verified',
    avatar: 'Avatar URL',
    profileFields: 'Fields',
    tabs: { summary: 'Summary', accounts: 'Accounts', sessions: 'Sessions', devices: 'Device tokens' },
    help: {
      name: 'Leave empty to clear the name.',
      roles:
        'Admin: everything. Support: catalog, purchases, refunds, users (no role changes). Finance: reads everything commercial, exports. Contributor: the content they created. Learner: the default.',
    },
    signOut: {
      button: 'Sign out everywhere',
      title: 'Sign out everywhere?',
      question: 'Sign %{who} out of every browser and every device?',
      details:
        'Every session and device token of this person ends at once: they sign in again by email, and each device needs a new code and their approval. The audit log keeps who did it.',
      busy: 'Signing out…',
      failure: '%{who} could not be signed out.',
      done: 'Signed %{who} out: %{sessions} and %{devices} ended.',
      sessions: '%{smart_count} session |||| %{smart_count} sessions',
      devices: '%{smart_count} device token |||| %{smart_count} device tokens',
    },
    /** Revoking one session or device token; %{noun} is that resource's `noun`. */
    revoke: {
      button: 'Revoke',
      label: 'Revoke %{noun}',
      title: 'Revoke this %{noun}?',
      content: 'The device or browser using it is signed out at once. This cannot be undone.',
      done: 'The %{noun} was revoked.',
      failure: 'The %{noun} could not be revoked.',
    },
    fields: {
      role: 'Role',
      email: 'Email',
      name: 'Name',
      roles: 'Roles',
      emailVerified: 'Email verified',
      createdAt: 'Joined',
      updatedAt: 'Updated',
      id: 'Id',
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
    atProvider: 'Account id at provider',
    tokenExpires: 'Token expires',
    fields: { provider: 'Provider', providerAccountId: 'Account id', scope: 'Scope' },
  },
  sessions: {
    noneHere: 'No active sessions: this user is signed out everywhere.',
    name: 'Session |||| Sessions',
    noun: 'session',
    fields: { createdAt: 'Signed in', lastSeenAt: 'Last seen', expires: 'Expires', userAgent: 'Browser' },
  },
  'device-access-tokens': {
    noneHere: 'No devices: this user has not approved any device sign-in.',
    name: 'Device token |||| Device tokens',
    noun: 'device token',
    never: 'Never',
    fields: { clientId: 'Client', createdAt: 'Approved', lastUsedAt: 'Last used' },
  },
  // No screens; named for the audit log's resource filter and column.
  'verification-tokens': { name: 'Sign-in link |||| Sign-in links' },
  'device-verifications': { name: 'Device approval |||| Device approvals' },
};
