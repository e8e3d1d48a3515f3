import type { RefundReason } from '../shared/refund-reasons';
import type { BuyerTaxPlace, TaxAnswer } from '../tax/types';

/** What checkout and refunds need from a payment provider; Stripe and the built-in test provider implement it. */
export interface CheckoutRequest {
  /** Our checkout id, kept by the provider as its reference. */
  reference: string;
  product: { id: string; name: string };
  price: { id: string; unitAmount: number };
  quantity: number;
  description: string;
  /** Everything taken off the full price (percentage discount, upgrade credit), in cents. */
  discount: { amount: number; label: string } | null;
  amount: number; // cents, after every discount
  currency: string;
  customerEmail: string;
  successUrl: string;
  cancelUrl: string;
  /** What the provider shows on its own dashboard next to the payment. */
  metadata: Record<string, string>;
  /** The tax quoted (inside `amount`, or already added to it): the hosted page shows it; null where none applies. */
  tax?: TaxAnswer | null;
  /** The currency's prices include tax (a provider computing tax itself, Stripe Tax, is told so). */
  taxInclusive?: boolean;
  /** Where the buyer is, and the business's name and VAT ID, for a provider computing tax itself. */
  billing?: BuyerTaxPlace & { company: string | null; address: string | null };
}

/**
 * What the processor settled for one movement of money, in its settlement currency (its balance transaction:
 * docs/domain.md §20). Amount and fee are magnitudes; `exchangeRate` is one unit of the charge's currency in the
 * settlement's, null when none was converted.
 */
export interface Settlement {
  identifier: string;
  amount: number;
  fee: number;
  currency: string;
  exchangeRate: number | null;
}

export interface ProviderCheckout {
  status: 'open' | 'paid' | 'canceled';
  amount: number;
  currency: string;
  /** `settlement` when the provider tells what it settled (absent: it settled the charge's own amount and fee). */
  charge: { identifier: string; amount: number; fee: number; settlement?: Settlement | null } | null;
  customer: { identifier: string; email: string } | null;
  /** The tax the provider computed and charged (Stripe Tax); absent when it charged what it was asked, tax as quoted. */
  tax?: TaxAnswer | null;
}

export interface ProviderAccount {
  /** The merchant account's label: 'stripe' or 'test'. */
  label: string;
  /** The provider's own id of the account (acct_… for Stripe). */
  identifier: string;
}

export interface RefundRequest {
  chargeIdentifier: string;
  amount: number;
  /** Derived from our ids: the same key never refunds twice, however often it is sent. */
  idempotencyKey: string;
  reason: string;
  /** Why, as our code (api/src/shared/refund-reasons.ts): a provider passes on the reasons it knows. */
  reasonCode?: RefundReason | null;
}

/**
 * A provider's answer to a refund: done (with the charge's total refunded so far, ours and anyone else's, refunds it
 * holds pending included), or accepted and still pending, to be settled later by the provider's event.
 */
export type ProviderRefund = (
  | { status: 'succeeded'; identifier: string; amount: number; refundedTotal: number }
  | { status: 'pending'; identifier: string; amount: number }
) & { settlement?: Settlement | null };

/** The provider's later word on a refund it answered `pending`, as its event tells it. */
export interface RefundSettlement {
  /** The provider's id of the refund. */
  identifier: string;
  /** The key the refund was asked with, when the event carries it (it may overtake the provider's answer). */
  idempotencyKey: string | null;
  outcome: 'succeeded' | 'failed';
  /** Why it failed, in the provider's words. */
  failureReason?: string | null;
}

export interface PaymentProvider {
  label: string;
  account(): Promise<ProviderAccount>;
  /** Our MerchantAccount row's id for `account()`, created on first use and remembered by the process. */
  accountId(): Promise<string>;
  /** Opens a hosted session where the buyer pays what `request` says; its identifier names it in every later call. */
  createCheckout(request: CheckoutRequest): Promise<{ identifier: string; url: string }>;
  /** A session's state now: `paid` with its charge once the money is taken. */
  retrieveCheckout(identifier: string): Promise<ProviderCheckout>;
  /**
   * Ends an open checkout so it can no longer be paid, and answers with its final state: `canceled`, or `paid` when a
   * payment got there first (the provider decides which, once). `open` means a payment is still being processed.
   * Absent when the provider's sessions cannot be ended on request (many cannot): checkout then ends its own
   * checkout at its deadline, and settles a payment that still arrives (fulfilled if it can be, else refunded).
   */
  expireCheckout?(identifier: string): Promise<ProviderCheckout>;
  /**
   * Refunds part or all of a charge. A refund may stay pending at the provider: its outcome then arrives later as a
   * `RefundSettlement`, which the provider's events hand to commerce.
   */
  refund(request: RefundRequest): Promise<ProviderRefund>;
  /** The provider's customer now belongs to someone else (a transferred purchase): its receipts go to them. */
  updateCustomerEmail(customerIdentifier: string, email: string): Promise<void>;
  /** Its balance and payouts as it records them, for reconciliation; absent for a provider that tells none. */
  ledger?: ProcessorLedger;
  /** Recurring billing for memberships (docs/domain.md §22); absent for a provider that cannot bill again. */
  subscriptions?: SubscriptionBilling;
}

export type BillingInterval = 'month' | 'year';

/** A membership to bill every interval: the buyer subscribes at the provider's hosted page. */
export interface SubscriptionRequest {
  /** Our id for the subscription to be, kept by the provider as its reference. */
  reference: string;
  description: string;
  amount: number; // cents, each interval
  currency: string;
  interval: BillingInterval;
  trialDays: number;
  customerEmail: string;
  successUrl: string;
  cancelUrl: string;
  /** Who subscribes to what (our user, product and price ids): every event of the subscription carries it. */
  metadata: Record<string, string>;
  /** Seats billed each period (a team's membership); 1 when absent. `amount` is for all of them. */
  quantity?: number;
  /** A payment plan: the subscription ends by itself once this many periods are paid. Absent: until cancelled. */
  iterations?: number;
  /**
   * A coupon taken off each period's `amount` (docs/domain.md §22): a percentage, in basis points, for the first
   * `periods` periods billed (null: every period). Absent: none.
   */
  discount?: SubscriptionDiscount | null;
  /** The tax the buyer's place bears: added on top of each period's amount unless the price includes it. */
  tax?: { rate: number; inclusive: boolean } | null;
}

export interface SubscriptionDiscount {
  bp: number;
  periods: number | null;
  /** What the invoice calls it (the coupon's code). */
  label: string;
}

/**
 * What a provider tells of a subscription (an invoice of one period, paid, failed or a trial's, and the subscription
 * after it): the events commerce records, each once, in any order.
 */
export interface SubscriptionEvent {
  identifier: string;
  reference: string;
  metadata: Record<string, string>;
  customer: { identifier: string; email: string };
  invoice: {
    identifier: string;
    outcome: 'trial' | 'paid' | 'failed';
    periodStart: Date;
    periodEnd: Date;
    currency: string;
    /** `settlement`: what the processor settled for it, when it tells (docs/domain.md §20). */
    charge: { identifier: string; amount: number; fee: number; settlement?: Settlement | null } | null;
    /** What a coupon took off this invoice, and the tax added on top of the price (inside `charge.amount`). */
    discountAmount?: number;
    taxAmount?: number;
  };
}

/**
 * A subscription as its provider holds it at `observedAt` (Stripe's, read back on its customer.subscription.* events):
 * its status in our words, its period and whether it ends at the period's end. Commerce records it only forward.
 */
export interface SubscriptionState {
  identifier: string;
  reference: string;
  metadata: Record<string, string>;
  status: 'trialing' | 'active' | 'past_due' | 'canceled' | 'lapsed';
  cancelAtPeriodEnd: boolean;
  currentPeriodStart: Date;
  currentPeriodEnd: Date;
  observedAt: Date;
}

export interface SubscriptionBilling {
  /** Opens a hosted page where the buyer subscribes (and pays the first period unless it is a trial). */
  createSubscription(request: SubscriptionRequest): Promise<{ identifier: string; url: string }>;
  /** Ends the subscription at its period's end (true), or keeps it going again (false). */
  cancelAtPeriodEnd(identifier: string, cancel: boolean): Promise<void>;
  /** Ends the subscription now (the console's cancel); no further period is billed. */
  cancelNow?(identifier: string): Promise<void>;
  /**
   * Moves the subscription to another price (monthly ↔ yearly, a seat count) from now on, prorated: the unused part
   * of the current period is credited and the difference billed at once as an invoice, whose event follows.
   */
  changePrice?(identifier: string, change: SubscriptionPriceChange): Promise<void>;
  /**
   * Moves the subscription to another price from its current period's end (a switch with nothing to pay now): nothing
   * is billed now, and the period's end renews at the new price. Absent: the provider cannot wait for the period's end.
   */
  changePriceAtPeriodEnd?(identifier: string, change: SubscriptionPriceChange): Promise<void>;
  /** Drops a change waiting for the period's end: the period's end renews at `current`, the price billed now. */
  keepPrice?(identifier: string, current: SubscriptionPriceChange): Promise<void>;
  /** A page of the provider's where the subscriber replaces their card, returning to `returnUrl`. */
  paymentMethodUrl?(identifier: string, returnUrl: string): Promise<string>;
  /**
   * Tries a failed renewal's invoice again now (our dunning schedule). Absent for a provider that retries on its own
   * schedule (Stripe's Smart Retries).
   */
  retryFailedInvoice?(identifier: string): Promise<void>;
}

/** A subscription's new price: what each period costs from now on. */
export interface SubscriptionPriceChange {
  amount: number; // cents, each interval, for all seats
  currency: string;
  interval: BillingInterval;
  quantity: number;
  /** Our price id, carried in the subscription's metadata from now on. */
  priceId: string;
  /**
   * What commerce quoted the change bills now (a switch of interval): prorated at `at`, crediting the period ending
   * `periodEnd`. A provider that would bill otherwise (its period moved on meanwhile: a renewal got there first)
   * refuses it with `quote-changed` and bills nothing.
   */
  quoted?: { amount: number; at: Date; periodEnd: Date };
}

/** What a balance movement at the processor was for, as reconciliation matches it to our books. */
export type BalanceKind =
  'charge' | 'refund' | 'refund_failure' | 'dispute' | 'dispute_reversal' | 'transfer' | 'fee' | 'payout' | 'other';

/** One movement of the processor's balance (a Stripe balance transaction). Amounts are signed cents. */
export interface ProcessorBalanceTransaction {
  identifier: string;
  kind: BalanceKind;
  /** What it moved money for: the charge, refund, dispute, transfer or payout. */
  sourceIdentifier: string | null;
  /** The charge a refund or dispute belongs to (a charge's own id for a charge). */
  chargeIdentifier: string | null;
  amount: number;
  fee: number;
  net: number;
  currency: string;
  created: Date;
  /** The processor payout that carried its net to the bank, once one has. */
  payoutIdentifier: string | null;
}

/** Money the processor sent to the school's bank. */
export interface ProcessorPayout {
  identifier: string;
  amount: number;
  currency: string;
  status: string;
  created: Date;
  arrivalOn: Date | null;
}

/** What reconciliation reads from a processor: its balance's movements and payouts in a period [from, to). */
export interface ProcessorLedger {
  listBalanceTransactions(period: { from: Date; to: Date }): Promise<ProcessorBalanceTransaction[]>;
  listPayouts(period: { from: Date; to: Date }): Promise<ProcessorPayout[]>;
  /** The hosted checkout session a charge was paid in, when the processor knows one. */
  checkoutOfCharge(chargeIdentifier: string): Promise<string | null>;
}
