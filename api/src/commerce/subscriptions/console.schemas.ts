import { z } from 'zod';
import { StaffReason } from '../../identity/schemas';
import { STAFF_REFUND_REASONS } from '../../shared/refund-reasons';
import { STAFF_REASON_MAX, STAFF_REASON_MIN } from '../../shared/staff-reason';

/** POST /api/admin/subscriptions/:id/cancel: now (no further period) or at the period's end, and why. */
export const SubscriptionCancelBody = z.strictObject({
  when: z.enum(['now', 'period-end'], 'choose now or at the end of the period'),
  reason: StaffReason,
});
export type SubscriptionCancelRequest = z.input<typeof SubscriptionCancelBody>;

/**
 * POST /api/admin/subscription-periods/:id/refund: a paid period's charge back (all of what is left unless an amount
 * is given), why as a code with a note (required with 'other'), and whether the subscription ends now with it.
 */
export const PeriodRefundBody = z
  .strictObject({
    amount: z.number().int('whole cents').positive('more than nothing').optional(),
    reasonCode: z.enum(STAFF_REFUND_REASONS, 'choose why the money goes back'),
    reason: z
      .string()
      .trim()
      .max(STAFF_REASON_MAX, `at most ${STAFF_REASON_MAX} characters`)
      .optional()
      .transform((note) => note || undefined)
      .pipe(z.string().min(STAFF_REASON_MIN, 'say why, in a few words').optional()),
    cancel: z.boolean().default(false),
  })
  .refine((body) => body.reasonCode !== 'other' || body.reason, {
    message: 'say why, in a few words',
    path: ['reason'],
  });
export type PeriodRefundRequest = z.input<typeof PeriodRefundBody>;

/** A console action's answer (in `data`): the subscription as it stands after it. */
export interface SubscriptionActionResult {
  id: string;
  status: string;
  cancelAtPeriodEnd: boolean;
  currentPeriodEnd: string;
  /** A period refund: what it gave back and the charge's refunded total, in cents; pending while the provider holds it. */
  refund?: { amount: number; refundAmount: number; full: boolean; pending?: true };
}
