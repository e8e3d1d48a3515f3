import type { Knex } from 'knex';
import { Price, Product } from '../catalog/models';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Db } from '../db/connection';
import { AppError } from '../http/errors';
import type { User } from '../identity/models';
import { findOrCreateUserByEmail } from '../identity/users';
import type { Logger } from '../logger';
import type { Outbox } from '../mail/outbox';
import { receiptEmail, soldOutRefundEmail } from '../mail/templates';
import type { PaymentProvider } from '../payments/provider';
import type { QuoteService } from './quotes';
import { seatsSold } from './seats';

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
  ip: string | null;
}

export type CheckoutStatus = 'open' | 'fulfilled' | 'refunded' | 'canceled';

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
  currency: string;
  restricted: boolean;
  status: CheckoutStatus;
  purchaseId: string | null;
  merchantSessionId: string | null;
}

type Availability = 'sold-out' | 'enrollment-closed' | 'enrollment-not-open' | null;

const MESSAGES: Record<Exclude<Availability, null>, string> = {
  'sold-out': 'This course is sold out.',
  'enrollment-closed': 'Enrollment for this course has closed.',
  'enrollment-not-open': 'Enrollment for this course has not opened yet.',
};

function money(cents: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);
}

interface Deps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'publicUrl'>;
  logger: Logger;
  outbox: Outbox;
  quotes: QuoteService;
  provider: PaymentProvider;
}

/**
 * Checkout and fulfilment (DOMAIN §6). A checkout is quoted and recorded by us, paid at the provider, and
 * fulfilled exactly once by `fulfil`, which the provider's webhook and the thank-you page both call: the
 * checkout row is locked, and only the call that finds it open writes the purchase, charge, customer and
 * coupon use, and sends the email (after commit).
 */
export function checkoutService({ db, clock, config, logger, outbox, quotes, provider }: Deps) {
  async function availability(trx: Knex | Knex.Transaction, product: Product, seats: number): Promise<Availability> {
    const now = clock.now();
    if (product.enrollmentOpensAt && product.enrollmentOpensAt > now) return 'enrollment-not-open';
    if (product.enrollmentClosesAt && product.enrollmentClosesAt <= now) return 'enrollment-closed';
    if (product.quantityAvailable >= 0 && (await seatsSold(trx, product.id)) + seats > product.quantityAvailable) return 'sold-out';
    return null;
  }

  async function merchantAccountId(trx: Knex.Transaction): Promise<string> {
    await trx('merchantAccounts').insert({ label: provider.label, identifier: provider.accountIdentifier }).onConflict('label').ignore();
    return (await trx('merchantAccounts').where({ label: provider.label }).first('id')).id;
  }

  /** The provider-side mirror of a product under this account (created on first sale). */
  async function merchantProductId(trx: Knex.Transaction, accountId: string, productId: string): Promise<string> {
    const identifier = `${provider.label}-${productId}`;
    await trx('merchantProducts').insert({ merchantAccountId: accountId, identifier, productId }).onConflict(['merchantAccountId', 'identifier']).ignore();
    return (await trx('merchantProducts').where({ merchantAccountId: accountId, identifier }).first('id')).id;
  }

  /** Writes the purchase (and, for teams, the team coupon or more seats on it) for a fulfilled checkout. */
  async function writePurchase(
    trx: Knex.Transaction,
    checkout: CheckoutRow,
    buyer: User,
    charge: { id: string } | null,
    status: 'Valid' | 'Restricted' | 'Refunded',
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
      upgradedFromId: checkout.team ? null : checkout.upgradeFromId,
    };
    if (!checkout.team || status === 'Refunded') {
      const [purchase] = await trx('purchases').insert(base).returning('id');
      return purchase.id;
    }
    // Team: more seats on the buyer's existing team coupon, or a new team with its own 100 % coupon.
    const existing = await trx('purchases as p')
      .join('coupons as c', 'c.id', 'p.bulkCouponId')
      .where({ 'p.userId': buyer.id, 'p.productId': checkout.productId })
      .whereIn('p.status', ['Valid', 'Restricted'])
      .forUpdate()
      .first('c.id as couponId');
    if (existing) {
      await trx('coupons').where({ id: existing.couponId }).increment('maxUses', checkout.quantity);
      const [purchase] = await trx('purchases').insert({ ...base, bulkCouponId: existing.couponId }).returning('id');
      return purchase.id;
    }
    const [purchase] = await trx('purchases').insert(base).returning('id');
    const [coupon] = await trx('coupons')
      .insert({ percentageDiscount: 1, maxUses: checkout.quantity, restrictedToProductId: checkout.productId, bulkPurchaseId: purchase.id })
      .returning('id');
    await trx('purchases').where({ id: purchase.id }).update({ bulkCouponId: coupon.id });
    return purchase.id;
  }

  /**
   * Counts one use of the coupon with one conditional update, so N racing redemptions of a coupon with M uses
   * left end with exactly M. A free redemption without a use left is refused; a price already paid is honoured.
   */
  async function useCoupon(trx: Knex.Transaction, checkout: CheckoutRow): Promise<void> {
    if (!checkout.couponId) return;
    const used = await trx('coupons')
      .where({ id: checkout.couponId })
      .where((q) => q.where('maxUses', -1).orWhere('usedCount', '<', trx.raw('max_uses')))
      .increment('usedCount', 1);
    if (used) return;
    if (checkout.amountTotal === 0) throw new AppError('coupon-used-up', 'This coupon has been used as many times as it allows.', { coupon: 'is used up' });
    logger.warn({ checkoutId: checkout.id, couponId: checkout.couponId }, 'coupon was used up while this checkout was being paid; its price is honoured');
  }

  return {
    async create(input: CheckoutInput): Promise<{ checkoutId: string; url: string }> {
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
      if (answer.coupon?.problem) throw new AppError(answer.coupon.problem, answer.coupon.message!, { coupon: answer.coupon.message! });
      const email = input.buyer?.email ?? input.email;
      if (!email) throw new AppError('validation-failed', 'Enter an email address for your receipt.', { email: 'is required when not signed in' });
      const product = (await Product.query(db).findById(input.productId))!;
      const price = (await Price.query(db).findOne({ productId: product.id, status: 'active' }))!;
      const seats = answer.team ? input.quantity : 1;
      const problem = await availability(db, product, seats);
      if (problem) throw new AppError(problem, MESSAGES[problem]);

      const { quote } = answer;
      const [checkout] = await db('checkouts')
        .insert({
          productId: product.id,
          priceId: price.id,
          quantity: input.quantity,
          team: Boolean(answer.team),
          couponId: quote.discount?.couponId ?? null,
          upgradeFromId: answer.upgrade?.fromPurchaseId ?? null,
          buyerUserId: input.buyer?.id ?? null,
          buyerEmail: email,
          country: input.country,
          ipAddress: input.ip,
          amountTotal: quote.finalPrice,
          currency: answer.currency,
          restricted: quote.restricted,
        })
        .returning('id');
      const thanks = new URL(`/thanks?checkout=${checkout.id}`, config.publicUrl).toString();
      if (quote.free) {
        try {
          await this.fulfil(checkout.id);
        } catch (error) {
          await db('checkouts').where({ id: checkout.id, status: 'open' }).update({ status: 'canceled' });
          throw error;
        }
        return { checkoutId: checkout.id, url: thanks };
      }
      const session = await provider.createCheckout({
        reference: checkout.id,
        description: answer.team ? `${product.name} × ${input.quantity} seats` : product.name,
        amount: quote.finalPrice,
        currency: answer.currency,
        customerEmail: email,
        successUrl: thanks,
        cancelUrl: new URL(`/products/${product.slug ?? product.id}?canceled=1`, config.publicUrl).toString(),
      });
      await db.transaction(async (trx) => {
        const accountId = await merchantAccountId(trx);
        const [merchantSession] = await trx('merchantSessions').insert({ merchantAccountId: accountId, identifier: session.identifier }).returning('id');
        await trx('checkouts').where({ id: checkout.id }).update({ merchantSessionId: merchantSession.id });
      });
      return { checkoutId: checkout.id, url: session.url };
    },

    /** Fulfils a paid checkout exactly once; any number of concurrent calls, from anywhere, converge. */
    async fulfil(checkoutId: string): Promise<{ status: CheckoutStatus; purchaseId: string | null }> {
      const found = (await db('checkouts').where({ id: checkoutId }).first()) as CheckoutRow | undefined;
      if (!found) throw new AppError('not-found', 'No such checkout.');
      if (found.status !== 'open') return { status: found.status, purchaseId: found.purchaseId };
      const free = found.amountTotal === 0;
      let paid = null;
      if (!free) {
        const session = await db('merchantSessions').where({ id: found.merchantSessionId }).first('identifier');
        if (!session) return { status: 'open', purchaseId: null };
        paid = await provider.retrieveCheckout(session.identifier);
        if (paid.status === 'canceled') {
          await db('checkouts').where({ id: checkoutId, status: 'open' }).update({ status: 'canceled' });
          return { status: 'canceled', purchaseId: null };
        }
        if (paid.status !== 'paid' || !paid.charge) return { status: 'open', purchaseId: null };
      }

      const outcome = await db.transaction(async (trx) => {
        const checkout = (await trx('checkouts').where({ id: checkoutId }).forUpdate().first()) as CheckoutRow;
        if (checkout.status !== 'open') return { status: checkout.status as CheckoutStatus, purchaseId: checkout.purchaseId as string | null, email: null };
        // Seats are counted under a lock on the product: concurrent fulfilments never sell more than there are.
        const product = (await Product.query(trx).findById(checkout.productId).forUpdate())!;
        const buyer = checkout.buyerUserId
          ? (await trx('users').where({ id: checkout.buyerUserId }).first()) as User
          : await findOrCreateUserByEmail(trx, checkout.buyerEmail, { verified: false });
        const accountId = await merchantAccountId(trx);

        let charge: { id: string } | null = null;
        if (paid?.charge) {
          const [customer] = await trx('merchantCustomers')
            .insert({ merchantAccountId: accountId, identifier: paid.customer!.identifier, userId: buyer.id })
            .onConflict(['merchantAccountId', 'identifier'])
            .merge({ status: 'active' })
            .returning('id');
          const [inserted] = await trx('merchantCharges')
            .insert({
              merchantAccountId: accountId,
              identifier: paid.charge.identifier,
              amount: paid.charge.amount,
              fee: paid.charge.fee,
              net: paid.charge.amount - paid.charge.fee,
              currency: checkout.currency,
              userId: buyer.id,
              merchantProductId: await merchantProductId(trx, accountId, product.id),
              merchantCustomerId: customer.id,
              metadata: JSON.stringify({ checkoutId, country: checkout.country }),
            })
            .returning('id');
          charge = inserted ?? null;
        }

        const seats = checkout.team ? checkout.quantity : 1;
        const problem = await availability(trx, product, seats);
        if (problem && charge && paid?.charge) {
          // Paid after the last seat went: refunded in full (the same key on a retry never refunds twice).
          await provider.refund({ chargeIdentifier: paid.charge.identifier, amount: paid.charge.amount, idempotencyKey: `sold-out-${checkoutId}` });
          await trx('merchantCharges').where({ id: charge.id }).update({ refundAmount: paid.charge.amount });
          const purchaseId = await writePurchase(trx, checkout, buyer, charge, 'Refunded');
          await trx('checkouts').where({ id: checkoutId }).update({ status: 'refunded', purchaseId });
          await outbox.enqueue(trx, soldOutRefundEmail(buyer.email, product.name, money(paid.charge.amount, checkout.currency)));
          return { status: 'refunded' as const, purchaseId, email: true };
        }
        if (problem) throw new AppError(problem, MESSAGES[problem]);

        await useCoupon(trx, checkout);
        const purchaseId = await writePurchase(trx, checkout, buyer, charge, checkout.restricted ? 'Restricted' : 'Valid');
        await trx('checkouts').where({ id: checkoutId }).update({ status: 'fulfilled', purchaseId, buyerUserId: buyer.id });
        if (charge) {
          const invoice = new URL(`/invoices/${charge.id}`, config.publicUrl).toString();
          await outbox.enqueue(trx, receiptEmail(buyer.email, product.name, money(checkout.amountTotal, checkout.currency), invoice));
        }
        return { status: 'fulfilled' as const, purchaseId, email: Boolean(charge) };
      });
      if (outcome.email) outbox.flushInBackground();
      return { status: outcome.status, purchaseId: outcome.purchaseId };
    },
  };
}

export type CheckoutService = ReturnType<typeof checkoutService>;
