import type { PaymentPlanRecord } from '@contract/commerce/payment-plans/payment-plans.schemas';
import type { Wire } from '@contract/shared/wire';
import type { ChipLook } from '../common/chipLooks';

export const PAYMENT_PLAN_STATUS_LOOKS: Record<PaymentPlanRecord['status'], ChipLook> = {
  active: { label: 'Offered', color: 'success' },
  archived: { label: 'Archived', color: 'default' },
};

/** A course's payment plan as the console sees it (the `payment-plans` resource). */
export type PaymentPlan = Wire<PaymentPlanRecord>;
