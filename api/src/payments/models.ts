import { BaseModel, table } from '../db/base-model';
import type { ActiveStatus } from '../shared/active-status';
import type { DisputeStatus } from '../shared/dispute-status';
import type { RefundReason } from '../shared/refund-reasons';

export class MerchantAccount extends table('merchantAccounts') {
  declare id: string;
  declare status: ActiveStatus;
  declare label: string;
  declare identifier: string;
  declare createdAt: Date;
}

/** A mirror of one provider object, owned by a merchant account. */
abstract class MerchantRecord extends BaseModel {
  declare id: string;
  declare merchantAccountId: string;
  declare identifier: string;
  declare status: ActiveStatus;
  declare createdAt: Date;
}

export class MerchantProduct extends MerchantRecord {
  static override tableName = 'merchantProducts';
  declare productId: string;
}

export class MerchantPrice extends MerchantRecord {
  static override tableName = 'merchantPrices';
  declare merchantProductId: string;
  declare priceId: string | null;
}

export class MerchantCustomer extends MerchantRecord {
  static override tableName = 'merchantCustomers';
  declare userId: string;
}

export class MerchantCoupon extends MerchantRecord {
  static override tableName = 'merchantCoupons';
  declare percentageDiscount: number; // numeric(5,4): four decimals, exact as a JSON number
  declare type: string | null;
}

export class MerchantSession extends MerchantRecord {
  static override tableName = 'merchantSessions';
}

export class MerchantCharge extends MerchantRecord {
  static override tableName = 'merchantCharges';
  static override jsonAttributes = ['metadata'];
  declare amount: number;
  declare fee: number;
  declare refundAmount: number;
  declare net: number;
  declare currency: string;
  declare metadata: Record<string, unknown>;
  declare userId: string;
  declare merchantProductId: string;
  declare merchantCustomerId: string | null;
  declare taxCountry: string | null;
  declare taxRegion: string | null;
  declare taxRateBp: number | null;
  declare taxName: string | null;
  declare taxInclusive: boolean | null;
  declare taxReverseCharge: boolean;
  /** Tax inside `amount` (never revenue: splits work on amount − tax − fee); refundedTax of it given back so far. */
  declare taxAmount: number;
  declare refundedTax: number;
  /** What the processor settled for it, in its settlement currency (null where it did not say): docs/domain.md §20. */
  declare settlementIdentifier: string | null;
  declare settlementAmount: number | null;
  declare settlementFee: number | null;
  declare settlementCurrency: string | null;
  declare settlementExchangeRate: number | null;
  /** Set when it was booked after its month closed: the closed month it belongs to (docs/domain.md §21). */
  declare belongsToMonth: string | null;
}

/** A provider event, stored once by its id. */
export class MerchantEvent extends table('merchantEvents') {
  declare id: string;
  declare merchantAccountId: string;
  declare identifier: string;
  declare type: string;
  declare receivedAt: Date;
  declare processedAt: Date | null;
}

/** A refund asked of the provider: how much, why, by whom. */
export class MerchantRefund extends table('merchantRefunds') {
  declare id: string;
  declare merchantAccountId: string;
  declare identifier: string;
  declare merchantChargeId: string;
  declare amount: number;
  /** Why (api/src/shared/refund-reasons.ts); null for refunds made before reasons were recorded. */
  declare reasonCode: RefundReason | null;
  /** The staff's note; required with 'other'. */
  declare reason: string | null;
  declare idempotencyKey: string;
  declare requestedById: string | null;
  declare status: 'pending' | 'succeeded' | 'failed';
  /** While a refund is pending at the provider: the email its buyer gets once it succeeds. */
  declare emailOnSuccess: Record<string, unknown> | null;
  /** The provider's reason for a refund it failed after accepting it. */
  declare failureReason: string | null;
  /** What the processor settled for it, in its settlement currency (null where it did not say): docs/domain.md §20. */
  declare settlementIdentifier: string | null;
  declare settlementAmount: number | null;
  declare settlementCurrency: string | null;
  declare settlementExchangeRate: number | null;
  /** Set when it was booked after its month closed: the closed month it belongs to (docs/domain.md §21). */
  declare belongsToMonth: string | null;
  declare createdAt: Date;
}

/** A dispute (chargeback) of a charge; once closed it never reopens. */
export class MerchantDispute extends table('merchantDisputes') {
  declare id: string;
  declare merchantAccountId: string;
  declare identifier: string;
  declare merchantChargeId: string;
  declare amount: number;
  declare reason: string | null;
  declare status: DisputeStatus;
  /** The provider's deadline for our evidence (Stripe's evidence_details.due_by), when it gave one. */
  declare evidenceDueBy: Date | null;
  /** Whether the processor withdrew its amount (an inquiry withdraws nothing), and the dispute fee it took. */
  declare withdrawn: boolean;
  declare fee: number | null;
  /** What the processor settled for it, in its settlement currency (null where it did not say): docs/domain.md §20. */
  declare settlementAmount: number | null;
  declare settlementCurrency: string | null;
  declare settlementExchangeRate: number | null;
  declare reversalSettlementAmount: number | null;
  /** Set when it was booked after its month closed: the closed month it belongs to (docs/domain.md §21). */
  declare belongsToMonth: string | null;
  declare createdAt: Date;
  declare closedAt: Date | null;
}

/** The built-in test provider's side of a checkout (what a real provider would keep). */
export class TestProviderSession extends table('testProviderSessions', { idColumn: 'identifier' }) {
  declare identifier: string;
  declare amount: number;
  declare currency: string;
  declare description: string;
  declare customerEmail: string;
  declare status: 'open' | 'paid' | 'canceled';
  declare chargeIdentifier: string | null;
  declare customerIdentifier: string | null;
  declare refunded: number;
  declare successUrl: string;
  declare cancelUrl: string;
  declare paidAt: Date | null;
  declare createdAt: Date;
}

/** Refunds the test provider made, by idempotency key: a key seen twice refunds once. */
export class TestProviderRefund extends table('testProviderRefunds', { idColumn: 'idempotencyKey' }) {
  declare idempotencyKey: string;
  declare chargeIdentifier: string;
  declare amount: number;
  /** Pending until settled when the provider holds refunds pending (`refundsPending`). */
  declare status: 'pending' | 'succeeded' | 'failed';
  declare createdAt: Date;
}

/** The built-in test provider's side of a subscription (what a real provider would keep). */
export class TestProviderSubscription extends table('testProviderSubscriptions', { idColumn: 'identifier' }) {
  declare identifier: string;
  declare reference: string;
  declare status: 'incomplete' | 'trialing' | 'active' | 'past_due' | 'canceled';
  declare amount: number;
  declare currency: string;
  declare interval: 'month' | 'year';
  declare trialDays: number;
  declare currentPeriodStart: Date | null;
  declare currentPeriodEnd: Date | null;
  declare cancelAtPeriodEnd: boolean;
  /** The card on file is declined (a renewal failed) until a new one is set on the card page. */
  declare cardDeclined: boolean;
  declare cardReturnUrl: string | null;
  /** Seats billed; the coupon's discount and the periods it has left (none: forever); tax billed on top of the price. */
  declare quantity: number;
  declare discountBp: number;
  declare discountPeriodsLeft: number | null;
  declare taxOnTopBp: number;
  /** A payment plan's instalments: after this many paid periods it ends by itself (none: until cancelled). */
  declare iterations: number | null;
}

/** One invoice of a test provider's subscription: a period billed, paid (with its charge) or failed. */
export class TestProviderSubscriptionInvoice extends table('testProviderSubscriptionInvoices', {
  idColumn: 'identifier',
}) {
  declare identifier: string;
  declare subscriptionIdentifier: string;
  declare status: 'trial' | 'paid' | 'failed';
  declare amount: number;
  declare discountAmount: number;
  declare taxAmount: number;
  declare chargeIdentifier: string | null;
  declare periodStart: Date;
  declare periodEnd: Date;
}

/** The built-in test provider's payout to the school's bank: the balance transactions it carries. */
export class TestProviderPayout extends table('testProviderPayouts', { idColumn: 'identifier' }) {
  declare identifier: string;
  declare amount: number;
  declare currency: string;
  declare createdAt: Date;
}

/** One movement of the built-in test provider's balance (a charge, refund, dispute…), as a processor reports it. */
export class TestProviderBalanceTransaction extends table('testProviderBalanceTransactions', {
  idColumn: 'identifier',
}) {
  declare identifier: string;
  declare kind: string;
  declare sourceIdentifier: string;
  declare chargeIdentifier: string;
  declare amount: number;
  declare fee: number;
  declare currency: string;
  declare payoutIdentifier: string | null;
  declare createdAt: Date;
}
