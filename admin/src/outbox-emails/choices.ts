import { choicesOf, type ChipLook } from '../common/chipLooks';
import type { OutboxStatus } from './types';

/** Each delivery status's chip (a pending email is outlined: it is still on its way); labels are catalog keys. */
export const STATUS_LOOKS: Record<OutboxStatus, ChipLook> = {
  pending: { label: 'console.outbox.status.pending', color: 'warning', outlined: true },
  sent: { label: 'console.outbox.status.sent', color: 'success' },
  failed: { label: 'console.outbox.status.failed', color: 'error' },
};

export const STATUS_CHOICES = choicesOf(STATUS_LOOKS);

/** The kinds of email the product sends (mail/templates.ts); add one here when the API adds a template. */
export const KIND_CHOICES = [{ id: 'sign-in', name: 'console.outbox.kind.signIn' }];
