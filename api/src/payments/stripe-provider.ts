import { createRequire } from 'node:module';
import type Stripe from 'stripe';
import type { Config } from '../config';
import type { Db } from '../db/connection';
import { AppError } from '../shared/errors';
import { minorPerMajor, toMajorUnits } from '../shared/currency';
import { callStripe } from './stripe-call';
import { stripeLedger } from './stripe-ledger';
import { stripeBillingEvents, stripeSubscriptions, type StripeBillingEvents } from './stripe-subscriptions';
import { answerOf, stripeAddressOf, stripeTaxIdOf, type StripeTaxLine } from './stripe-tax';
import type { TaxSetupReader } from '../tax/engine';
import type { TaxAnswer } from '../tax/types';
import { findMerchantProduct, recordMerchantProduct, rememberedAccountId } from './merchant-records';
import type { RefundReason } from '../shared/refund-reasons';
import type {
  CheckoutRequest,
  PaymentProvider,
  ProviderAccount,
  ProviderCheckout,
  ProviderRefund,
  RefundRequest,
  RefundSettlement,
  Settlement,
} from './provider';

/** Our refund reasons that Stripe has a reason of its own for (the others go in the metadata only). */
const STRIPE_REFUND_REASONS: Partial<Record<RefundReason, Stripe.RefundCreateParams.Reason>> = {
  'customer-request': 'requested_by_customer',
  'bought-by-mistake': 'requested_by_customer',
  duplicate: 'duplicate',
  fraudulent: 'fraudulent',
};

/**
 * How long a Stripe checkout stays payable: Stripe's shortest, 30 minutes, and a minute for our clock running behind
 * Stripe's (Stripe refuses less). Our own expiry sweep ends it at 30 minutes by our clock (CHECKOUT_MINUTES in
 * commerce/checkout/deadline.ts); this is the backstop, and Stripe's `checkout.session.expired` gives the coupon use back too.
 */
const CHECKOUT_LIFETIME_SECONDS = 30 * 60 + 60;

export type StripeConfig = Pick<Config, 'STRIPE_SECRET_KEY' | 'STRIPE_API_URL' | 'STRIPE_TIMEOUT_MS'>;

// The SDK is hundreds of modules: loaded when Stripe is configured, so a server on the built-in provider never reads them.
const require = createRequire(import.meta.url);
const stripeSdk = () => require('stripe') as typeof Stripe;

/** The SDK client, pointed at STRIPE_API_URL when one is set (a local stand-in in tests). */
export function stripeClient(config: StripeConfig): Stripe {
  const api = config.STRIPE_API_URL ? new URL(config.STRIPE_API_URL) : null;
  const StripeSdk = stripeSdk();
  return new StripeSdk(config.STRIPE_SECRET_KEY!, {
    maxNetworkRetries: 2,
    timeout: config.STRIPE_TIMEOUT_MS,
    telemetry: false,
    ...(api && {
      host: api.hostname,
      port: Number(api.port || (api.protocol === 'https:' ? 443 : 80)),
      protocol: api.protocol.replace(':', '') as 'http' | 'https',
    }),
  });
}

/**
 * Stripe's fee in the charge's currency. Stripe states it in the balance's (settlement) currency: a ¥3,000 charge
 * settled in dollars has a fee of 117 (cents), which is not ¥117. It is converted back at the rate Stripe used
 * (`exchange_rate`: one unit of the charge's currency in the settlement's), to the charge currency's minor unit.
 */
function feeInChargeCurrency(chargeCurrency: string, balance: Stripe.BalanceTransaction | null): number {
  if (!balance) return 0;
  if (balance.currency === chargeCurrency || !balance.exchange_rate) return balance.fee;
  const settled = toMajorUnits(balance.fee, balance.currency);
  return Math.round((settled / balance.exchange_rate) * minorPerMajor(chargeCurrency));
}

/** A balance transaction as what the processor settled (magnitudes: a refund's moves money out). */
function settlementOf(balance: Stripe.BalanceTransaction | string | null | undefined): Settlement | null {
  if (!balance || typeof balance !== 'object') return null;
  return {
    identifier: balance.id,
    amount: Math.abs(balance.amount),
    fee: balance.fee,
    currency: balance.currency,
    exchangeRate: balance.exchange_rate ?? null,
  };
}

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === 'string' ? value : value.id;

/**
 * A Stripe refund as the port's answer. `pending` and `requires_action` are settled later by the refund's events; one
 * failed or canceled already refunded nothing.
 */
function providerRefund(refund: Stripe.Refund): ProviderRefund {
  if (refund.status === 'failed' || refund.status === 'canceled')
    throw new AppError(
      'refund-not-possible',
      `Stripe could not refund the payment (${refund.failure_reason ?? refund.status}).`,
    );
  // Stripe moves a refund's money when it makes it, pending or not: its balance transaction is what it settled.
  const settlement = settlementOf(refund.balance_transaction);
  if (refund.status !== 'succeeded')
    return { status: 'pending', identifier: refund.id, amount: refund.amount, settlement };
  const refundedTotal = (refund.charge as Stripe.Charge).amount_refunded;
  return { status: 'succeeded', identifier: refund.id, amount: refund.amount, refundedTotal, settlement };
}

/** A refund's event (`refund.updated`, `refund.failed`, `charge.refund.updated`) as the port's settlement; null while pending. */
export function refundSettlementOf(refund: Stripe.Refund): RefundSettlement | null {
  const outcome =
    refund.status === 'succeeded'
      ? 'succeeded'
      : refund.status === 'failed' || refund.status === 'canceled'
        ? 'failed'
        : null;
  if (!outcome) return null;
  return {
    identifier: refund.id,
    idempotencyKey: refund.metadata?.refund_key ?? null,
    outcome,
    failureReason: outcome === 'failed' ? (refund.failure_reason ?? refund.status) : null,
  };
}

type TaxBehavior = 'inclusive' | 'exclusive' | null;

/** What Stripe Tax computed for a session (its breakdown expanded), as our answer; null where it charged none. */
function sessionTax(session: Stripe.Checkout.Session): TaxAnswer | null {
  const taxes = session.total_details?.breakdown?.taxes ?? [];
  const lines: StripeTaxLine[] = taxes.map((t) => ({
    amount: t.amount,
    country: t.rate.country,
    state: t.rate.state,
    // A number at this level ("8.875"); fixed to six places, its decimal string is exact.
    percentage: (t.rate.effective_percentage ?? t.rate.percentage).toFixed(6),
    taxType: t.rate.tax_type,
    reason: t.taxability_reason,
  }));
  return answerOf(lines, {
    charged: session.amount_total ?? 0,
    taxAmount: session.total_details?.amount_tax ?? 0,
    inclusive: taxes[0]?.rate.inclusive ?? false,
    buyerCountry: session.customer_details?.address?.country ?? null,
    buyerRegion: session.customer_details?.address?.state ?? null,
  });
}

/**
 * Stripe behind the provider interface. Products and prices are created at Stripe on first sale and recorded as
 * MerchantProduct/MerchantPrice; each checkout's discount is a one-off amount-off coupon (MerchantCoupon), so
 * Stripe charges exactly what we quoted. Where the school collects tax, Stripe Tax computes it on the session
 * (automatic_tax) from a customer carrying the buyer's place and VAT ID, and the paid session says what it charged.
 * Every create carries an idempotency key derived from our ids.
 */
export function stripeProvider({
  db,
  config,
  stripe = stripeClient(config),
  taxSetup,
}: {
  db: Db;
  config: StripeConfig;
  stripe?: Stripe;
  /** The school's tax setup: Stripe Tax computes a checkout's tax where the school collects any. */
  taxSetup?: Pick<TaxSetupReader, 'read' | 'inclusive'>;
}): PaymentProvider & { stripe: Stripe; billingEvents: StripeBillingEvents } {
  let account: Promise<ProviderAccount> | null = null;

  function loadAccount(): Promise<ProviderAccount> {
    account ??= callStripe('be reached', async () => ({
      label: 'stripe',
      identifier: (await stripe.accounts.retrieveCurrent()).id,
    }));
    account.catch(() => (account = null)); // try again next time
    return account;
  }
  const accountId = rememberedAccountId(db, loadAccount);

  /**
   * Our price as a Stripe price, created on first sale. One per tax behavior (a Stripe price's cannot change once
   * set): the school may switch a currency between prices with tax inside and tax on top, and each sale keeps the
   * Stripe price it was made at, so the dashboard's reports stay per price (inline price_data would make a new one
   * every checkout).
   */
  async function syncedPrice(accountId: string, request: CheckoutRequest, taxBehavior: TaxBehavior): Promise<string> {
    const known = await db('merchantPrices')
      .where({ merchantAccountId: accountId, priceId: request.price.id, status: 'active', taxBehavior })
      .first('identifier');
    if (known) return known.identifier;
    let product = await findMerchantProduct(db, accountId, request.product.id);
    if (!product) {
      const created = await stripe.products.create(
        { name: request.product.name, metadata: { productId: request.product.id } },
        { idempotencyKey: `product-${request.product.id}` },
      );
      product = {
        id: await recordMerchantProduct(db, accountId, request.product.id, created.id),
        identifier: created.id,
      };
    }
    const created = await stripe.prices.create(
      {
        product: product.identifier,
        unit_amount: request.price.unitAmount,
        currency: request.currency,
        metadata: { priceId: request.price.id },
        ...(taxBehavior && { tax_behavior: taxBehavior }),
      },
      { idempotencyKey: taxBehavior ? `price-${request.price.id}-${taxBehavior}` : `price-${request.price.id}` },
    );
    await db('merchantPrices')
      .insert({
        merchantAccountId: accountId,
        merchantProductId: product.id,
        identifier: created.id,
        priceId: request.price.id,
        taxBehavior,
      })
      .onConflict(['merchantAccountId', 'identifier'])
      .ignore();
    return created.id;
  }

  /**
   * Whether Stripe Tax computes this checkout's tax, and with tax inside the price or on top: when the school collects
   * tax and the buyer said where they are (Stripe's page would otherwise ask, and the total could change after the
   * quote). Null: the session charges the quoted amount as it is.
   */
  async function automaticTax(request: CheckoutRequest): Promise<{ behavior: 'inclusive' | 'exclusive' } | null> {
    if (!taxSetup || !request.billing?.country || !(await taxSetup.read()).seller.country) return null;
    const inclusive = request.taxInclusive ?? request.tax?.inclusive ?? (await taxSetup.inclusive(request.currency));
    return { behavior: inclusive ? 'inclusive' : 'exclusive' };
  }

  /**
   * The buyer as a Stripe customer, made before the session so that Stripe Tax reads the same place and VAT ID as
   * the quote did: the billing country, state and (US, Canada) ZIP or postal code, the company's name, and its VAT ID
   * (reverse charge). Its location is validated as it is made, so a place Stripe cannot tax fails here, not later.
   */
  async function taxedCustomer(request: CheckoutRequest, billing: NonNullable<CheckoutRequest['billing']>) {
    const taxId = stripeTaxIdOf(billing.vatId);
    return stripe.customers.create(
      {
        email: request.customerEmail,
        address: stripeAddressOf(billing),
        tax: { validate_location: 'immediately' },
        ...(billing.company && { name: billing.company }),
        ...(taxId && { tax_id_data: [taxId] }),
        metadata: { checkoutId: request.reference },
      },
      { idempotencyKey: `customer-${request.reference}` },
    );
  }

  async function oneOffCoupon(accountId: string, request: CheckoutRequest): Promise<string | null> {
    if (!request.discount) return null;
    const coupon = await stripe.coupons.create(
      {
        amount_off: request.discount.amount,
        currency: request.currency,
        duration: 'once',
        max_redemptions: 1,
        name: request.discount.label.slice(0, 40),
        metadata: { checkoutId: request.reference },
      },
      { idempotencyKey: `coupon-${request.reference}` },
    );
    const full = request.price.unitAmount * request.quantity;
    await db('merchantCoupons')
      .insert({
        merchantAccountId: accountId,
        identifier: coupon.id,
        percentageDiscount: Math.min(
          1,
          Math.max(0.0001, Math.round((request.discount.amount / full) * 10_000) / 10_000),
        ),
        type: 'amount_off',
      })
      .onConflict(['merchantAccountId', 'identifier'])
      .ignore();
    return coupon.id;
  }

  async function retrieveCheckout(identifier: string): Promise<ProviderCheckout> {
    const session = await callStripe('confirm the payment', () =>
      stripe.checkout.sessions.retrieve(identifier, {
        expand: ['payment_intent.latest_charge.balance_transaction', 'total_details.breakdown'],
      }),
    );
    const intent = session.payment_intent as Stripe.PaymentIntent | null;
    const charge = (
      intent && typeof intent.latest_charge === 'object' ? intent.latest_charge : null
    ) as Stripe.Charge | null;
    const balance = (
      charge && typeof charge.balance_transaction === 'object' ? charge.balance_transaction : null
    ) as Stripe.BalanceTransaction | null;
    const paid = session.status === 'complete' && session.payment_status === 'paid' && charge?.paid === true;
    const customer = idOf(session.customer);
    return {
      status: session.status === 'expired' ? 'canceled' : paid ? 'paid' : 'open',
      amount: session.amount_total ?? 0,
      currency: session.currency ?? 'usd',
      charge:
        paid && charge
          ? {
              identifier: charge.id,
              amount: charge.amount,
              fee: feeInChargeCurrency(charge.currency, balance),
              settlement: settlementOf(balance),
            }
          : null,
      customer: customer
        ? { identifier: customer, email: session.customer_details?.email ?? session.customer_email ?? '' }
        : null,
      // Stripe Tax's own word when it computed the tax (the breakdown expanded); else the quoted tax stands.
      ...(session.automatic_tax?.enabled && session.total_details?.breakdown && { tax: sessionTax(session) }),
    };
  }

  return {
    label: 'stripe',
    stripe,
    account: loadAccount,
    accountId,
    ledger: stripeLedger(stripe),
    subscriptions: stripeSubscriptions(stripe),
    /** Stripe Billing's events read as the subscription port's (the webhook's). */
    billingEvents: stripeBillingEvents(stripe, (charge, balance) => ({
      fee: feeInChargeCurrency(charge.currency, balance),
      settlement: settlementOf(balance),
    })),

    async createCheckout(request) {
      const merchantAccount = await accountId();
      const taxed = await automaticTax(request);
      return callStripe('start the checkout', async () => {
        const price = await syncedPrice(merchantAccount, request, taxed?.behavior ?? null);
        const coupon = await oneOffCoupon(merchantAccount, request);
        const customer = taxed && request.billing ? await taxedCustomer(request, request.billing) : null;
        const session = await stripe.checkout.sessions.create(
          {
            mode: 'payment',
            line_items: [{ price, quantity: request.quantity }],
            ...(coupon && { discounts: [{ coupon }] }),
            ...(customer
              ? { customer: customer.id, automatic_tax: { enabled: true } }
              : { customer_email: request.customerEmail, customer_creation: 'always' as const }),
            client_reference_id: request.reference,
            metadata: request.metadata,
            payment_intent_data: { metadata: request.metadata, description: request.description },
            success_url: request.successUrl,
            cancel_url: request.cancelUrl,
            expires_at: Math.floor(Date.now() / 1000) + CHECKOUT_LIFETIME_SECONDS,
          },
          { idempotencyKey: `checkout-${request.reference}` },
        );
        if (session.amount_total !== request.amount) {
          // Never let anyone pay a price we did not quote (a price edited at Stripe, or Stripe Tax adding on top
          // another amount than the quote's).
          await stripe.checkout.sessions.expire(session.id).catch(() => undefined);
          throw new AppError(
            'payment-provider-unavailable',
            'The payment provider computed a different price; nothing was charged. Please try again.',
          );
        }
        return { identifier: session.id, url: session.url! };
      });
    },

    retrieveCheckout,

    async expireCheckout(identifier): Promise<ProviderCheckout> {
      await callStripe('end the checkout', async () => {
        try {
          await stripe.checkout.sessions.expire(identifier);
        } catch (error) {
          // Only an open session can be expired: one completed (paid, or a payment under way) or expired already is
          // answered by reading it back below.
          if (!(error instanceof stripeSdk().errors.StripeInvalidRequestError)) throw error;
        }
      });
      return retrieveCheckout(identifier);
    },

    async refund({ chargeIdentifier, amount, idempotencyKey, reason, reasonCode }: RefundRequest) {
      // Stripe knows three reasons; a refund marked fraudulent also feeds its fraud tools.
      const stripeReason = reasonCode ? STRIPE_REFUND_REASONS[reasonCode] : undefined;
      const refund = await callStripe('refund the payment', async () => {
        try {
          return await stripe.refunds.create(
            {
              charge: chargeIdentifier,
              amount,
              ...(stripeReason ? { reason: stripeReason } : {}),
              // The key comes back with the refund's events, which may overtake this call's answer.
              metadata: {
                reason: reason.slice(0, 500),
                refund_key: idempotencyKey,
                ...(reasonCode ? { reason_code: reasonCode } : {}),
              },
              expand: ['charge', 'balance_transaction'],
            },
            { idempotencyKey },
          );
        } catch (error) {
          // Stripe refuses, e.g. a charge under dispute: the operator should hear Stripe's reason.
          if (error instanceof stripeSdk().errors.StripeInvalidRequestError)
            throw new AppError('refund-not-possible', `Stripe refused the refund: ${error.message}`);
          throw error;
        }
      });
      return providerRefund(refund);
    },

    async updateCustomerEmail(customerIdentifier, email) {
      await callStripe('update the customer', () => stripe.customers.update(customerIdentifier, { email }));
    },
  };
}

export type StripeProvider = ReturnType<typeof stripeProvider>;
