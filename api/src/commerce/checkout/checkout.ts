import type { Knex } from 'knex';
import { Price, Product } from '../../catalog/models';
import { ledger } from '../../finance/ledger';
import { AppError } from '../../shared/errors';
import { isEmailBlocked } from '../../identity/staff/blocks';
import { networkOf } from '../../identity/rate-limit';
import { currencyProblem } from '../../shared/currency';
import type { User } from '../../identity/models';
import type { ProviderCheckout } from '../../payments/provider';
import {
  cancelOpenCheckout,
  checkoutIdOfSession,
  couponMaxUses,
  dueCheckouts,
  extendExpiry,
  findCheckout,
  findCheckoutOfSession,
  giveCouponUseBack,
  insertCheckout,
  lockCheckout,
  lockCoupon,
  moveBuyersHold,
  networkHolds,
  markRefundPending,
  recordSession,
  stalledRefund,
  takeCouponUse,
  receiptOfCheckout,
  teamOfPurchase,
  type FoundCheckout,
} from './queries';
import { inviteUrlOf, leadInPath, teamOfTeamPurchase } from './lead-in';
import { COUPON_MESSAGES, problemFor } from '../coupons/coupons';
import type { CommerceDeps } from '../deps';
import type { CommerceLimits } from './limits';
import { formatMoney } from '../../shared/money';
import type { Quote } from '../pricing/prices';
import type { CheckoutOutcome, CheckoutStarted, CheckoutStatus } from '../schemas';
import type { QuoteService } from './quotes';
import { holdingOf } from '../purchases/ownership';
import type { PurchaseLifecycle } from '../purchases/lifecycle';
import {
  apologyFor,
  availability,
  checkFulfillable,
  grantAccess,
  MESSAGES,
  queueReceipt,
  recordCharge,
  reserveRefundIfUnfulfillable,
  resolveBuyer,
  soldOutRefundKey,
  type PaidCheckout,
  type SettleOutcome,
} from './settle-steps';

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

/**
 * How long a checkout may stay unpaid (Stripe's shortest session): then it is ended at the provider, so it can no
 * longer be paid, and a coupon use it reserved comes back.
 */
export const CHECKOUT_MINUTES = 30;
const CHECKOUT_MS = CHECKOUT_MINUTES * 60_000;
/** Open checkouts the expiry sweep reads at a time (each may ask the provider twice), and at most how many reads a run. */
const EXPIRY_BATCH = 50;
const EXPIRY_BATCHES = 20;

interface Deps extends CommerceDeps {
  quotes: QuoteService;
  refunds: Pick<PurchaseLifecycle, 'completeRefund'>;
  limits: Pick<CommerceLimits, 'checkoutStart' | 'couponHoldsPerNetwork'>;
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

/**
 * Checkout and fulfilment (docs/domain.md §6.2). A checkout is quoted and recorded by us, paid at the provider, and
 * fulfilled exactly once by `fulfil`, which the provider's webhook and the thank-you page both call: the
 * checkout row is locked, and only the call that finds it open writes the purchase, charge, customer and
 * coupon use, and sends the email (after commit). The settlement's steps are in settle-steps.ts, its SQL in
 * queries.ts.
 */
/** How long after a purchase its thank-you page names the receipt's address and the invite link to anyone with it. */
export const THANKS_PRIVATE_MS = 60 * 60 * 1000;

export function checkoutService({ db, clock, config, logger, outbox, quotes, provider, refunds, limits }: Deps) {
  /**
   * Reserves a use of a limited coupon for a checkout being started, under the coupon's lock. A buyer (by email) holds
   * one use per coupon: their earlier unpaid checkout's use moves to this one, so starting again never takes a second.
   * One client network holds at most `couponHoldsPerNetwork` uses at a time (429 until one of its holds ends), so that
   * guests typing made-up addresses from one place cannot reserve every use. Otherwise one use is taken with one
   * conditional update, so that N buyers racing for M uses left get exactly M checkouts; the losers hear
   * `coupon-used-up` before paying anything (`coupon-not-valid` when not signed in, as every coupon problem is for
   * them). The use comes back when the checkout is canceled or expires.
   */
  async function reserveCouponUse(
    trx: Knex.Transaction,
    couponId: string,
    holder: { email: string; network: string | null },
    precise: boolean,
  ): Promise<boolean> {
    if ((await couponMaxUses(trx, couponId)) === -1) return false;
    await lockCoupon(trx, couponId);
    if (await moveBuyersHold(trx, couponId, holder.email)) return true;
    if (holder.network) {
      const held = await networkHolds(trx, couponId, holder.network);
      if (held.count >= limits.couponHoldsPerNetwork) {
        const ends = held.firstEnds?.getTime() ?? clock.now().getTime() + CHECKOUT_MS;
        const retryAfter = Math.max(1, Math.ceil((ends - clock.now().getTime()) / 1000));
        throw new AppError(
          'rate-limited',
          `Too many unpaid checkouts from your network hold this coupon. Try again in ${retryAfter} seconds.`,
          undefined,
          { 'Retry-After': String(retryAfter) },
        );
      }
    }
    if (!(await takeCouponUse(trx, couponId))) {
      const problem = problemFor('coupon-used-up', precise);
      throw new AppError(problem, COUPON_MESSAGES[problem], {
        coupon: precise ? 'is used up' : COUPON_MESSAGES[problem],
      });
    }
    return true;
  }

  /** Ends an open checkout unpaid; only the call that moves it from open gives a reserved coupon use back. */
  async function cancel(checkoutId: string): Promise<void> {
    await db.transaction(async (trx) => {
      const checkout = await cancelOpenCheckout(trx, checkoutId);
      if (checkout?.couponReserved) await giveCouponUseBack(trx, checkout.couponId);
    });
  }

  /**
   * Fulfils (or cancels) a checkout read a moment ago: the provider is asked first, outside any transaction, then
   * the checkout row is locked and only the call that still finds it open writes anything.
   */
  async function settle(found: FoundCheckout, alongside?: Alongside, known?: ProviderCheckout): Promise<Settled> {
    if (found.status === 'refunded') await finishRefund(found);
    if (found.status !== 'open') return { status: found.status, purchaseId: found.purchaseId };
    let paid: PaidCheckout | null = null;
    if (found.amountTotal !== 0) {
      if (!found.sessionIdentifier) return { status: 'open', purchaseId: null };
      const asked = known ?? (await provider.retrieveCheckout(found.sessionIdentifier));
      if (asked.status === 'canceled') {
        await cancel(found.id);
        return { status: 'canceled', purchaseId: null };
      }
      if (asked.status !== 'paid' || !asked.charge) return { status: 'open', purchaseId: null };
      paid = asked as PaidCheckout;
    }
    // Known before the transaction, so nothing waits on the provider under the locks.
    const accountId = await provider.accountId();
    const outcome = await db.transaction((trx) => settleLocked(trx, found.id, accountId, paid, alongside));
    if (outcome.email) outbox.flushInBackground();
    if (outcome.refund) {
      const { apology, ...reserved } = outcome.refund;
      await refunds.completeRefund(reserved, async () => apology);
    }
    return { status: outcome.status, purchaseId: outcome.purchaseId, ...(outcome.alongside && { alongside: true }) };
  }

  /** The settlement, step by step, under the locks of the checkout and its product (in that order). */
  async function settleLocked(
    trx: Knex.Transaction,
    checkoutId: string,
    accountId: string,
    paid: PaidCheckout | null,
    alongside?: Alongside,
  ): Promise<SettleOutcome> {
    const locked = await lockCheckout(trx, checkoutId, accountId);
    // Settled by a concurrent call meanwhile: its answer stands.
    if (locked.checkout.status !== 'open')
      return { status: locked.checkout.status, purchaseId: locked.checkout.purchaseId };
    const { product } = locked;
    const buyer = await resolveBuyer(trx, locked);
    const charge = paid && (await recordCharge(trx, locked, buyer, paid, accountId, provider.label));
    // The sale enters the ledger with its charge, whatever is decided next (a refund is its own entry).
    if (charge) await ledger.recordSale(trx, charge.id);
    const { checkout, converted, problem } = await checkFulfillable(trx, locked, buyer, clock.now());
    if (problem && charge && paid) {
      const refund = { checkout, product, buyer, charge, paidAmount: paid.charge.amount, accountId, problem };
      return reserveRefundIfUnfulfillable(trx, refund);
    }
    if (problem) throw new AppError(problem, MESSAGES[problem]);
    const paper = {
      checkout,
      product,
      buyer,
      charge,
      publicUrl: config.publicUrl,
      now: clock.now(),
      alreadyOwned: converted,
    };
    // A team's receipt names its team (the page to take a seat on, the invite link): prepared once the team is written.
    const receipt = checkout.team ? null : await queueReceipt(trx, outbox, paper);
    const also = [...(receipt ? [receipt.insert] : []), ...(alongside ? [alongside(trx)] : [])];
    const offerDays = config.TRANSFER_WINDOW_DAYS;
    const purchaseId = await grantAccess(trx, { checkout, buyer, charge, converted, also, offerDays });
    await receipt?.queue();
    const teamReceipt = checkout.team ? await queueReceipt(trx, outbox, { ...paper, purchaseId }) : null;
    if (teamReceipt) {
      await teamReceipt.insert;
      await teamReceipt.queue();
    }
    return { status: 'fulfilled', purchaseId, email: Boolean(charge), alongside: Boolean(alongside) };
  }

  /**
   * A checkout refunded because it could not be fulfilled whose refund did not complete (the provider unreachable,
   * the process gone after commit) completes it now: every later settle of it (a webhook redelivery, the thank-you
   * page) comes here until the provider has refunded it. A pending one is being asked for by the call that settled
   * it, unless that call is long gone; one refunded meanwhile (at the provider's dashboard, say) is left alone.
   */
  async function finishRefund(found: FoundCheckout): Promise<void> {
    const pending = await stalledRefund(db, soldOutRefundKey(found.id));
    if (!pending) return;
    await markRefundPending(db, pending.id);
    const amount = formatMoney(pending.amount, found.currency);
    const apology = apologyFor(pending.email, pending.productName, amount, pending.reason);
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
  async function expireOne(found: FoundCheckout): Promise<CheckoutStatus> {
    if (!found.sessionIdentifier) {
      // Free, or its provider session never recorded (the start failed midway): nothing can be paid for it.
      await cancel(found.id);
      return 'canceled';
    }
    const final = await provider.expireCheckout(found.sessionIdentifier);
    const settled = await settle(found, undefined, final);
    if (settled.status === 'open') await extendExpiry(db, found.id, new Date(clock.now().getTime() + CHECKOUT_MS));
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
        const graceEnd = new Date(now.getTime() - CHECKOUT_MS);
        const due = await dueCheckouts(db, now, graceEnd, tried, EXPIRY_BATCH);
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
      // A blocked person buys nothing, signed in or as a guest with their email: refused before anything is written.
      if (input.buyer ? input.buyer.blockedAt : input.email && (await isEmailBlocked(db, input.email)))
        throw new AppError(
          'buyer-blocked',
          MESSAGES['buyer-blocked'],
          input.buyer ? undefined : { email: 'cannot be used to buy here: contact our support team' },
        );
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
      // A price set before such currencies were refused: never charged in a unit the provider counts differently.
      if (currencyProblem(answer.currency))
        throw new AppError(
          'currency-not-supported',
          'This course cannot be bought in its currency. Contact our support team.',
        );
      const email = input.buyer?.email ?? input.email;
      if (!email)
        throw new AppError('validation-failed', 'Enter an email address for your receipt.', {
          email: 'is required when not signed in',
        });
      // A guest's checkout answers the same whether or not the address owns the course, so the form cannot be used to
      // find out who bought what. A payment from an owning address becomes a one-seat team (a copy to give away, never
      // a duplicate), and its receipt says so and offers the refund (settle-steps.ts).
      const product = (await Product.query(db).findById(input.productId))!;
      const price = (await Price.query(db).findOne({ productId: product.id, status: 'active' }))!;
      const seats = answer.team ? input.quantity : 1;
      const problem = await availability(db, product, seats, clock.now());
      if (problem) throw new AppError(problem, MESSAGES[problem]);

      const { quote } = answer;
      const couponId = quote.discount?.couponId ?? null;
      const checkout = await db.transaction(async (trx) => {
        const network = input.ip ? networkOf(input.ip) : null;
        const holder = { email, network };
        const couponReserved = couponId ? await reserveCouponUse(trx, couponId, holder, Boolean(input.buyer)) : false;
        const id = await insertCheckout(trx, {
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
          clientNetwork: network,
          amountTotal: quote.finalPrice,
          creditAmount: quote.credit,
          upgradeBasis: answer.upgrade?.worth ?? null,
          currency: answer.currency,
          restricted: quote.restricted,
          expiresAt: new Date(clock.now().getTime() + CHECKOUT_MS),
        });
        return { id };
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
      await db.transaction((trx) => recordSession(trx, accountId, session.identifier, checkout.id));
      return { checkoutId: checkout.id, url: session.url };
    },

    cancel,

    /** The checkout a provider session belongs to (the provider's events name only its session). */
    async checkoutForSession(sessionIdentifier: string): Promise<string | null> {
      return checkoutIdOfSession(db, sessionIdentifier);
    },

    /**
     * Settles the checkout of a provider session (paid → fulfilled, canceled → canceled); unknown sessions are
     * ignored. `alongside` commits with a fulfilment (the answer says so), and is not run otherwise.
     */
    async settleSession(sessionIdentifier: string, alongside?: Alongside): Promise<Settled | null> {
      const found = await findCheckoutOfSession(db, sessionIdentifier);
      return found ? settle(found, alongside) : null;
    },

    /** Fulfils a paid checkout exactly once; any number of concurrent calls, from anywhere, converge. */
    async fulfil(checkoutId: string): Promise<Settled> {
      const found = await findCheckout(db, checkoutId);
      if (!found) throw new AppError('not-found', 'No such checkout.');
      return settle(found);
    },

    /**
     * The thank-you page's answer: the settlement, and for a team purchase its team (the whole team's seats), since
     * a team purchase opens no course until its buyer takes a seat (docs/domain.md §7). The receipt's address and the
     * team's invite link (a bearer link to a seat) are said only to the buyer signed in, or in the first hour after
     * the purchase (the buyer's browser coming back from paying): a thank-you address shared later shows neither.
     */
    async outcome(checkoutId: string, viewerUserId: string | null = null): Promise<CheckoutOutcome> {
      const settled = await this.fulfil(checkoutId);
      if (settled.status !== 'fulfilled' || !settled.purchaseId) return { ...settled, team: null, receipt: null };
      const [team, receipt] = await Promise.all([
        teamOfPurchase(db, settled.purchaseId),
        receiptOfCheckout(db, checkoutId),
      ]);
      const invite = team && (await teamOfTeamPurchase(db, settled.purchaseId));
      const forTheBuyer =
        !!receipt &&
        (viewerUserId === receipt.buyerUserId ||
          clock.now().getTime() - receipt.purchasedAt.getTime() < THANKS_PRIVATE_MS);
      // A buyer who has the course already (bought, or a seat elsewhere) has only seats to give away: no seat to take.
      const bought = team && (await db('purchases').where({ id: settled.purchaseId }).first('userId', 'productId'));
      const buyerHasCourse = Boolean(bought && (await holdingOf(db, bought.userId, bought.productId)));
      return {
        ...settled,
        team:
          team && invite
            ? {
                ...team,
                buyerHasCourse,
                inviteUrl: forTheBuyer ? inviteUrlOf(config.publicUrl, invite.inviteCode) : null,
              }
            : null,
        receipt: receipt
          ? {
              product: receipt.product,
              quantity: receipt.quantity,
              amount: receipt.amount,
              currency: receipt.currency,
              invoiceId: receipt.invoiceId,
              email: forTheBuyer ? receipt.email : null,
              // A team purchase opens nothing until its buyer takes a seat (docs/domain.md §7): its step is the team
              // page.
              coursePath: team ? null : await leadInPath(db, receipt.product.id),
            }
          : null,
      };
    },
  };
}

export type CheckoutService = ReturnType<typeof checkoutService>;
