import type { OutboxStatus } from './types';

export const STATUS_CHOICES: { id: OutboxStatus; name: string }[] = [
  { id: 'pending', name: 'console.outbox.status.pending' },
  { id: 'sent', name: 'console.outbox.status.sent' },
  { id: 'failed', name: 'console.outbox.status.failed' },
];

/** The kinds of email the product sends (mail/templates.ts); add one here when the API adds a template. */
export const KIND_CHOICES = [{ id: 'sign-in', name: 'console.outbox.kind.signIn' }];
