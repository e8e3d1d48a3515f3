import { choicesOf, type ChipLook } from '../common/chipLooks';

/** A subscription's status now (docs/domain.md §22) as a chip and a filter's choices. */
export const SUBSCRIPTION_STATUS: Record<string, ChipLook> = {
  trialing: { label: 'Trial', color: 'info' },
  active: { label: 'Active', color: 'success' },
  past_due: { label: 'Past due', color: 'warning' },
  canceled: { label: 'Canceled', color: 'default' },
  lapsed: { label: 'Lapsed', color: 'error' },
};
export const SUBSCRIPTION_STATUS_CHOICES = choicesOf(SUBSCRIPTION_STATUS);

/** A billed period's outcome. */
export const PERIOD_OUTCOME: Record<string, ChipLook> = {
  trial: { label: 'Trial', color: 'info' },
  paid: { label: 'Paid', color: 'success' },
  failed: { label: 'Failed', color: 'error' },
};
export const PERIOD_OUTCOME_CHOICES = choicesOf(PERIOD_OUTCOME);

export const INTERVAL_CHOICES = [
  { id: 'month', name: 'Monthly' },
  { id: 'year', name: 'Yearly' },
];

/** A subscription as the console's API answers it (api/src/admin/resources/subscriptions.ts). */
export interface SubscriptionRecord {
  id: string;
  userId: string;
  productId: string;
  status: string;
  interval: 'month' | 'year' | null;
  amount: number;
  currency: string;
  currentPeriodStart: string;
  currentPeriodEnd: string;
  cancelAtPeriodEnd: boolean;
  graceUntil: string | null;
  /** A payment plan's instalments and how many are paid; null for a membership. */
  instalments: number | null;
  paidPeriods: number | null;
  createdAt: string;
}

/** One billed period, with its charge's amount and what is refunded of it. */
export interface PeriodRecord {
  id: string;
  subscriptionId: string;
  outcome: 'trial' | 'paid' | 'failed';
  periodStart: string;
  periodEnd: string;
  merchantChargeId: string | null;
  invoiceId: string | null;
  amount: number | null;
  refundedAmount: number;
  currency: string | null;
  createdAt: string;
}
