import { belongsToOne, table } from '../db/base-model';
import type { CouponDuration } from './coupons/durations';
import type { SubscriptionStatus } from '../shared/subscription-status';
import { Product } from '../catalog/models';
import { User } from '../identity/models';
import { MerchantCharge, MerchantSession } from '../payments/models';

import type { ActiveStatus } from '../shared/active-status';
import type { PurchaseKind } from '../shared/purchase-kinds';
import type { PurchaseStatus } from '../shared/purchase-status';
import type { CheckoutStatus, TransferState } from './schemas';
import type { DiscountKind } from './pricing/prices';

export { GRANTING_STATUSES, type PurchaseStatus } from '../shared/purchase-status';

export class Coupon extends table('coupons') {
  declare id: string;
  declare code: string | null;
  declare expires: Date | null;
  declare maxUses: number;
  declare usedCount: number;
  declare default: boolean;
  declare status: ActiveStatus;
  declare percentageDiscount: number; // numeric(5,4): four decimals, exact as a JSON number
  /** On a membership: its first period only (`once`), `durationPeriods` periods (`repeating`), or every period. */
  declare duration: CouponDuration;
  declare durationPeriods: number | null;
  declare merchantCouponId: string | null;
  declare restrictedToProductId: string | null;
  declare bulkPurchaseId: string | null;
  /** What a team's invite link carries; the owner can replace it. */
  declare inviteCode: string;
  declare createdAt: Date;
  declare updatedAt: Date;
}

export class Purchase extends table('purchases') {
  declare id: string;
  declare userId: string;
  declare productId: string;
  declare status: PurchaseStatus;
  declare totalAmount: number;
  declare currency: string;
  declare ipAddress: string | null;
  declare city: string | null;
  declare state: string | null;
  declare country: string | null;
  declare couponId: string | null;
  declare bulkCouponId: string | null;
  declare redeemedBulkCouponId: string | null;
  declare merchantChargeId: string | null;
  declare merchantSessionId: string | null;
  declare upgradedFromId: string | null;
  /** Why staff banned or refunded it (or the provider's reason for a dispute). */
  declare statusReason: string | null;
  /** `comp`: a course staff gave (compedById) for a reason (compReason), with no charge. */
  declare kind: PurchaseKind;
  declare compReason: string | null;
  declare compedById: string | null;
  /** A course bought in instalments: the plan's subscription, and whether (since when) it is paid in full (§23). */
  declare paymentPlanSubscriptionId: string | null;
  declare paidInFull: boolean;
  declare paidInFullAt: Date | null;
  declare createdAt: Date;
  declare updatedAt: Date;

  static override get relationMappings() {
    return {
      user: belongsToOne(User, 'purchases.userId'),
      product: belongsToOne(Product, 'purchases.productId'),
      merchantCharge: belongsToOne(MerchantCharge, 'purchases.merchantChargeId'),
      merchantSession: belongsToOne(MerchantSession, 'purchases.merchantSessionId'),
    };
  }
}

export class PurchaseUserTransfer extends table('purchaseUserTransfers') {
  declare id: string;
  declare transferState: TransferState;
  declare purchaseId: string;
  declare sourceUserId: string;
  declare targetUserId: string | null;
  declare createdAt: Date;
  declare expiresAt: Date;
  declare canceledAt: Date | null;
  declare confirmedAt: Date | null;
  declare completedAt: Date | null;
  /** Support moved the purchase (completed at once) rather than the recipient accepting an offer. */
  declare bySupport: boolean;
}

/** Our record of a checkout: what was quoted and to whom; fulfilment reads and locks it (see checkout.ts). */
export class Checkout extends table('checkouts') {
  declare id: string;
  declare merchantSessionId: string | null;
  declare productId: string;
  declare priceId: string;
  declare quantity: number;
  declare team: boolean;
  declare couponId: string | null;
  /** A use of the (limited) coupon was taken when the checkout began. */
  declare couponReserved: boolean;
  declare upgradeFromId: string | null;
  declare buyerUserId: string | null;
  declare buyerEmail: string;
  declare country: string | null;
  declare ipAddress: string | null;
  /** The client network it was started from (networkOf): how many coupon uses one network holds is capped. */
  declare clientNetwork: string | null;
  declare city: string | null;
  declare state: string | null;
  declare amountTotal: number;
  /** Upgrade credit taken off (docs/domain.md §5.3); the invoice shows it as its own line. */
  declare creditAmount: number;
  /** What the upgrade's source was worth when quoted: a refund since then makes settlement refuse the upgrade. */
  declare upgradeBasis: number | null;
  declare currency: string;
  declare restricted: boolean;
  /** One seat bought for someone else: its own one-seat team, whose claim link the buyer sends (docs/domain.md §7). */
  declare gift: boolean;
  declare status: CheckoutStatus;
  declare purchaseId: string | null;
  /** The billing details given before paying (copied to the invoice); the tax follows the country and region. */
  declare billingCompany: string | null;
  declare billingAddress: string | null;
  declare billingCountry: string | null;
  declare billingRegion: string | null;
  declare billingPostalCode: string | null;
  declare billingVatId: string | null;
  /** The one percentage discount, as the invoice names it. */
  declare discountKind: DiscountKind | null;
  declare discountBp: number | null;
  declare discountAmount: number;
  /** The tax quoted: inside amountTotal, or already added to it (amountTotal is what is charged). */
  declare taxCountry: string | null;
  declare taxRegion: string | null;
  declare taxRateBp: number | null;
  declare taxName: string | null;
  declare taxInclusive: boolean | null;
  declare taxReverseCharge: boolean;
  declare taxAmount: number;
  declare createdAt: Date;
  declare updatedAt: Date;
}

/**
 * Someone a team's owner removed: the team's invite link refuses them until the owner lets them back in
 * (docs/domain.md §7).
 */
export class TeamSeatRevocation extends table('teamSeatRevocations') {
  declare id: string;
  declare couponId: string;
  declare userId: string;
  declare revokedById: string | null;
  declare createdAt: Date;
}

/** A learner's subscription to a membership (docs/domain.md §22), as its provider's events record it. */
export class Subscription extends table('subscriptions') {
  declare id: string;
  declare userId: string;
  declare productId: string;
  declare priceId: string;
  declare merchantAccountId: string;
  declare providerIdentifier: string;
  declare status: SubscriptionStatus;
  declare currentPeriodStart: Date;
  declare currentPeriodEnd: Date;
  declare cancelAtPeriodEnd: boolean;
  declare graceUntil: Date | null;
  /** Dunning: retries of the failed renewal made so far, and when the next is due (none: no more). */
  declare retryCount: number;
  declare nextRetryAt: Date | null;
  /** When the provider's state last recorded was read (a state read earlier changes nothing). */
  declare providerStateAt: Date | null;
  /** Seats billed each period (the subscriber's own and those others take), the coupon it was subscribed with, and
   * where the buyer was billed for tax then. */
  declare quantity: number;
  declare couponId: string | null;
  declare taxCountry: string | null;
  declare taxRegion: string | null;
  declare taxVatId: string | null;
  /** The billing details given when subscribing, which every period's invoice names with the tax place above. */
  declare billingCompany: string | null;
  declare billingAddress: string | null;
  declare billingPostalCode: string | null;
  /** The regional discount it was subscribed at (basis points), none at the full price. */
  declare pppBp: number | null;
  /** What a team membership's invite link carries, made when its subscriber first asks for it. */
  declare seatCode: string | null;
  /** Set for a payment plan's subscription (docs/domain.md §23): it bills the plan's instalments, then ends. */
  declare paymentPlanId: string | null;
  /** A switch of interval waiting for the period's end: the end it waits for and the price that period was billed at. */
  declare switchAt: Date | null;
  declare switchedFromPriceId: string | null;
  declare createdAt: Date;
  declare updatedAt: Date;
}

/** A course's payment plan (docs/domain.md §23): its price in this many monthly instalments of this amount. */
export class PaymentPlan extends table('paymentPlans') {
  declare id: string;
  declare productId: string;
  declare status: ActiveStatus;
  declare instalments: number;
  declare instalmentAmount: number;
  declare currency: string;
  declare createdAt: Date;
  declare updatedAt: Date;
}

/** One billed period of a subscription: a trial's, a paid one (its charge and invoice) or a failed one. */
export class SubscriptionPeriod extends table('subscriptionPeriods') {
  declare id: string;
  declare subscriptionId: string;
  declare providerInvoiceIdentifier: string;
  declare outcome: 'trial' | 'paid' | 'failed';
  declare periodStart: Date;
  declare periodEnd: Date;
  declare merchantChargeId: string | null;
  declare invoiceId: string | null;
  /** What the subscription's coupon took off this period's price. */
  declare discountAmount: number;
  declare couponId: string | null;
  declare createdAt: Date;
}

/** Someone else's seat in a team membership: open while its subscription is. */
export class SubscriptionSeat extends table('subscriptionSeats') {
  declare id: string;
  declare subscriptionId: string;
  declare userId: string;
  declare createdAt: Date;
}
