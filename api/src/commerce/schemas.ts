import { z } from 'zod';
import type { CouponDuration } from './coupons/durations';
import { EmailAddress, StaffReason } from '../identity/schemas';
import type { ActiveStatus } from '../shared/active-status';
import { STAFF_REFUND_REASONS } from '../shared/refund-reasons';
import type { ProductType } from '../shared/catalog';
import type { PurchaseKind } from '../shared/purchase-kinds';
import type { PurchaseStatus } from '../shared/purchase-status';
import type { TransferState } from '../shared/transfer-states';
import type { Quote, TeamTier } from './pricing/prices';
import { STAFF_REASON_MAX, STAFF_REASON_MIN } from '../shared/staff-reason';
import { NO_CONTROL_CHARACTERS } from '../shared/display-name';
import { normalizeVatId } from '../tax/vat-ids';

const flag = z
  .enum(['true', 'false', '1', '0'])
  .optional()
  .transform((v) => v === 'true' || v === '1');

/** An empty field is a field not given (forms send ''). */
const blankIsAbsent = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

const CountryCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code')
  .transform((c) => c.toUpperCase());
/** A US state or Canadian province as its postal code (WA, ON). */
const RegionCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9]{1,3}$/, 'must be a state or province code')
  .transform((c) => c.toUpperCase());
/** A ZIP or postal code as typed; whether it is written as the billing country writes them is checkout's to say. */
const PostalCodeText = z
  .string()
  .trim()
  .max(12, 'at most 12 characters')
  .regex(/^[A-Za-z0-9][A-Za-z0-9 -]*$/, 'must be a ZIP or postal code')
  .transform((c) => c.toUpperCase());
/** A VAT ID as typed (spaces, dots and dashes dropped); whether it fits the country is checkout's to say. */
const VatIdText = z
  .string()
  .trim()
  .max(30, 'at most 30 characters')
  .transform(normalizeVatId)
  .pipe(z.string().regex(/^[A-Z0-9+*]{1,20}$/, 'must be a VAT number, such as FR12345678901'));

/**
 * The buyer's billing details, given before paying (and remembered for a signed-in buyer): the tax follows the
 * country (and a US state or Canadian province); a business adds its name, address and VAT ID for the invoice.
 */
export const BillingDetails = z.strictObject({
  company: z
    .string()
    .trim()
    .max(200, 'at most 200 characters')
    .regex(NO_CONTROL_CHARACTERS, 'must be one line')
    .optional(),
  address: z
    .string()
    .trim()
    .max(500, 'at most 500 characters')
    // Lines, but no other control characters (tabs, escapes).
    .refine((text) => NO_CONTROL_CHARACTERS.test(text.replace(/\r?\n/g, ' ')), 'must be plain text')
    .optional(),
  country: z.preprocess(blankIsAbsent, CountryCode.optional()),
  region: z.preprocess(blankIsAbsent, RegionCode.optional()),
  postalCode: z.preprocess(blankIsAbsent, PostalCodeText.optional()),
  vatId: z.preprocess(blankIsAbsent, VatIdText.optional()),
});
export type BillingInput = z.output<typeof BillingDetails>;

export const CheckoutBody = z
  .object({
    productId: z.uuid('must be a product id'),
    quantity: z.number().int('must be a whole number').min(1).max(100).default(1),
    team: z.boolean().default(false),
    coupon: z.string().trim().min(1).max(64).optional(),
    ppp: z.boolean().default(false),
    upgradeFrom: z.uuid('must be a purchase id').optional(),
    /** One seat for someone else: a one-seat team of its own, whose claim link the buyer sends. */
    gift: z.boolean().default(false),
    email: z
      .string()
      .trim()
      .max(254)
      .pipe(z.email('must be an email address'))
      .transform((e) => e.toLowerCase())
      .optional(),
    billing: BillingDetails.optional(),
  })
  .strict()
  .refine((body) => !body.gift || body.quantity === 1, { path: ['quantity'], message: 'must be 1 for a gift' });

export const QuoteQuery = z.object({
  quantity: z.coerce.number().int('must be a whole number').min(1).max(100).default(1),
  team: flag,
  coupon: z.string().trim().min(1).max(64).optional(),
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code')
    .transform((c) => c.toUpperCase())
    .optional(),
  ppp: flag,
  upgradeFrom: z.uuid('must be a purchase id').optional(),
  // Where the buyer is billed (tax follows it; the regional price follows `country` or the detected country).
  billingCountry: z.preprocess(blankIsAbsent, CountryCode.optional()),
  region: z.preprocess(blankIsAbsent, RegionCode.optional()),
  postalCode: z.preprocess(blankIsAbsent, PostalCodeText.optional()),
  vatId: z.preprocess(blankIsAbsent, VatIdText.optional()),
});

const Id = z.uuid('must be an id');

/**
 * A refund: how much (all that is left when absent), why as a code staff choose from, and a note, required when the
 * code is 'other' (it says nothing by itself).
 */
export const RefundBody = z
  .object({
    amount: z.number().int('whole cents').positive('more than nothing').optional(),
    reasonCode: z.enum(STAFF_REFUND_REASONS, 'choose why the money goes back'),
    reason: z
      .string()
      .trim()
      .max(STAFF_REASON_MAX, `at most ${STAFF_REASON_MAX} characters`)
      .optional()
      .transform((note) => note || undefined)
      .pipe(z.string().min(STAFF_REASON_MIN, 'say why, in a few words').optional()),
  })
  .strict()
  .refine((body) => body.reasonCode !== 'other' || body.reason, {
    message: 'say why, in a few words',
    path: ['reason'],
  });
export const BanBody = z.object({ reason: StaffReason }).strict();

/** A team's member (by their seat's purchase) and a removed person (by user). */
export const MemberParams = z.object({ id: Id, memberId: Id });

/**
 * Support adds seats to a team (POST /api/admin/bulk-purchases/:id/seats): given, never charged (a comp), so a
 * reason is required for the audit log. At most 100 at once, as a checkout's quantity.
 */
export const AddSeatsBody = z
  .object({
    seats: z.number('must be a whole number of seats').int('must be a whole number of seats').min(1).max(100),
    reason: StaffReason,
  })
  .strict();
export type AddSeatsRequest = z.input<typeof AddSeatsBody>;
export const RevokedParams = z.object({ id: Id, userId: Id });

/** Staff give a person a course (POST /api/admin/users/:id/comps): which product, and why (the staff reason). */
export const CompBody = z.strictObject({ productId: Id, reason: StaffReason });
export type CompRequest = z.input<typeof CompBody>;

/** Giving a purchase to someone else. */
export const TransferBody = z.object({ email: EmailAddress }).strict();

// ─── Answers ───────────────────────────────────────────────────────────────────────────────────────────────────────
// What the commerce endpoints answer, as the services build them (dates as `Date`); the apps read them as
// `Wire<…>` (api/src/shared/wire.ts). Type-only: the apps' typecheck reads this file, so no Node module here.

/** GET /api/store/products/:id/quote's query, as the API reads it (numbers and flags parsed). */
export type QuoteParams = z.output<typeof QuoteQuery>;

/** POST /api/store/checkout as the storefront sends it (before the schema's defaults). */
export type CheckoutRequest = z.input<typeof CheckoutBody>;

/** Why an entered coupon does not apply; whoever is not signed in hears `coupon-not-valid` for every problem. */
export type CouponProblem =
  | 'coupon-not-found'
  | 'coupon-expired'
  | 'coupon-used-up'
  | 'coupon-not-valid-for-product'
  | 'coupon-inactive'
  | 'coupon-not-valid';

/**
 * The tax of a quote: where it is due, its rate in basis points, and its amount, inside the price (`inclusive`) or on
 * top of it; a reverse-charged sale has rate 0 and amount 0 (the business buyer accounts for it).
 */
export interface QuoteTax {
  country: string;
  region: string | null;
  rate: number;
  amount: number;
  inclusive: boolean;
  reverseCharge: boolean;
  /** What the invoice calls it: VAT, GST, Sales tax. */
  name: string;
}

/** The priced quote with its tax, and `total`: what will be charged (the price after discounts, plus tax on top). */
export type TaxedQuote = Quote & { tax: QuoteTax | null; total: number };

/** Why a VAT ID is not used: it matches no known format, or it is another country's. */
export type VatIdProblem = 'vat-id-format' | 'vat-id-other-country';

/**
 * The billing place a quote was taxed for: the billing country (the detected one unless chosen), the US state or
 * Canadian province, the ZIP or postal code, and the VAT ID as given (normalized). A VAT ID whose format does not fit
 * the country is not used (`vatIdProblem`): priced as a consumer's, and said why; a US or Canadian buyer whose region
 * decides the tax is asked for it, or for another one when theirs is not one of the country's (`regionRequired`); one
 * whose tax needs the ZIP or postal code (Stripe Tax's in the US), or whose code is not written as the country writes
 * them, is asked for it (`postalCodeRequired`). No tax is priced until then.
 */
export interface QuoteBilling {
  country: string | null;
  region: string | null;
  postalCode: string | null;
  vatId: string | null;
  vatIdProblem: VatIdProblem | null;
  regionRequired: boolean;
  postalCodeRequired: boolean;
  message: string | null;
}

/** A prospective purchase priced (quotes.ts); bp = basis points (2500 = 25 %), amounts in integer cents. */
export interface QuotePreview {
  product: { id: string; name: string };
  currency: string;
  country: string | null;
  quote: TaxedQuote;
  billing: QuoteBilling;
  /** A regional price the buyer may opt into, and what it means. */
  ppp: { country: string; percent: number } | null;
  sale: { couponId: string; percent: number; expires: Date | null } | null;
  coupon: { code: string; problem: CouponProblem | null; message: string | null } | null;
  /** `worth`: what the source was paid, net of refunds; `credit`: what comes off (the minimum charge can add cents). */
  upgrade: { fromPurchaseId: string; fromProductId: string; credit: number; worth: number } | null;
  /** An owned upgradable purchase that gives no credit, and why (paid in another currency: amounts are not converted). */
  upgradeRefused: { fromPurchaseId: string; reason: 'other-currency'; message: string } | null;
  team: { seats: number; existingSeats: number } | null;
  /** The team tiers (docs/domain.md §5.2): seats bought, now and before → discount; the product page lists them. */
  teamTiers: readonly TeamTier[];
}

/** GET /api/store/billing (in `data`): the signed-in buyer's remembered billing details ('' or null: none given). */
export interface BillingProfileAnswer {
  company: string;
  address: string;
  country: string | null;
  region: string | null;
  postalCode: string;
  vatId: string;
}

/** GET /api/store/products/:id/quote */
export interface QuoteAnswer extends QuotePreview {
  /** The country the request comes from (checkout always uses it; `country` may preview another). */
  detectedCountry: string;
}

export type CheckoutStatus = 'open' | 'fulfilled' | 'refunded' | 'canceled';

/** POST /api/store/checkout: the checkout, and the provider's hosted checkout page to send the buyer to. */
export interface CheckoutStarted {
  checkoutId: string;
  url: string;
}

/** GET /api/store/checkouts/:id: what the thank-you page learns; asking also fulfils a paid checkout. */
export interface CheckoutOutcome {
  status: CheckoutStatus;
  purchaseId: string | null;
  /** The caller's write ran, and committed with the settlement. */
  alongside?: true;
  /**
   * A team purchase: the whole team's seats after it (`teamId` is the team's page, /teams/:teamId). It opens no
   * course by itself: the buyer takes a seat like anyone else.
   */
  team: {
    teamId: string;
    seats: number;
    ownerHasSeat: boolean;
    /** The buyer has the course already (a seat, here or elsewhere, or their own purchase): no seat to take. */
    buyerHasCourse: boolean;
    /** Only for the buyer signed in, or in the first hour after the purchase; null otherwise. */
    inviteUrl: string | null;
    /** One seat bought for someone else: `inviteUrl` is the claim link the buyer sends. */
    gift: boolean;
  } | null;
  /** A fulfilled checkout: what was bought, for how much, where the receipt went, and where it leads. */
  receipt: CheckoutReceipt | null;
}

/** What the thank-you page names of a fulfilled checkout. */
export interface CheckoutReceipt {
  /** `productType` 'live' is a workshop: the thank-you page shows its sessions. */
  product: { id: string; name: string; slug: string | null; productType: ProductType };
  /** Seats bought (1 unless a team purchase). */
  quantity: number;
  /** What was paid, integer cents (0 for a free redemption). */
  amount: number;
  currency: string;
  /** The address the receipt went to (the buyer's account): only for the buyer signed in, or in the first hour. */
  email: string | null;
  /** The invoice's page is /invoices/:invoiceId (signed in as the buyer); null when nothing was charged. */
  invoiceId: string | null;
  /** The course the purchase opens (its page's path), or null when it opens none by itself (a team's) or has none. */
  coursePath: string | null;
}

/** GET /api/store/purchases (in `data`): one of the buyer's purchases. */
export interface MyPurchase {
  id: string;
  product: { id: string; name: string; slug: string | null };
  status: PurchaseStatus;
  /** Integer cents. */
  totalAmount: number;
  currency: string;
  createdAt: Date;
  country: string | null;
  /**
   * A team purchase: its team's seats. `teamId` is the team's first purchase (its page is /teams/:teamId);
   * `addedSeats` marks a later purchase that added seats to that team, `quantity` the seats this purchase bought.
   */
  team: {
    seats: number;
    used: number;
    teamId: string;
    addedSeats: boolean;
    quantity: number;
    /** The buyer holds one of the team's seats (the team purchase itself opens no course). */
    ownerHasSeat: boolean;
    /** One seat bought as a gift for someone else (its page is the gift's, /teams/:teamId). */
    gift: boolean;
  } | null;
  /** The published courses the product grants. */
  courses: { id: string; slug: string | null; title: string }[];
  /** A seat redeemed from someone's team purchase. */
  seat: boolean;
  /** That seat was someone's gift (their page speaks of a gift, taking it back of the gift). */
  seatFromGift: boolean;
  /** Null for a purchase they did not pay for (given to them, a seat): the invoice is the payer's. */
  invoiceId: string | null;
  /** Who gave it to them and how, when they did not pay for it themselves; null for their own. */
  givenBy: GivenBy | null;
}

/** A purchase someone holds without having paid: offered and accepted, moved by support, a team's seat, a gift. */
export interface GivenBy {
  /** The giver's shown name (never their email). */
  name: string;
  at: Date;
  how: 'transfer' | 'move' | 'seat' | 'gift';
}

export interface TeamMember {
  /** The member's seat purchase: what revoking removes. */
  purchaseId: string;
  userId: string;
  email: string;
  name: string | null;
  joinedAt: Date;
  /** The member is the signed-in owner. */
  you: boolean;
}

/** Someone the owner removed from the team: they cannot take a seat through the invite link until let back in. */
export interface RevokedMember {
  userId: string;
  email: string;
  name: string | null;
  revokedAt: Date;
}

/**
 * A team purchase as its owner (or staff) manages it (docs/domain.md §7): /api/store/teams/:id and the team actions.
 */
export interface TeamView {
  purchaseId: string;
  product: { id: string; name: string; slug: string | null };
  status: string;
  seats: { total: number; used: number; free: number };
  inviteUrl: string;
  /** One seat bought for someone else: `inviteUrl` is its claim link, and it never grows nor seats its buyer. */
  gift: boolean;
  /** The owner holds a seat themselves (the team purchase alone grants no content). */
  ownerHasSeat: boolean;
  members: TeamMember[];
  /** People the owner removed, newest first: the invite link refuses them (`seat-revoked`) until readmitted. */
  revoked: RevokedMember[];
}

/** A seat of a team as the console lists it: held now, or ended (revoked, refunded, banned) and kept. */
export interface TeamSeat {
  /** The member's seat purchase. */
  purchaseId: string;
  userId: string;
  email: string;
  name: string | null;
  status: PurchaseStatus;
  joinedAt: Date;
  /** The team's buyer holding one of its seats (their team purchase alone grants no content, docs/domain.md §7). */
  buyer: boolean;
  /** When and by whom an ended seat ended (null while held; `endedBy` null when not done by a person). */
  endedAt: Date | null;
  endedBy: string | null;
  reason: string | null;
}

/**
 * A removed member (their seat revoked): the invite link refuses them (`seat-revoked`) until let back in. "Kept out"
 * is the console API's older word for the same people (`keptOut`, `/kept-out/:userId/readmit`).
 */
export interface KeptOutMember {
  userId: string;
  email: string;
  name: string | null;
  since: Date;
  /** Who removed them (null for a system change, such as a ban). */
  by: string | null;
}

/** GET /api/admin/bulk-purchases/:id/members: every seat ever taken, held ones first, and the removed members. */
export interface TeamRoster {
  buyer: { userId: string; email: string; name: string | null; hasSeat: boolean };
  seats: TeamSeat[];
  keptOut: KeptOutMember[];
}

/** POST /api/admin/bulk-purchases/:id/seats: the team's seats after the addition. */
export interface SeatsAdded {
  added: number;
  seats: { total: number; used: number; free: number };
}

/** GET /api/store/invites/:code: what an invite link shows before anyone signs in. */
export interface InviteAnswer {
  product: { id: string; name: string; slug: string | null };
  ownerName: string | null;
  active: boolean;
  seatsFree: number;
  /** One seat bought as a gift: the link is a claim link for one person, not a team's invite. */
  gift: boolean;
}

/** POST /api/store/invites/:code/redeem: the seat taken. */
export interface RedeemedSeat {
  purchaseId: string;
  productId: string;
  /** Where the seat leads: its course's page (My purchases when the product has no course yet). */
  coursePath: string;
}

/** A transfer's states (docs/domain.md §8), listed once in api/src/shared/ for the apps' values too. */
export type { TransferState };

/**
 * GET /api/store/transfers/:id/preview (public): what the sign-in page tells a signed-out visitor who followed an
 * offer's link, while the offer is open: the course, who gives it, and the address to sign in with.
 */
export interface TransferPreview {
  product: { name: string };
  /** The giver's name, else their email address. */
  from: string;
  recipientEmail: string;
}

/** Giving a purchase to someone else (docs/domain.md §8), as the owner, the recipient or staff see it. */
export interface TransferView {
  id: string;
  state: TransferState;
  purchaseId: string;
  product: { id: string; name: string; slug: string | null };
  /** Who is giving it (the owner when the transfer began). */
  ownerEmail: string;
  recipientEmail: string | null;
  expiresAt: Date;
  createdAt: Date;
  confirmedAt: Date | null;
  completedAt: Date | null;
}

/** POST /api/admin/purchases/:id/refund as the console sends it: no amount refunds all that is left. */
export type RefundRequest = z.input<typeof RefundBody>;

/** POST /api/admin/purchases/:id/refund (in `data`). */
export interface RefundResult {
  /** The charge's total refunded so far, in cents. */
  refundAmount: number;
  /** Whether the charge is now refunded in full (the purchase is then Refunded). */
  full: boolean;
  /** What this refund gave back, in cents. */
  amount: number;
  /** The provider holds it pending: the totals above are before it, and it is recorded once the provider settles it. */
  pending?: true;
}

/** POST /api/admin/purchases/:id/ban (in `data`). */
export interface BanResult {
  status: 'Banned';
}

/** POST /api/admin/purchases/:id/receipt (in `data`): the email sent, or the one this request key already sent. */
export interface ReceiptAgainAnswer {
  emailId: string;
  toAddress: string;
  created: boolean;
}

/** POST /api/admin/users/:id/comps: the purchase given (kind comp, Valid, nothing paid) and where its email went. */
export interface CompGiven {
  purchaseId: string;
  userId: string;
  productId: string;
  productName: string;
  createdAt: Date;
  emailedTo: string;
}

/**
 * GET /api/admin/users/:id/purchase-totals: what a person has bought over their lifetime, one line per currency
 * (amounts in two do not add up), in cents from the same charges the finance exports list: paid is their charges'
 * gross, refunded what those charges gave back, net the difference. Comps are counted, never summed (they cost 0).
 */
export interface PurchaseTotals {
  currencies: {
    currency: string;
    paid: number;
    refunded: number;
    net: number;
    /** Every purchase they hold in this currency, comps, team seats and purchases given to them included. */
    purchases: number;
    /** Charges they paid (their money, also for a purchase they gave away since). */
    charges: number;
    refunds: number;
    comps: number;
  }[];
}

/** A purchase as the console sees it (the `purchases` resource: the row, every column). */
export interface PurchaseRecord {
  id: string;
  userId: string;
  productId: string;
  status: PurchaseStatus;
  totalAmount: number;
  currency: string;
  ipAddress: string | null;
  city: string | null;
  state: string | null;
  country: string | null;
  couponId: string | null;
  bulkCouponId: string | null;
  redeemedBulkCouponId: string | null;
  merchantChargeId: string | null;
  merchantSessionId: string | null;
  upgradedFromId: string | null;
  /** Why staff banned or refunded it, when they did. */
  statusReason: string | null;
  /** `comp`: given by staff (compedById) for compReason, nothing paid. */
  kind: PurchaseKind;
  compReason: string | null;
  compedById: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** Cents its charge has refunded so far (0 without a charge); a partial refund leaves the purchase Valid. */
  refundedAmount: number;
}

/** A team purchase (the `bulk-purchases` resource): the buyer's purchase with its team coupon's seats. */
export interface TeamPurchaseRecord extends Omit<PurchaseRecord, 'refundedAmount'> {
  bulkCouponId: string;
  seatsTotal: number;
  seatsUsed: number;
  /** The code in the team's invite link (a uuid the owner can replace); older answers may lack it. */
  inviteCode?: string | null;
}

/** A coupon as the console sees it (the `coupons` resource: the row, every column). */
export interface CouponRecord {
  id: string;
  code: string | null;
  /** 0–1, four decimals. */
  percentageDiscount: number;
  expires: Date | null;
  /** −1 for unlimited. */
  maxUses: number;
  usedCount: number;
  /** The site-wide sale, applied without a code. */
  default: boolean;
  status: ActiveStatus;
  restrictedToProductId: string | null;
  /** On a membership: its first period, `durationPeriods` periods, or every period. */
  duration: CouponDuration;
  durationPeriods: number | null;
  /** The team purchase whose seats it hands out. */
  bulkPurchaseId: string | null;
  merchantCouponId: string | null;
  inviteCode: string;
  createdAt: Date;
  updatedAt: Date;
}

/** A transfer as the console lists it (the `purchase-user-transfers` resource: the row, every column). */
export interface TransferRecord {
  id: string;
  transferState: TransferState;
  purchaseId: string;
  sourceUserId: string;
  targetUserId: string | null;
  createdAt: Date;
  expiresAt: Date;
  canceledAt: Date | null;
  confirmedAt: Date | null;
  completedAt: Date | null;
}
