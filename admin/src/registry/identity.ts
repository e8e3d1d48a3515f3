import jobs from '../jobs';
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
    // Support answers "I never got the email": they open the outbox, retry and resend (sign-in links stay hidden).
    read: ['support'],
    write: ['support'],
    ...outboxEmails,
    group: 'System',
  },
  { name: 'jobs', read: [], ...jobs, group: 'System' },
  { name: 'accounts', read: ['support'], write: ['support'], hidden: true, group: 'People' },
  { name: 'sessions', read: ['support'], write: ['support'], hidden: true, group: 'People' },
  // Sign-in links and device approvals in flight: no screens, listed so the registry names every API resource.
  { name: 'verification-tokens', read: ['support'], write: ['support'], hidden: true, group: 'People' },
  { name: 'device-verifications', read: ['support'], write: ['support'], hidden: true, group: 'People' },
  {
    name: 'device-access-tokens',
    read: ['support'],
    write: ['support'],
    hidden: true,
    group: 'People',
  },
];
