import { Coupon, Purchase, PurchaseUserTransfer } from '../../commerce/models';
import { teamCouponStaysActive } from '../../commerce/teams/seat-coupons';
import { CouponCreate, CouponUpdate } from '../schemas/commerce';
import { AppError } from '../../shared/errors';
import { defineResource, type Row } from '../resource';
import { derived, instant, money, text, yesNo } from '../../http/csv-columns';
import { percentage, person, productNamed } from '../lists/export-lookups';
import { purchaseKindInWords, type KindFacts } from '../../shared/purchase-kinds';

const STAFF = ['support', 'finance'] as const;

/** What kind of purchase it is, as the console's list says. */
const purchaseKind = (p: Row): string => purchaseKindInWords(p as unknown as KindFacts);
/** `purchaseKindInWords` in SQL, for the export PostgreSQL writes (the byte tests hold the two together). */
const purchaseKindSql = (field: (name: string) => string): string =>
  `CASE WHEN ${field('kind')} = 'comp' THEN 'Comp (given by staff)'
        WHEN ${field('bulkCouponId')} IS NOT NULL THEN 'Team purchase'
        WHEN ${field('redeemedBulkCouponId')} IS NOT NULL THEN 'Team seat'
        WHEN ${field('upgradedFromId')} IS NOT NULL THEN 'Upgrade'
        WHEN ${field('totalAmount')} = 0 THEN 'Free'
        ELSE 'Individual' END`;

export const coupons = defineResource({
  name: 'coupons',
  model: Coupon,
  read: STAFF,
  filterable: {
    id: 'id',
    status: 'enum',
    default: 'boolean',
    restrictedToProductId: 'id',
    bulkPurchaseId: 'id',
    percentageDiscount: 'number',
    usedCount: 'number',
    expires: 'date',
    createdAt: 'date',
  },
  sortable: ['id', 'code', 'createdAt', 'expires', 'percentageDiscount', 'usedCount', 'maxUses'],
  searchable: ['code'],
  defaultSort: ['createdAt', 'DESC'],
  export: {
    lookups: [productNamed('restrictedToProductId', 'restrictedToProduct')],
    columns: [
      derived('Coupon', (c) => c.code ?? (c.default ? 'Site-wide sale' : c.bulkPurchaseId ? 'Team seats' : null)),
      percentage('Discount', 'percentageDiscount'),
      text('Used', 'usedCount'),
      derived('Uses allowed', (c) => (c.maxUses === -1 ? 'Unlimited' : c.maxUses)),
      instant('Expires', 'expires'),
      derived('Product', (c) => c.restrictedToProduct ?? 'Any product'),
      yesNo('Site-wide sale', 'default'),
      text('Status', 'status'),
      instant('Created', 'createdAt'),
      text('Coupon id', 'id'),
    ],
  },
  create: CouponCreate,
  // usedCount moves only through redemptions; team coupons belong to their purchase.
  update: CouponUpdate,
  async checkWrite(_hook, operation, input, current) {
    if (operation !== 'update' || !current?.bulkPurchaseId) return;
    if (input.status === 'inactive') throw teamCouponStaysActive();
    // Every field but its status: a team coupon's terms are its purchase's.
    const locked = Object.keys(input).filter((f) => f !== 'status');
    if (locked.length) {
      const message = 'a team coupon changes only with its purchase (seats are bought or revoked there)';
      throw new AppError(
        'validation-failed',
        `${locked.join(', ')}: ${message}`,
        Object.fromEntries(locked.map((f) => [f, message])),
      );
    }
  },
  remove: 'hard',
  deleteGuards: [
    {
      code: 'coupon-has-purchases',
      message: 'This coupon was used by purchases; deactivate it instead of deleting it.',
      blocks: async (trx, id) =>
        Boolean(
          await trx('purchases')
            .where('couponId', id)
            .orWhere('redeemedBulkCouponId', id)
            .orWhere('bulkCouponId', id)
            .first('id'),
        ),
    },
  ],
  constraintFields: {
    coupons_code_unique: { field: 'code', message: 'is already used by another coupon (codes ignore case)' },
    coupons_used_count_range: { field: 'maxUses', message: 'cannot be below the uses already made' },
    coupons_duration_periods: {
      field: 'durationPeriods',
      message: 'is the number of periods of a repeating coupon, and only of one',
    },
  },
});

/** What a purchase's export starts with, as its list does: when, who bought it (email and name), which product. */
const BOUGHT_LOOKUPS = [person('userId', 'buyer'), productNamed('productId', 'product')];
const BOUGHT = [
  instant('Purchased', 'createdAt'),
  text('Buyer email', 'buyerEmail'),
  text('Buyer name', 'buyerName'),
  text('Product', 'product'),
];

const purchaseFilters = {
  id: 'id',
  userId: 'id',
  productId: 'id',
  status: 'enum',
  couponId: 'id',
  bulkCouponId: 'id',
  redeemedBulkCouponId: 'id',
  merchantChargeId: 'id',
  upgradedFromId: 'id',
  country: 'enum',
  totalAmount: 'number',
  createdAt: 'date',
} as const;

/**
 * Purchases change only through their actions (refund, transfer, ...), never by editing fields. Each carries what
 * its charge has refunded so far, so a partial refund (the purchase stays Valid) shows in the list.
 */
export const purchases = defineResource({
  name: 'purchases',
  model: Purchase,
  read: STAFF,
  baseQuery: (db) =>
    Purchase.query(db)
      .leftJoin('merchantCharges', 'merchantCharges.id', 'purchases.merchantChargeId')
      .select('purchases.*', db.raw('coalesce(merchant_charges.refund_amount, 0) AS "refundedAmount"')) as never,
  sqlColumns: {
    ...Object.fromEntries(Object.keys(purchaseFilters).map((field) => [field, `purchases.${field}`])),
    refundedAmount: { expression: 'coalesce(merchant_charges.refund_amount, 0)' },
  },
  filterable: { ...purchaseFilters, refundedAmount: 'number' },
  // Not by refunded amount: it is the charge's, read through a join, so no index of purchases can give that order.
  sortable: ['id', 'createdAt', 'totalAmount', 'status'],
  searchable: [],
  defaultSort: ['createdAt', 'DESC'],
  export: {
    lookups: BOUGHT_LOOKUPS,
    columns: [
      ...BOUGHT,
      text('Status', 'status'),
      money('Paid', 'totalAmount'),
      money('Refunded', 'refundedAmount'),
      text('Currency', 'currency'),
      derived('Kind', purchaseKind, purchaseKindSql),
      text('Country', 'country'),
      text('Purchase id', 'id'),
    ],
  },
});

/** Team purchases: the buyer's purchase with its team coupon's seats. */
export const bulkPurchases = defineResource({
  name: 'bulk-purchases',
  model: Purchase,
  read: STAFF,
  baseQuery: (db) =>
    Purchase.query(db)
      .join('coupons', 'coupons.id', 'purchases.bulkCouponId')
      .select(
        'purchases.*',
        'coupons.maxUses as seatsTotal',
        'coupons.usedCount as seatsUsed',
        'coupons.inviteCode as inviteCode',
      ) as never,
  sqlColumns: {
    id: 'purchases.id',
    userId: 'purchases.userId',
    productId: 'purchases.productId',
    status: 'purchases.status',
    createdAt: 'purchases.createdAt',
    totalAmount: 'purchases.totalAmount',
    bulkCouponId: 'purchases.bulkCouponId',
    seatsTotal: 'coupons.maxUses',
    seatsUsed: 'coupons.usedCount',
  },
  filterable: {
    id: 'id',
    userId: 'id',
    productId: 'id',
    status: 'enum',
    bulkCouponId: 'id',
    seatsUsed: 'number',
    createdAt: 'date',
  },
  sortable: ['id', 'createdAt', 'totalAmount', 'seatsTotal', 'seatsUsed'],
  searchable: [],
  defaultSort: ['createdAt', 'DESC'],
  // Team purchases are a few of all purchases (their own partial index finds them): sorted and counted in full.
  exactCount: true,
  export: {
    lookups: BOUGHT_LOOKUPS,
    columns: [
      ...BOUGHT,
      text('Seats used', 'seatsUsed'),
      text('Seats', 'seatsTotal'),
      derived('Seats free', (t) => Math.max(Number(t.seatsTotal) - Number(t.seatsUsed), 0)),
      text('Status', 'status'),
      money('Paid', 'totalAmount'),
      text('Currency', 'currency'),
      text('Purchase id', 'id'),
    ],
  },
});

/**
 * Every purchase gets an offer row (AVAILABLE) that expires unused after the transfer window; `started` picks the
 * transfers an owner actually began (a recipient named, or a state past the offer), which the console lists first.
 */
const TRANSFER_STARTED = `(purchase_user_transfers.target_user_id IS NOT NULL
  OR purchase_user_transfers.transfer_state NOT IN ('AVAILABLE', 'EXPIRED'))`;

export const purchaseUserTransfers = defineResource({
  name: 'purchase-user-transfers',
  model: PurchaseUserTransfer,
  read: STAFF,
  sqlColumns: { started: { expression: TRANSFER_STARTED } },
  filterable: {
    id: 'id',
    purchaseId: 'id',
    sourceUserId: 'id',
    targetUserId: 'id',
    transferState: 'enum',
    started: 'boolean',
    expiresAt: 'date',
    createdAt: 'date',
  },
  sortable: ['id', 'createdAt', 'expiresAt', 'transferState'],
  searchable: [],
  defaultSort: ['createdAt', 'DESC'],
  export: {
    lookups: [
      person('sourceUserId', 'from'),
      person('targetUserId', 'to'),
      { from: 'purchaseId', table: 'purchases', fields: { purchaseProductId: 'productId' } },
      productNamed('purchaseProductId', 'product'),
    ],
    columns: [
      instant('Created', 'createdAt'),
      text('State', 'transferState'),
      text('From email', 'fromEmail'),
      text('From name', 'fromName'),
      text('To email', 'toEmail'),
      text('To name', 'toName'),
      text('Product', 'product'),
      instant('Expires', 'expiresAt'),
      instant('Confirmed', 'confirmedAt'),
      instant('Completed', 'completedAt'),
      instant('Canceled', 'canceledAt'),
      text('Purchase id', 'purchaseId'),
      text('Transfer id', 'id'),
    ],
  },
});
