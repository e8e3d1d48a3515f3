import type { Knex } from 'knex';
import { Price, Product } from '../catalog/models';
import { enrollmentState } from '../catalog/service';
import { ledger } from '../finance/ledger';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Db } from '../db/connection';
import { AppError } from '../http/errors';
import type { User } from '../identity/models';
import { findOrCreateUserByEmail } from '../identity/users';
import type { Logger } from '../logger';
import type { Outbox } from '../mail/outbox';
import { receiptEmail, unfulfillableRefundEmail } from '../mail/templates';
import { merchantProductId } from '../payments/merchant-records';
import type { PaymentProvider, ProviderCheckout } from '../payments/provider';
import { COUPON_MESSAGES, problemFor } from './coupons';
import type { CommerceLimits } from './limits';
import { formatMoney } from './money';
import type { Quote } from './pricing';
import type { CheckoutOutcome, CheckoutStarted } from './schemas';
import type { QuoteService } from './quotes';
import { GRANTING_STATUSES } from './models';
import { holdingOf, holdingOfEmail, ownerHasSeatColumn } from './ownership';
import type { PurchaseLifecycle } from './purchase-lifecycle';
import { seatsSold } from './seats';
import { OPEN_TRANSFER_STATES } from './transfers';

export interface CheckoutInput {
  productId: string;
  quantity: number;
  team: boolean;
  couponCode?: string;
  ppp: boolean;
  upgradeFromId?: string;
  email?: string;
  buyer: User | null;
  country: string;
  city?: string | null;
  state?: string | null;
  ip: string | null;
}

export type CheckoutStatus = 'open' | 'fulfilled' | 'refunded' | 'canceled';

/**
 * A write of the caller's that must commit with a checkout's settlement or not at all (a provider's event marked
 * processed): run in the settling transaction when there is one.
 */
export type Alongside = (trx: Knex.Transaction) => Knex.QueryBuilder;

export interface Settled {
  status: CheckoutStatus;
  purchaseId: string | null;
  /** The caller's write ran, and committed with the settlement. */
  alongside?: true;
}

/** A row of `checkouts`, as fulfilment reads it. */
interface CheckoutRow {
  id: string;
  productId: string;
  quantity: number;
  team: boolean;
  couponId: string | null;
  upgradeFromId: string | null;
  buyerUserId: string | null;
  buyerEmail: string;
  country: string | null;
  ipAddress: string | null;
  city: string | null;
  state: string | null;
  amountTotal: number;
  creditAmount: number;
  currency: string;
  restricted: boolean;
  status: CheckoutStatus;
  purchaseId: string | null;
  merchantSessionId: string | null;
  couponReserved: boolean;
  expiresAt: Date;
}

/**
 * How long a checkout may stay unpaid (Stripe's shortest session): then it is ended at the provider, so it can no
 * longer be paid, and a coupon use it reserved comes back.
 */
export const CHECKOUT_MINUTES = 30;
const CHECKOUT_MS = CHECKOUT_MINUTES * 60_000;
/** Open checkouts the expiry sweep reads at a time (each may ask the provider twice), and at most how many reads a run. */
const EXPIRY_BATCH = 50;
const EXPIRY_BATCHES = 20;

type Availability =
  'sold-out' | 'enrollment-closed' | 'enrollment-not-open' | 'upgrade-not-available' | 'already-purchased' | null;

const MESSAGES: Record<Exclude<Availability, null>, string> = {
  'sold-out': 'This course is sold out.',
  'enrollment-closed': 'Enrollment for this course has closed.',
  'enrollment-not-open': 'Enrollment for this course has not opened yet.',
  'upgrade-not-available':
    'The course this upgrade was priced from is no longer yours to upgrade (it was upgraded, refunded or given away).',
  'already-purchased':
    'You already have this course, and a copy bought at a regional price cannot be given away as a seat.',
};

interface Deps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'publicUrl' | 'TRANSFER_WINDOW_DAYS'>;
  logger: Logger;
  outbox: Outbox;
  quotes: QuoteService;
  provider: PaymentProvider;
  refunds: Pick<PurchaseLifecycle, 'completeRefund'>;
  limits: Pick<CommerceLimits, 'checkoutStart'>;
}

/** What the provider shows next to the discount line: the kind of discount and any upgrade credit. */
function discountLabel(quote: Quote): string {
  const kinds: Record<string, string> = {
    ppp: 'Regional price',
    team: 'Team discount',
    coupon: 'Coupon',
    'default-coupon': 'Sale',
  };
  const parts = [quote.credit > 0 ? 'Upgrade credit' : null, quote.discount ? kinds[quote.discount.kind] : null].filter(
    Boolean,
  );
  return parts.join(' + ') || 'Discount';
}

/** What fulfilment needs of the product: its window, its seats and its name. */
type ProductFacts = Pick<Product, 'id' | 'name' | 'quantityAvailable' | 'enrollmentOpensAt' | 'enrollmentClosesAt'>;

/** The reason recorded on the refund of a payment that lost the last seat (its apology says so). */
const SOLD_OUT_REASON = 'Sold out before the payment completed';

/** The apology for a payment that could not be fulfilled, from the reason its refund records. */
const apologyFor = (to: string, productName: string, amount: string, reason: string) =>
  unfulfillableRefundEmail(
    to,
    productName,
    amount,
    reason === SOLD_OUT_REASON ? { soldOut: true } : { soldOut: false, reason },
  );

/** The key of the full refund of a checkout that could not be fulfilled. */
const soldOutRefundKey = (checkoutId: string) => `sold-out-${checkoutId}`;

/** What fulfilment needs of the buyer's account. */
type Buyer = Pick<User, 'id' | 'email'>;

/**
 * Checkout and fulfilment (DOMAIN §6). A checkout is quoted and recorded by us, paid at the provider, and
 * fulfilled exactly once by `fulfil`, which the provider's webhook and the thank-you page both call: the
 * checkout row is locked, and only the call that finds it open writes the purchase, charge, customer and
 * coupon use, and sends the email (after commit).
 */
export function checkoutService({ db, clock, config, logger, outbox, quotes, provider, refunds, limits }: Deps) {
  async function availability(
    trx: Knex | Knex.Transaction,
    product: ProductFacts,
    seats: number,
  ): Promise<Availability> {
    const enrollment = enrollmentState(product, clock.now());
    if (enrollment !== 'open') return enrollment === 'closed' ? 'enrollment-closed' : 'enrollment-not-open';
    if (product.quantityAvailable >= 0 && (await seatsSold(trx, product.id)) + seats > product.quantityAvailable)
      return 'sold-out';
    return null;
  }

  /**
   * The purchase an upgrade was priced from must still be the buyer's, grant access and not have been upgraded:
   * two upgrade checkouts paid at once, or a transfer meanwhile, must not spend one credit twice. Locked, so the
   * unique key on upgraded_from_id is never what decides.
   */
  async function upgradeProblem(trx: Knex.Transaction, checkout: CheckoutRow, buyer: Buyer): Promise<Availability> {
    if (!checkout.upgradeFromId || checkout.team) return null;
    const source = await trx('purchases')
      .where({ id: checkout.upgradeFromId })
      .forUpdate()
      .first('userId', 'status', 'merchantChargeId');
    const used = await trx('purchases').where({ upgradedFromId: checkout.upgradeFromId }).first('id');
    if (
      !source ||
      source.userId !== buyer.id ||
      !(GRANTING_STATUSES as readonly string[]).includes(source.status) ||
      used
    )
      return 'upgrade-not-available';
    // Refunded (or being refunded) since the quote: the credit given must still have been paid. A refund reserves
    // its amount under the source's lock, which is held here.
    if (source.merchantChargeId) {
      const charge = await trx('merchantCharges')
        .where({ id: source.merchantChargeId })
        .first('amount', 'refundAmount');
      const [pending] = await trx('merchantRefunds')
        .where({ merchantChargeId: source.merchantChargeId })
        .whereNot({ status: 'succeeded' })
        .sum({ amount: 'amount' });
      if (charge.amount - charge.refundAmount - Number(pending?.amount ?? 0) < checkout.creditAmount)
        return 'upgrade-not-available';
    }
    // Holding the target meanwhile (another tab, a seat): the credit is not turned into a copy to give away.
    if (await holdingOf(trx, buyer.id, checkout.productId, { except: checkout.upgradeFromId }))
      return 'upgrade-not-available';
    return null;
  }

  /**
   * Writes the purchase of a settled checkout (for teams also the team coupon, or more seats on it), settles the
   * checkout row and runs the writes that go with it (the buyer's email, a caller's write); a Valid individual
   * purchase gets its offer to be given to someone else for a while (DOMAIN §8). An individual purchase is written
   * in one statement: the checkout, the offer and the other writes follow the new row through WITH.
   */
  async function writePurchase(
    trx: Knex.Transaction,
    checkout: CheckoutRow,
    buyer: Buyer,
    charge: { id: string } | null,
    status: 'Valid' | 'Restricted' | 'Refunded',
    settled: { status: 'fulfilled' | 'refunded'; buyerUserId?: string; team?: boolean },
    also: Knex.QueryBuilder[],
  ): Promise<string> {
    const base = {
      userId: buyer.id,
      productId: checkout.productId,
      status,
      totalAmount: checkout.amountTotal,
      currency: checkout.currency,
      country: checkout.country,
      ipAddress: checkout.ipAddress,
      city: checkout.city,
      state: checkout.state,
      couponId: checkout.couponId,
      merchantChargeId: charge?.id ?? null,
      merchantSessionId: checkout.merchantSessionId,
      // A refunded payment spent no credit: the source stays upgradable.
      upgradedFromId: checkout.team || status === 'Refunded' ? null : checkout.upgradeFromId,
    };
    if (!checkout.team || status === 'Refunded') {
      let write = trx.with('purchase', trx('purchases').insert(base).returning(['id', 'createdAt'])).with(
        'settled',
        trx('checkouts')
          .where({ id: checkout.id })
          .update({ ...settled, purchaseId: trx('purchase').select('id') }),
      );
      if (status === 'Valid') {
        const offer = trx('purchase').select(
          'id',
          trx.raw('?::uuid', [buyer.id]),
          trx.raw('?', ['AVAILABLE']),
          trx.raw('?? + make_interval(secs => ?)', ['createdAt', config.TRANSFER_WINDOW_DAYS * 86_400]),
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
      const [purchase] = await write.select('id').from('purchase');
      return purchase.id;
    }
    // Team: more seats on the buyer's existing team coupon, or a new team with its own 100 % coupon.
    const existing = await trx('purchases as p')
      .join('coupons as c', 'c.id', 'p.bulkCouponId')
      .where({ 'p.userId': buyer.id, 'p.productId': checkout.productId })
      .whereIn('p.status', GRANTING_STATUSES)
      .forUpdate()
      .first('c.id as couponId');
    let purchaseId: string;
    if (existing) {
      await trx('coupons').where({ id: existing.couponId }).increment('maxUses', checkout.quantity);
      [{ id: purchaseId }] = await trx('purchases')
        .insert({ ...base, bulkCouponId: existing.couponId })
        .returning('id');
    } else {
      [{ id: purchaseId }] = await trx('purchases').insert(base).returning('id');
      const [coupon] = await trx('coupons')
        .insert({
          percentageDiscount: 1,
          maxUses: checkout.quantity,
          restrictedToProductId: checkout.productId,
          bulkPurchaseId: purchaseId,
        })
        .returning('id');
      await trx('purchases').where({ id: purchaseId }).update({ bulkCouponId: coupon.id });
    }
    await trx('checkouts')
      .where({ id: checkout.id })
      .update({ ...settled, purchaseId });
    for (const query of also) await query;
    return purchaseId;
  }

  /**
   * Takes one use of a limited coupon with one conditional update, so that N buyers racing for M uses left get
   * exactly M checkouts; the losers hear `coupon-used-up` before paying anything (`coupon-not-valid` when not signed
   * in, as every coupon problem is for them). The use comes back when the checkout is canceled or expires.
   */
  async function reserveCouponUse(trx: Knex.Transaction, couponId: string, precise: boolean): Promise<boolean> {
    const coupon = await trx('coupons').where({ id: couponId }).first('maxUses');
    if (coupon.maxUses === -1) return false;
    const taken = await trx('coupons')
      .where({ id: couponId })
      .where('usedCount', '<', trx.raw('max_uses'))
      .increment('usedCount', 1);
    if (!taken) {
      const problem = problemFor('coupon-used-up', precise);
      throw new AppError(problem, COUPON_MESSAGES[problem], {
        coupon: precise ? 'is used up' : COUPON_MESSAGES[problem],
      });
    }
    return true;
  }

  /** Counts the use of an unlimited coupon at fulfilment (a limited one was counted when the checkout began). */
  async function countCouponUse(trx: Knex.Transaction, checkout: CheckoutRow): Promise<void> {
    if (checkout.couponId && !checkout.couponReserved)
      await trx('coupons').where({ id: checkout.couponId }).increment('usedCount', 1);
  }

  /** Ends an open checkout unpaid; only the call that moves it from open gives a reserved coupon use back. */
  async function cancel(checkoutId: string): Promise<void> {
    await db.transaction(async (trx) => {
      const [checkout] = await trx('checkouts')
        .where({ id: checkoutId, status: 'open' })
        .update({ status: 'canceled' })
        .returning(['couponId', 'couponReserved']);
      if (checkout?.couponReserved)
        await trx('coupons').where({ id: checkout.couponId }).where('usedCount', '>', 0).decrement('usedCount', 1);
    });
  }

  /** A checkout with its provider session's identifier (null while none is recorded, and for free checkouts). */
  type Found = CheckoutRow & { sessionIdentifier: string | null };
  const withSession = () => db('checkouts as c').leftJoin('merchantSessions as s', 's.id', 'c.merchantSessionId');

  /**
   * Fulfils (or cancels) a checkout read a moment ago: the provider is asked first, outside any transaction, then
   * the checkout row is locked and only the call that still finds it open writes anything.
   */
  async function settle(found: Found, alongside?: Alongside, known?: ProviderCheckout): Promise<Settled> {
    if (found.status === 'refunded') await finishRefund(found);
    if (found.status !== 'open') return { status: found.status, purchaseId: found.purchaseId };
    const checkoutId = found.id;
    const free = found.amountTotal === 0;
    let paid = null;
    if (!free) {
      if (!found.sessionIdentifier) return { status: 'open', purchaseId: null };
      paid = known ?? (await provider.retrieveCheckout(found.sessionIdentifier));
      if (paid.status === 'canceled') {
        await cancel(checkoutId);
        return { status: 'canceled', purchaseId: null };
      }
      if (paid.status !== 'paid' || !paid.charge) return { status: 'open', purchaseId: null };
    }
    // Known before the transaction (a checkout's amount never changes), so nothing waits on them under the locks.
    const accountId = await provider.accountId();
    const amount = formatMoney(found.amountTotal, found.currency);

    const alsoOf = (trx: Knex.Transaction) => (alongside ? [alongside(trx)] : []);
    const outcome = await db.transaction(async (trx) => {
      // The checkout and its product, locked (seats are counted under the product's lock: concurrent fulfilments
      // never sell more than there are), with the product's provider mirror and the buyer's account (the signed-in
      // buyer's, else the one with the checkout's email, if any).
      const row = await trx('checkouts as c')
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
        );
      const checkout = row as CheckoutRow;
      if (checkout.status !== 'open')
        return {
          status: checkout.status as CheckoutStatus,
          purchaseId: checkout.purchaseId as string | null,
          email: null,
          alongside: undefined,
        };
      const product: ProductFacts = {
        id: checkout.productId,
        name: row.productName,
        quantityAvailable: row.productQuantityAvailable,
        enrollmentOpensAt: row.productEnrollmentOpensAt,
        enrollmentClosesAt: row.productEnrollmentClosesAt,
      };
      let buyer: Buyer | undefined = row.buyerId ? { id: row.buyerId, email: row.buyerAddress } : undefined;
      if (!buyer) {
        // A new buyer gets an account (unverified until they sign in); one created meanwhile is found instead.
        [buyer] = await trx('users')
          .insert({ email: checkout.buyerEmail })
          .onConflict(trx.raw('(lower(email))'))
          .ignore()
          .returning(['id', 'email']);
        buyer ??= await findOrCreateUserByEmail(trx, checkout.buyerEmail, { verified: false });
      }

      let charge: { id: string } | null = null;
      if (paid?.charge) {
        // The provider's customer (recorded, or active again) and the charge, in one statement.
        const customer = trx('merchantCustomers')
          .insert({ merchantAccountId: accountId, identifier: paid.customer!.identifier, userId: buyer.id })
          .onConflict(['merchantAccountId', 'identifier'])
          .merge({ status: 'active' })
          .returning('id');
        const [inserted] = await trx
          .with('customer', customer)
          .into('merchantCharges')
          .insert({
            merchantAccountId: accountId,
            identifier: paid.charge.identifier,
            amount: paid.charge.amount,
            fee: paid.charge.fee,
            net: paid.charge.amount - paid.charge.fee,
            currency: checkout.currency,
            userId: buyer.id,
            merchantProductId:
              row.merchantProductId ??
              (await merchantProductId(trx, accountId, product.id, `${provider.label}-${product.id}`)),
            merchantCustomerId: trx('customer').select('id'),
            metadata: JSON.stringify({ checkoutId, country: checkout.country }),
          })
          .returning('id');
        charge = inserted ?? null;
        if (charge) await ledger.recordSale(trx, charge.id);
      }

      // Someone who has the course already (a guest who paid with an owning email, a second tab) gets the copy as a
      // one-seat team to give away, never a duplicate (DOMAIN §5.5). Refunded instead: an upgrade (below), and a
      // regional-price copy, which as a seat would open the course anywhere. Same-product payments are serialized by
      // the product's lock above, so two of them cannot both miss each other.
      const holds =
        !checkout.team && !checkout.upgradeFromId && Boolean(await holdingOf(trx, buyer.id, checkout.productId));
      const converted = holds && !checkout.restricted;
      if (converted) checkout.team = true;
      const seats = checkout.team ? checkout.quantity : 1;
      const problem: Availability =
        (holds && !converted ? 'already-purchased' : null) ??
        (await availability(trx, product, seats)) ??
        (await upgradeProblem(trx, checkout, buyer));
      if (problem && charge && paid?.charge) {
        // Paid after the last seat went (or the upgrade source was used meanwhile): refunded in full. The refund is
        // reserved here and asked of the provider after commit, never under these locks; its key makes any retry
        // replay it rather than refund twice.
        const reason = problem === 'sold-out' ? SOLD_OUT_REASON : MESSAGES[problem];
        const [refund] = await trx('merchantRefunds')
          .insert({
            merchantAccountId: accountId,
            merchantChargeId: charge.id,
            amount: paid.charge.amount,
            reason,
            idempotencyKey: soldOutRefundKey(checkoutId),
          })
          .returning('id');
        if (checkout.couponReserved)
          await trx('coupons').where({ id: checkout.couponId }).where('usedCount', '>', 0).decrement('usedCount', 1);
        const purchaseId = await writePurchase(trx, checkout, buyer, charge, 'Refunded', { status: 'refunded' }, []);
        const apology = apologyFor(
          buyer.email,
          product.name,
          formatMoney(paid.charge.amount, checkout.currency),
          reason,
        );
        return {
          status: 'refunded' as const,
          purchaseId,
          email: false,
          alongside: undefined,
          refund: { id: refund.id as string, chargeId: charge.id, reason, apology },
        };
      }
      if (problem) throw new AppError(problem, MESSAGES[problem]);

      await countCouponUse(trx, checkout);
      if (checkout.upgradeFromId && !checkout.team) {
        // The credit is spent: the source can no longer be given away (DOMAIN §5.3).
        await trx('purchaseUserTransfers')
          .where({ purchaseId: checkout.upgradeFromId })
          .whereIn('transferState', OPEN_TRANSFER_STATES)
          .update({ transferState: 'CANCELED', canceledAt: trx.fn.now() });
      }
      const invoiceUrl = charge && new URL(`/invoices/${charge.id}`, config.publicUrl).toString();
      const receipt =
        charge &&
        receiptEmail(
          buyer.email,
          product.name,
          amount,
          invoiceUrl!,
          checkout.team ? { seats: checkout.quantity } : null,
        );
      const also = [...(receipt ? [outbox.enqueueQuery(trx, receipt)] : []), ...alsoOf(trx)];
      const settled = { status: 'fulfilled' as const, buyerUserId: buyer.id, ...(converted && { team: true }) };
      const purchaseId = await writePurchase(
        trx,
        checkout,
        buyer,
        charge,
        checkout.restricted ? 'Restricted' : 'Valid',
        settled,
        also,
      );
      return { status: 'fulfilled' as const, purchaseId, email: Boolean(charge), alongside: alongside && true };
    });
    if (outcome.email) outbox.flushInBackground();
    if ('refund' in outcome && outcome.refund) {
      const { apology, ...reserved } = outcome.refund;
      await refunds.completeRefund(reserved, async () => apology);
    }
    return { status: outcome.status, purchaseId: outcome.purchaseId, ...(outcome.alongside && { alongside: true }) };
  }

  /**
   * A checkout refunded because it could not be fulfilled whose refund did not complete (the provider unreachable,
   * the process gone after commit) completes it now: every later settle of it (a webhook redelivery, the thank-you
   * page) comes here until the provider has refunded it.
   */
  async function finishRefund(found: Found): Promise<void> {
    const pending = await db('merchantRefunds as r')
      .join('purchases as p', 'p.merchantChargeId', 'r.merchantChargeId')
      .join('products as pr', 'pr.id', 'p.productId')
      .join('users as u', 'u.id', 'p.userId')
      .join('merchantCharges as c', 'c.id', 'r.merchantChargeId')
      .where('r.idempotencyKey', soldOutRefundKey(found.id))
      // A pending one is being asked for by the call that settled it, unless that call is long gone.
      .where((q) =>
        q
          .where('r.status', 'failed')
          .orWhere('r.status', 'pending')
          .where('r.createdAt', '<', db.raw(`now() - interval '2 minutes'`)),
      )
      // Refunded meanwhile (at the provider's dashboard, say): nothing left to ask for.
      .whereRaw('c.refund_amount < c.amount')
      .first('r.id', 'r.merchantChargeId as chargeId', 'r.reason', 'r.amount', 'u.email', 'pr.name as productName');
    if (!pending) return;
    await db('merchantRefunds').where({ id: pending.id, status: 'failed' }).update({ status: 'pending' });
    const apology = apologyFor(
      pending.email,
      pending.productName,
      formatMoney(pending.amount, found.currency),
      pending.reason,
    );
    await refunds.completeRefund(
      { id: pending.id, chargeId: pending.chargeId, reason: pending.reason },
      async () => apology,
    );
  }

  /**
   * Ends one checkout that outlived its time. One with a provider session is first ended at the provider, which
   * decides once between a payment landing at the same moment and the expiry: paid → fulfilled as any payment is
   * (a limited coupon's reserved use is kept), canceled → canceled here, the use given back by `cancel`'s conditional
   * update. One still being paid for (a payment under way) is looked at again a checkout's time later.
   */
  async function expireOne(found: Found): Promise<CheckoutStatus> {
    if (!found.sessionIdentifier) {
      // Free, or its provider session never recorded (the start failed midway): nothing can be paid for it.
      await cancel(found.id);
      return 'canceled';
    }
    const final = await provider.expireCheckout(found.sessionIdentifier);
    const settled = await settle(found, undefined, final);
    if (settled.status === 'open') {
      await db('checkouts')
        .where({ id: found.id, status: 'open' })
        .update({ expiresAt: new Date(clock.now().getTime() + CHECKOUT_MS) });
    }
    return settled.status;
  }

  return {
    /**
     * The expiry sweep (run every minute beside the requests): open checkouts whose time passed are ended, and their
     * reserved coupon uses come back. One whose provider session was never recorded waits a checkout's time more, so
     * that a session created late at the provider has expired there too. Answers how many ended unpaid.
     */
    async expireAbandoned(): Promise<number> {
      const now = clock.now();
      const tried: string[] = [];
      let canceled = 0;
      for (let batch = 0; batch < EXPIRY_BATCHES; batch++) {
        const due = (await withSession()
          .where('c.status', 'open')
          .where('c.expiresAt', '<=', now)
          .where((q) =>
            q
              .whereNotNull('c.merchantSessionId')
              .orWhere('c.amountTotal', 0)
              .orWhere('c.expiresAt', '<=', new Date(now.getTime() - CHECKOUT_MS)),
          )
          .whereNotIn('c.id', tried)
          .orderBy('c.expiresAt')
          .limit(EXPIRY_BATCH)
          .select('c.*', 's.identifier as sessionIdentifier')) as Found[];
        for (const found of due) {
          tried.push(found.id);
          try {
            if ((await expireOne(found)) === 'canceled') canceled++;
          } catch (error) {
            // The provider unreachable, say: the checkout stays open (its use reserved) until a later sweep.
            logger.warn({ err: error, checkoutId: found.id }, 'expiring a checkout failed; the next sweep retries');
          }
        }
        if (due.length < EXPIRY_BATCH) break;
      }
      return canceled;
    },

    async create(input: CheckoutInput): Promise<CheckoutStarted> {
      // Counted before anything is quoted, reserved or asked of the provider.
      await limits.checkoutStart({ ip: input.ip, buyerId: input.buyer?.id ?? null, email: input.email });
      const answer = await quotes.quote({
        productId: input.productId,
        quantity: input.quantity,
        forTeam: input.team,
        couponCode: input.couponCode,
        country: input.country,
        pppRequested: input.ppp,
        upgradeFromId: input.upgradeFromId,
        buyer: input.buyer,
      });
      if (answer.coupon?.problem)
        throw new AppError(answer.coupon.problem, answer.coupon.message!, { coupon: answer.coupon.message! });
      const email = input.buyer?.email ?? input.email;
      if (!email)
        throw new AppError('validation-failed', 'Enter an email address for your receipt.', {
          email: 'is required when not signed in',
        });
      if (!input.buyer && !answer.team && (await holdingOfEmail(db, email, input.productId))) {
        // Said before payment (DOMAIN §5.5): a guest cannot see that this address owns the course.
        throw new AppError(
          'email-owns-product',
          `${email} already owns this course. Sign in to use it, or buy it as a seat to give away.`,
          {
            email: 'already owns this course',
          },
        );
      }
      const product = (await Product.query(db).findById(input.productId))!;
      const price = (await Price.query(db).findOne({ productId: product.id, status: 'active' }))!;
      const seats = answer.team ? input.quantity : 1;
      const problem = await availability(db, product, seats);
      if (problem) throw new AppError(problem, MESSAGES[problem]);

      const { quote } = answer;
      const couponId = quote.discount?.couponId ?? null;
      const checkout = await db.transaction(async (trx) => {
        const couponReserved = couponId ? await reserveCouponUse(trx, couponId, Boolean(input.buyer)) : false;
        const [row] = await trx('checkouts')
          .insert({
            productId: product.id,
            priceId: price.id,
            quantity: input.quantity,
            team: Boolean(answer.team),
            couponId,
            couponReserved,
            upgradeFromId: answer.upgrade?.fromPurchaseId ?? null,
            buyerUserId: input.buyer?.id ?? null,
            buyerEmail: email,
            country: input.country,
            city: input.city ?? null,
            state: input.state ?? null,
            ipAddress: input.ip,
            amountTotal: quote.finalPrice,
            creditAmount: quote.credit,
            currency: answer.currency,
            restricted: quote.restricted,
            expiresAt: new Date(clock.now().getTime() + CHECKOUT_MS),
          })
          .returning('id');
        return row as { id: string };
      });
      const thanks = new URL(`/thanks?checkout=${checkout.id}`, config.publicUrl).toString();
      if (quote.free) {
        try {
          await this.fulfil(checkout.id);
        } catch (error) {
          await cancel(checkout.id);
          throw error;
        }
        return { checkoutId: checkout.id, url: thanks };
      }
      const taken = quote.fullPrice - quote.finalPrice;
      const description = answer.team ? `${product.name} × ${input.quantity} seats` : product.name;
      let session: { identifier: string; url: string };
      try {
        session = await provider.createCheckout({
          reference: checkout.id,
          product: { id: product.id, name: product.name },
          price: { id: price.id, unitAmount: price.unitAmount },
          quantity: input.quantity,
          description,
          discount: taken > 0 ? { amount: taken, label: discountLabel(quote) } : null,
          amount: quote.finalPrice,
          currency: answer.currency,
          customerEmail: email,
          successUrl: thanks,
          cancelUrl: new URL(`/products/${product.slug ?? product.id}?canceled=1`, config.publicUrl).toString(),
          metadata: {
            checkoutId: checkout.id,
            productId: product.id,
            quantity: String(input.quantity),
            ...(couponId && { couponId }),
            ...(answer.upgrade && { upgradeFromId: answer.upgrade.fromPurchaseId }),
            country: input.country,
            buyerEmail: email,
          },
        });
      } catch (error) {
        await cancel(checkout.id); // nothing can be paid: the coupon use goes back at once
        throw error;
      }
      const accountId = await provider.accountId();
      await db.transaction(async (trx) => {
        const [merchantSession] = await trx('merchantSessions')
          .insert({ merchantAccountId: accountId, identifier: session.identifier })
          .returning('id');
        await trx('checkouts').where({ id: checkout.id }).update({ merchantSessionId: merchantSession.id });
      });
      return { checkoutId: checkout.id, url: session.url };
    },

    cancel,

    /** The checkout a provider session belongs to (the provider's events name only its session). */
    async checkoutForSession(sessionIdentifier: string): Promise<string | null> {
      const row = await withSession().where('s.identifier', sessionIdentifier).first('c.id');
      return row?.id ?? null;
    },

    /**
     * Settles the checkout of a provider session (paid → fulfilled, canceled → canceled); unknown sessions are
     * ignored. `alongside` commits with a fulfilment (the answer says so), and is not run otherwise.
     */
    async settleSession(sessionIdentifier: string, alongside?: Alongside): Promise<Settled | null> {
      const found = (await withSession()
        .where('s.identifier', sessionIdentifier)
        .first('c.*', 's.identifier as sessionIdentifier')) as Found | undefined;
      return found ? settle(found, alongside) : null;
    },

    /** Fulfils a paid checkout exactly once; any number of concurrent calls, from anywhere, converge. */
    async fulfil(checkoutId: string): Promise<Settled> {
      const found = (await withSession()
        .where('c.id', checkoutId)
        .first('c.*', 's.identifier as sessionIdentifier')) as Found | undefined;
      if (!found) throw new AppError('not-found', 'No such checkout.');
      return settle(found);
    },

    /**
     * The thank-you page's answer: the settlement, and for a team purchase its team (the whole team's seats), since
     * a team purchase opens no course until its buyer takes a seat (DOMAIN §7).
     */
    async outcome(checkoutId: string): Promise<CheckoutOutcome> {
      const settled = await this.fulfil(checkoutId);
      const team =
        settled.status === 'fulfilled' && settled.purchaseId
          ? await db('purchases as p')
              .join('coupons as c', 'c.id', 'p.bulkCouponId')
              .where('p.id', settled.purchaseId)
              .first('c.bulkPurchaseId as teamId', 'c.maxUses as seats', ownerHasSeatColumn(db, 'c.id', 'p.userId'))
          : null;
      return { ...settled, team: team ?? null };
    },
  };
}

export type CheckoutService = ReturnType<typeof checkoutService>;
