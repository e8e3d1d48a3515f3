import jobs from '../jobs';
import outboxEmails from '../outbox-emails';
import users from '../users';
import { accessOf } from './access';
import type { ConsoleResource } from './types';

export const IDENTITY_RESOURCES: ConsoleResource[] = [
  {
    ...accessOf('users'),
    ...users,
    group: 'People',
  },
  {
    ...accessOf('outbox-emails'),
    ...outboxEmails,
    group: 'System',
  },
  { ...accessOf('jobs'), ...jobs, group: 'System' },
  { ...accessOf('accounts'), hidden: true, group: 'People' },
  { ...accessOf('sessions'), hidden: true, group: 'People' },
  // Sign-in links and device approvals in flight: no screens, listed so the registry names every API resource.
  { ...accessOf('verification-tokens'), hidden: true, group: 'People' },
  { ...accessOf('device-verifications'), hidden: true, group: 'People' },
  {
    ...accessOf('device-access-tokens'),
    hidden: true,
    group: 'People',
  },
];
