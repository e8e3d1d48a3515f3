import { AppError } from '../../shared/errors';

/** What an upgrade or a transfer answers for a purchase still being paid in instalments (docs/domain.md §23). */
export const planNotPaid = () =>
  new AppError(
    'payment-plan-not-paid',
    'This course is still being paid in instalments: it can be upgraded or given away once paid in full.',
  );

/** Refuses to move on with a purchase whose payment plan is not paid in full. */
export function mustBePaidInFull(purchase: { paidInFull: boolean }): void {
  if (!purchase.paidInFull) throw planNotPaid();
}
