import outboxEmails from '../outbox-emails';
import users from '../users';
import type { ConsoleResource } from './types';

export const IDENTITY_RESOURCES: ConsoleResource[] = [
  {
    name: 'users',
    read: ['support', 'finance'],
    write: ['support'],
    ...users,
    group: 'People',
  },
  {
    name: 'outbox-emails',
    read: [],
    ...outboxEmails,
    group: 'System',
  },
  { name: 'accounts', read: ['support'], write: ['support'], hidden: true, group: 'People' },
  { name: 'sessions', read: ['support'], write: ['support'], hidden: true, group: 'People' },
  {
    name: 'device-access-tokens',
    read: ['support'],
    write: ['support'],
    hidden: true,
    group: 'People',
  },
];
