import { choicesOf, type ChipLook } from '../common/chipLooks';
import type { JobState } from './types';

/** Each state's chip: failed red, waiting to run again or running amber, done green; labels are catalog keys. */
export const STATE_LOOKS: Record<JobState, ChipLook> = {
  created: { label: 'console.jobs.state.created', color: 'default' },
  retry: { label: 'console.jobs.state.retry', color: 'warning', outlined: true },
  active: { label: 'console.jobs.state.active', color: 'warning' },
  completed: { label: 'console.jobs.state.completed', color: 'success' },
  cancelled: { label: 'console.jobs.state.cancelled', color: 'default' },
  failed: { label: 'console.jobs.state.failed', color: 'error' },
};

export const STATE_CHOICES = choicesOf(STATE_LOOKS);

/** The kinds of job the API defines (api/src/mail/outbox.ts, api/src/jobs/recurring.ts); add one here when it adds one. */
export const NAME_LABELS: Record<string, string> = {
  'send-email': 'console.jobs.kind.sendEmail',
  'expire-transfers': 'console.jobs.kind.expireTransfers',
  'expire-checkouts': 'console.jobs.kind.expireCheckouts',
  prune: 'console.jobs.kind.prune',
  'workshop-reminders': 'console.jobs.kind.workshopReminders',
  'requeue-emails': 'console.jobs.kind.requeueEmails',
};

export const NAME_CHOICES = Object.entries(NAME_LABELS).map(([id, name]) => ({ id, name }));

/** States whose startAfter is when the job runs next. */
export const WAITING_STATES: readonly JobState[] = ['created', 'retry'];
