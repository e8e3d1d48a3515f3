import type { Knex } from 'knex';
import type { Product } from '../../catalog/models';
import { splitsOf, type RevenueSplit } from '../../finance/ledger';
import type { User } from '../../identity/models';
import type { CheckoutRow } from './checkout-rows';
import { prepared } from '../../db/prepared';

/** What fulfilment needs of the product: its window, its seats, its name and kind (a workshop's receipt differs). */
export type ProductFacts = Pick<
  Product,
  'id' | 'name' | 'productType' | 'quantityAvailable' | 'enrollmentOpensAt' | 'enrollmentClosesAt'
>;

/**
 * What fulfilment needs of the buyer's account. `created`: written by this settlement, so it holds nothing, has no
 * preferences and nobody can have blocked it (no other transaction sees it before the commit).
 */
export type Buyer = Pick<User, 'id' | 'email'> & { created?: true };

/** The join `lockCheckout` reads (a shape no model has: the checkout's columns beside product and buyer columns). */
type LockedRow = CheckoutRow & {
  productName: string;
  productType: Product['productType'];
  productQuantityAvailable: number;
  productEnrollmentOpensAt: Date | null;
  productEnrollmentClosesAt: Date | null;
  buyerId: string | null;
  buyerAddress: string | null;
  merchantProductId: string | null;
  revenueSplits: RevenueSplit[];
  splitsStale: boolean;
};

export interface LockedCheckout {
  checkout: CheckoutRow;
  product: ProductFacts;
  /** The signed-in buyer's account, else the one with the checkout's email, if any. */
  buyer: Buyer | null;
  /** The product's active mirror at the provider's account, if recorded. */
  merchantProductId: string | null;
  /** The product's revenue splits, which a sale's ledger lines follow (read under the product's lock). */
  revenueSplits: RevenueSplit[];
}

/**
 * The checkout and its product, locked in that order (seats are counted under the product's lock: concurrent
 * fulfilments never sell more than there are), with the product's provider mirror and the buyer's account.
 * As `lockCheckouts` takes them, so a lone settlement and a batch never wait on each other in a circle.
 */
export async function lockCheckout(
  trx: Knex.Transaction,
  checkoutId: string,
  accountId: string,
): Promise<LockedCheckout> {
  const [locked] = await lockCheckouts(trx, [checkoutId], accountId);
  return locked!;
}

/**
 * `lockCheckout` for several checkouts (a batch of fulfilments, docs/domain.md §6.2). Every settlement, lone or in a
 * batch, takes every checkout's lock first, in the order of their ids, then every product's, in the order of theirs:
 * whoever holds a product holds all its checkouts already, so no two settlements wait on each other in a circle.
 * (One statement locking both would take each row's checkout and then its product, row by row.) Answered in the
 * order of their products, then their ids.
 */
export async function lockCheckouts(
  trx: Knex.Transaction,
  checkoutIds: string[],
  accountId: string,
): Promise<LockedCheckout[]> {
  // PostgreSQL locks a locking SELECT's rows as they leave its ORDER BY: in the order of the ids.
  // The ids as one array: the statements' text, and so their plans, are the same for any size of batch.
  await trx('checkouts')
    .whereRaw('?? = ANY(?::uuid[])', ['id', checkoutIds])
    .orderBy('id')
    .forUpdate()
    .select('id')
    .options(prepared(trx, 'lock-checkouts'));
  // The products' locks, in the order of their ids; the checkouts' rows, locked above, are read as they now stand.
  const rows = (await trx('checkouts as c')
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
    .whereRaw('?? = ANY(?::uuid[])', ['c.id', checkoutIds])
    .orderBy(['p.id', 'c.id'])
    .forUpdate('p')
    .select(
      'c.*',
      'p.name as productName',
      'p.productType',
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
      trx.raw(
        `(SELECT coalesce(json_agg(json_build_object('type', s.type, 'userId', s.user_id, 'percent', s.percent::text)
            ORDER BY s.created_at), '[]') FROM product_revenue_splits s WHERE s.product_id = c.product_id) AS revenue_splits`,
      ),
      // The subqueries read the statement's snapshot, taken before any wait for the product's lock; the locked row
      // is its latest version. An edit of the splits updates the product row, so a newer version there means the
      // splits above may be older than the ones committed while this waited.
      trx.raw(`p.xmin::text <> (SELECT xmin::text FROM products WHERE id = c.product_id) AS splits_stale`),
    )
    .options(prepared(trx, 'locked-checkouts'))) as LockedRow[];
  const locked: LockedCheckout[] = [];
  for (const row of rows) locked.push(await lockedOf(trx, row));
  return locked;
}

async function lockedOf(trx: Knex.Transaction, row: LockedRow): Promise<LockedCheckout> {
  const {
    productName,
    productType,
    productQuantityAvailable,
    productEnrollmentOpensAt,
    productEnrollmentClosesAt,
    buyerId,
    buyerAddress,
    merchantProductId,
    revenueSplits,
    splitsStale,
    ...checkout
  } = row;
  return {
    checkout,
    product: {
      id: checkout.productId,
      name: productName,
      productType,
      quantityAvailable: productQuantityAvailable,
      enrollmentOpensAt: productEnrollmentOpensAt,
      enrollmentClosesAt: productEnrollmentClosesAt,
    },
    buyer: buyerId ? { id: buyerId, email: buyerAddress! } : null,
    merchantProductId,
    // Read again in a statement of its own, whose snapshot is taken after the lock.
    revenueSplits: splitsStale ? await splitsOf(trx, checkout.productId) : revenueSplits,
  };
}

/** A new, unverified account for an email; nothing when one with that email exists (created meanwhile). */
export async function insertAccount(trx: Knex.Transaction, email: string): Promise<Buyer | undefined> {
  const [buyer] = (await trx('users')
    .insert({ email })
    .onConflict(trx.raw('(lower(email))'))
    .ignore()
    .returning(['id', 'email'])) as Pick<User, 'id' | 'email'>[];
  return buyer && { ...buyer, created: true };
}
