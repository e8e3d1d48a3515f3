import type { Knex } from 'knex';
import type { ModelObject } from 'objection';
import type { Product } from '../../catalog/models';
import type { User } from '../../identity/models';
import type { MerchantCharge } from '../../payments/models';
import { GRANTING_STATUSES, type Checkout, type Purchase } from '../models';
import { ownerHasSeatColumn } from '../purchases/ownership';
import type { CheckoutReceipt } from '../schemas';

/**
 * The SQL of checkout and fulfilment (checkout.ts and settle-steps.ts hold the rules). Every function takes the
 * connection or transaction it runs on: the service decides the transaction, and the lock order stays visible there.
 */

type Conn = Knex | Knex.Transaction;

/** A row of `checkouts` (the model does not declare expires_at, which the expiry sweep reads). */
export type CheckoutRow = ModelObject<Checkout> & { expiresAt: Date };

/** A checkout with its provider session's identifier (null while none is recorded, and for free checkouts). */
export type FoundCheckout = CheckoutRow & { sessionIdentifier: string | null };

/** What fulfilment needs of the product: its window, its seats and its name. */
export type ProductFacts = Pick<
  Product,
  'id' | 'name' | 'quantityAvailable' | 'enrollmentOpensAt' | 'enrollmentClosesAt'
>;

/** What fulfilment needs of the buyer's account. */
export type Buyer = Pick<User, 'id' | 'email'>;

/** Inserts one row and answers its id. */
async function insertRow(trx: Knex.Transaction, table: string, row: object): Promise<string> {
  const [inserted] = await trx(table).insert(row).returning('id');
  return inserted.id;
}

const withSession = (db: Conn) => db('checkouts as c').leftJoin('merchantSessions as s', 's.id', 'c.merchantSessionId');
const FOUND = ['c.*', 's.identifier as sessionIdentifier'];

export const findCheckout = (db: Conn, checkoutId: string) =>
  withSession(db)
    .where('c.id', checkoutId)
    .first(...FOUND) as Promise<FoundCheckout | undefined>;

export const findCheckoutOfSession = (db: Conn, sessionIdentifier: string) =>
  withSession(db)
    .where('s.identifier', sessionIdentifier)
    .first(...FOUND) as Promise<FoundCheckout | undefined>;

export async function checkoutIdOfSession(db: Conn, sessionIdentifier: string): Promise<string | null> {
  const row = await withSession(db).where('s.identifier', sessionIdentifier).first('c.id');
  return row?.id ?? null;
}

/**
 * Open checkouts past `now`, oldest first, that may be ended: with a provider session, free, or past `graceEnd`
 * (the session was never recorded); `tried` are skipped.
 */
export const dueCheckouts = (db: Conn, now: Date, graceEnd: Date, tried: string[], limit: number) =>
  withSession(db)
    .where('c.status', 'open')
    .where('c.expiresAt', '<=', now)
    .where((q) =>
      q.whereNotNull('c.merchantSessionId').orWhere('c.amountTotal', 0).orWhere('c.expiresAt', '<=', graceEnd),
    )
    .whereNotIn('c.id', tried)
    .orderBy('c.expiresAt')
    .limit(limit)
    .select(...FOUND) as Promise<FoundCheckout[]>;

export async function insertCheckout(
  trx: Knex.Transaction,
  row: Omit<CheckoutRow, 'id' | 'status' | 'purchaseId' | 'merchantSessionId' | 'createdAt' | 'updatedAt'>,
): Promise<string> {
  return insertRow(trx, 'checkouts', row);
}

/** Records the provider session a checkout is paid through. */
export async function recordSession(
  trx: Knex.Transaction,
  accountId: string,
  identifier: string,
  checkoutId: string,
): Promise<void> {
  const [session] = await trx('merchantSessions').insert({ merchantAccountId: accountId, identifier }).returning('id');
  await trx('checkouts').where({ id: checkoutId }).update({ merchantSessionId: session.id });
}

/** Moves a checkout from open to canceled; answers its coupon reservation, or nothing when it was not open. */
export async function cancelOpenCheckout(
  trx: Knex.Transaction,
  checkoutId: string,
): Promise<Pick<CheckoutRow, 'couponId' | 'couponReserved'> | undefined> {
  const [checkout] = await trx('checkouts')
    .where({ id: checkoutId, status: 'open' })
    .update({ status: 'canceled' })
    .returning(['couponId', 'couponReserved']);
  return checkout;
}

export const extendExpiry = (db: Conn, checkoutId: string, expiresAt: Date) =>
  db('checkouts').where({ id: checkoutId, status: 'open' }).update({ expiresAt });

export const couponMaxUses = async (trx: Knex.Transaction, couponId: string): Promise<number> =>
  (await trx('coupons').where({ id: couponId }).first('maxUses')).maxUses;

/**
 * Locks a coupon's row: checkout starts that reserve its uses go one at a time from here to their commit. No key
 * update: a fulfilment holding the product's lock writes a purchase naming the coupon (its foreign key takes a key
 * share of the row), while this start waits for the product to write its checkout; FOR UPDATE would deadlock them.
 */
export const lockCoupon = (trx: Knex.Transaction, couponId: string) =>
  trx('coupons').where({ id: couponId }).forNoKeyUpdate().first('id');

const openHolds = (trx: Knex.Transaction, couponId: string) =>
  trx('checkouts').where({ couponId, status: 'open', couponReserved: true });

/**
 * The use this buyer's open checkouts hold of a coupon moves to the checkout they are starting: those checkouts no
 * longer hold it (canceled or expired, they give nothing back; paid after all, they count a use as any unreserved
 * checkout does). True when there was one to move.
 */
export const moveBuyersHold = async (trx: Knex.Transaction, couponId: string, email: string): Promise<boolean> =>
  (
    await openHolds(trx, couponId)
      .whereRaw('lower(buyer_email) = lower(?)', [email])
      .update({ couponReserved: false })
      .returning('id')
  ).length > 0;

/** The uses of a coupon held by open checkouts from one client network: how many, and when the first ends. */
export async function networkHolds(
  trx: Knex.Transaction,
  couponId: string,
  network: string,
): Promise<{ count: number; firstEnds: Date | null }> {
  const row = await openHolds(trx, couponId)
    .where({ clientNetwork: network })
    .first(trx.raw('count(*)::int AS count'), trx.raw('min(expires_at) AS first_ends'));
  return { count: row.count, firstEnds: row.firstEnds };
}

/** Takes one use of a coupon if one is left, in one conditional update; false when none was. */
export const takeCouponUse = async (trx: Knex.Transaction, couponId: string): Promise<boolean> =>
  Boolean(
    await trx('coupons').where({ id: couponId }).where('usedCount', '<', trx.raw('max_uses')).increment('usedCount', 1),
  );

export const countCouponUse = (trx: Knex.Transaction, couponId: string) =>
  trx('coupons').where({ id: couponId }).increment('usedCount', 1);

export const giveCouponUseBack = (trx: Knex.Transaction, couponId: string | null) =>
  trx('coupons').where({ id: couponId }).where('usedCount', '>', 0).decrement('usedCount', 1);

/** The join `lockCheckout` reads (a shape no model has: the checkout's columns beside product and buyer columns). */
type LockedRow = CheckoutRow & {
  productName: string;
  productQuantityAvailable: number;
  productEnrollmentOpensAt: Date | null;
  productEnrollmentClosesAt: Date | null;
  buyerId: string | null;
  buyerAddress: string | null;
  merchantProductId: string | null;
};

export interface LockedCheckout {
  checkout: CheckoutRow;
  product: ProductFacts;
  /** The signed-in buyer's account, else the one with the checkout's email, if any. */
  buyer: Buyer | null;
  /** The product's active mirror at the provider's account, if recorded. */
  merchantProductId: string | null;
}

/**
 * The checkout and its product, locked in that order (seats are counted under the product's lock: concurrent
 * fulfilments never sell more than there are), with the product's provider mirror and the buyer's account.
 */
export async function lockCheckout(
  trx: Knex.Transaction,
  checkoutId: string,
  accountId: string,
): Promise<LockedCheckout> {
  const row = (await trx('checkouts as c')
    .join('products as p', 'p.id', 'c.productId')
    .leftJoin(
      'users as u',
      'u.id',
      trx.raw('coalesce(??, (select ?? from ?? as ?? where lower(??) = lower(??)))', [
        'c.buyerUserId',
        'known.id',
        'users',
        'known',
        'known.email',
        'c.buyerEmail',
      ]),
    )
    .where('c.id', checkoutId)
    .forUpdate('c', 'p')
    .first(
      'c.*',
      'p.name as productName',
      'p.quantityAvailable as productQuantityAvailable',
      'p.enrollmentOpensAt as productEnrollmentOpensAt',
      'p.enrollmentClosesAt as productEnrollmentClosesAt',
      'u.id as buyerId',
      'u.email as buyerAddress',
      trx('merchantProducts as mp')
        .where({ 'mp.merchantAccountId': accountId, 'mp.status': 'active' })
        .where('mp.productId', trx.ref('c.productId'))
        .orderBy('mp.createdAt')
        .limit(1)
        .select('mp.id')
        .as('merchantProductId'),
    )) as LockedRow;
  const {
    productName,
    productQuantityAvailable,
    productEnrollmentOpensAt,
    productEnrollmentClosesAt,
    buyerId,
    buyerAddress,
    merchantProductId,
    ...checkout
  } = row;
  return {
    checkout,
    product: {
      id: checkout.productId,
      name: productName,
      quantityAvailable: productQuantityAvailable,
      enrollmentOpensAt: productEnrollmentOpensAt,
      enrollmentClosesAt: productEnrollmentClosesAt,
    },
    buyer: buyerId ? { id: buyerId, email: buyerAddress! } : null,
    merchantProductId,
  };
}

/** A new, unverified account for an email; nothing when one with that email exists (created meanwhile). */
export async function insertAccount(trx: Knex.Transaction, email: string): Promise<Buyer | undefined> {
  const [buyer] = await trx('users')
    .insert({ email })
    .onConflict(trx.raw('(lower(email))'))
    .ignore()
    .returning(['id', 'email']);
  return buyer;
}

export interface NewCharge {
  accountId: string;
  customerIdentifier: string;
  userId: string;
  charge: { identifier: string; amount: number; fee: number };
  currency: string;
  merchantProductId: string;
  metadata: Record<string, unknown>;
}

/** The provider's customer (recorded, or active again) and the charge, in one statement. */
export async function insertCharge(trx: Knex.Transaction, input: NewCharge): Promise<{ id: string } | null> {
  const customer = trx('merchantCustomers')
    .insert({ merchantAccountId: input.accountId, identifier: input.customerIdentifier, userId: input.userId })
    .onConflict(['merchantAccountId', 'identifier'])
    .merge({ status: 'active' })
    .returning('id');
  const [inserted] = await trx
    .with('customer', customer)
    .into('merchantCharges')
    .insert({
      merchantAccountId: input.accountId,
      identifier: input.charge.identifier,
      amount: input.charge.amount,
      fee: input.charge.fee,
      net: input.charge.amount - input.charge.fee,
      currency: input.currency,
      userId: input.userId,
      merchantProductId: input.merchantProductId,
      merchantCustomerId: trx('customer').select('id'),
      metadata: JSON.stringify(input.metadata),
    })
    .returning('id');
  return inserted ?? null;
}

export const lockPurchase = (trx: Knex.Transaction, purchaseId: string) =>
  trx('purchases')
    .where({ id: purchaseId })
    .forUpdate()
    .first('userId', 'status', 'merchantChargeId', 'currency') as Promise<
    Pick<Purchase, 'userId' | 'status' | 'merchantChargeId' | 'currency'> | undefined
  >;

export const upgradeOf = (trx: Knex.Transaction, purchaseId: string) =>
  trx('purchases').where({ upgradedFromId: purchaseId }).first('id') as Promise<Pick<Purchase, 'id'> | undefined>;

/** What is left of a charge to refund: its amount less what was refunded and what refunds under way reserve. */
export async function refundableOf(trx: Knex.Transaction, chargeId: string): Promise<number> {
  const charge = (await trx('merchantCharges').where({ id: chargeId }).first('amount', 'refundAmount')) as Pick<
    MerchantCharge,
    'amount' | 'refundAmount'
  >;
  const [pending] = await trx('merchantRefunds')
    .where({ merchantChargeId: chargeId })
    .whereNot({ status: 'succeeded' })
    .sum({ amount: 'amount' });
  return charge.amount - charge.refundAmount - Number(pending?.amount ?? 0);
}

export async function insertRefund(
  trx: Knex.Transaction,
  refund: {
    merchantAccountId: string;
    merchantChargeId: string;
    amount: number;
    reason: string;
    idempotencyKey: string;
  },
): Promise<string> {
  // The system's own refund: a payment that could not be fulfilled.
  return insertRow(trx, 'merchantRefunds', { ...refund, reasonCode: 'not-fulfilled' });
}

/** A join shape no model has: the refund beside its buyer's email and its product's name, for the apology. */
type StalledRefund = {
  id: string;
  chargeId: string;
  reason: string;
  amount: number;
  email: string;
  productName: string;
};

/**
 * A refund of an unfulfillable checkout (by its key) that failed, or has stood pending long enough that the call
 * asking for it is gone, on a charge not refunded in full meanwhile; with what its apology needs.
 */
export const stalledRefund = (db: Conn, idempotencyKey: string) =>
  db('merchantRefunds as r')
    .join('purchases as p', 'p.merchantChargeId', 'r.merchantChargeId')
    .join('products as pr', 'pr.id', 'p.productId')
    .join('users as u', 'u.id', 'p.userId')
    .join('merchantCharges as c', 'c.id', 'r.merchantChargeId')
    .where('r.idempotencyKey', idempotencyKey)
    .where((q) =>
      q
        .where('r.status', 'failed')
        .orWhere('r.status', 'pending')
        .where('r.createdAt', '<', db.raw(`now() - interval '2 minutes'`)),
    )
    .whereRaw('c.refund_amount < c.amount')
    .first(
      'r.id',
      'r.merchantChargeId as chargeId',
      'r.reason',
      'r.amount',
      'u.email',
      'pr.name as productName',
    ) as Promise<StalledRefund | undefined>;

export const markRefundPending = (db: Conn, refundId: string) =>
  db('merchantRefunds').where({ id: refundId, status: 'failed' }).update({ status: 'pending' });

/** The columns a settled checkout's purchase is written with. */
export type NewPurchase = Pick<
  Purchase,
  | 'userId'
  | 'productId'
  | 'status'
  | 'totalAmount'
  | 'currency'
  | 'country'
  | 'ipAddress'
  | 'city'
  | 'state'
  | 'couponId'
  | 'merchantChargeId'
  | 'merchantSessionId'
  | 'upgradedFromId'
>;

/** How a checkout is settled by its purchase. */
export type CheckoutSettlement = Partial<Pick<CheckoutRow, 'buyerUserId' | 'team'>> & {
  status: 'fulfilled' | 'refunded';
};

/**
 * Writes a purchase in one statement: the checkout's settlement, its offer to be given away (`offerDays` after the
 * purchase, when there is one) and the other writes follow the new row through WITH.
 */
export async function insertPurchaseWith(
  trx: Knex.Transaction,
  purchase: NewPurchase,
  checkoutId: string,
  settled: CheckoutSettlement,
  offerDays: number | null,
  also: Knex.QueryBuilder[],
): Promise<string> {
  let write = trx.with('purchase', trx('purchases').insert(purchase).returning(['id', 'createdAt'])).with(
    'settled',
    trx('checkouts')
      .where({ id: checkoutId })
      .update({ ...settled, purchaseId: trx('purchase').select('id') }),
  );
  if (offerDays !== null) {
    const offer = trx('purchase').select(
      'id',
      trx.raw('?::uuid', [purchase.userId]),
      trx.raw('?', ['AVAILABLE']),
      trx.raw('?? + make_interval(secs => ?)', ['createdAt', offerDays * 86_400]),
    );
    write = write.with(
      'offer',
      trx
        .into(
          trx.raw('?? (??, ??, ??, ??)', [
            'purchaseUserTransfers',
            'purchaseId',
            'sourceUserId',
            'transferState',
            'expiresAt',
          ]),
        )
        .insert(offer),
    );
  }
  also.forEach((query, i) => (write = write.with(`also_${i}`, query)));
  const [inserted] = await write.select('id').from('purchase');
  return inserted.id;
}

/** The buyer's live team coupon for a product, locked (more seats are added to it). */
export const lockTeamCoupon = async (trx: Knex.Transaction, userId: string, productId: string) =>
  (
    await trx('purchases as p')
      .join('coupons as c', 'c.id', 'p.bulkCouponId')
      .where({ 'p.userId': userId, 'p.productId': productId })
      .whereIn('p.status', GRANTING_STATUSES)
      .forUpdate()
      .first('c.id as couponId')
  )?.couponId as string | undefined;

export const addSeats = (trx: Knex.Transaction, couponId: string, seats: number) =>
  trx('coupons').where({ id: couponId }).increment('maxUses', seats);

export async function insertPurchase(
  trx: Knex.Transaction,
  purchase: NewPurchase & Partial<Pick<Purchase, 'bulkCouponId'>>,
): Promise<string> {
  return insertRow(trx, 'purchases', purchase);
}

/** A new team's own 100 % coupon for its seats, tied to the purchase both ways. */
export async function insertTeamCoupon(
  trx: Knex.Transaction,
  purchaseId: string,
  productId: string,
  seats: number,
): Promise<void> {
  const [coupon] = await trx('coupons')
    .insert({ percentageDiscount: 1, maxUses: seats, restrictedToProductId: productId, bulkPurchaseId: purchaseId })
    .returning('id');
  await trx('purchases').where({ id: purchaseId }).update({ bulkCouponId: coupon.id });
}

export const settleCheckout = (
  trx: Knex.Transaction,
  checkoutId: string,
  settled: CheckoutSettlement & { purchaseId: string },
) => trx('checkouts').where({ id: checkoutId }).update(settled);

/** The team a purchase opened: its id, seats, and whether its owner took one. */
export const teamOfPurchase = (db: Conn, purchaseId: string) =>
  db('purchases as p')
    .join('coupons as c', 'c.id', 'p.bulkCouponId')
    .where('p.id', purchaseId)
    .first('c.bulkPurchaseId as teamId', 'c.maxUses as seats', ownerHasSeatColumn(db, 'c.id', 'p.userId')) as Promise<
    { teamId: string; seats: number; ownerHasSeat: boolean } | undefined
  >;

/** What the thank-you page names of a settled checkout: its product, what was paid, and the buyer's address. */
export async function receiptOfCheckout(
  db: Conn,
  checkoutId: string,
): Promise<
  | (Omit<CheckoutReceipt, 'coursePath' | 'email'> & { email: string; buyerUserId: string; purchasedAt: Date })
  | undefined
> {
  const row = await db('checkouts as c')
    .join('products as pr', 'pr.id', 'c.productId')
    .join('purchases as p', 'p.id', 'c.purchaseId')
    // The buyer at settlement: the receipt went to them, whoever holds the purchase now.
    .join('users as u', 'u.id', 'c.buyerUserId')
    .where('c.id', checkoutId)
    .first(
      'pr.id as productId',
      'pr.name as productName',
      'pr.slug as productSlug',
      'c.quantity',
      'c.amountTotal',
      'c.currency',
      'u.email',
      'u.id as buyerUserId',
      'p.merchantChargeId',
      'p.createdAt as purchasedAt',
    );
  if (!row) return undefined;
  return {
    product: { id: row.productId, name: row.productName, slug: row.productSlug },
    quantity: row.quantity,
    amount: row.amountTotal,
    currency: row.currency,
    email: row.email,
    invoiceId: row.merchantChargeId,
    buyerUserId: row.buyerUserId,
    purchasedAt: new Date(row.purchasedAt),
  };
}
