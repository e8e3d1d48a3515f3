import type { OutboxStatus } from './types';

export const STATUS_CHOICES: { id: OutboxStatus; name: string }[] = [
  { id: 'pending', name: 'Pending' },
  { id: 'sent', name: 'Sent' },
  { id: 'failed', name: 'Failed' },
];

/** The kinds of email the product sends (mail/templates.ts); add one here when the API adds a template. */
export const KIND_CHOICES = [{ id: 'sign-in', name: 'Sign-in link' }];
