import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import qs from 'qs';
import Stripe from 'stripe';
import request from 'supertest';
import { minorPerMajor, toMajorUnits } from '../../api/src/shared/currency';
import { listenOnLoopback } from './processes';
import { stripeBilling, type StandInBilling } from './stripe-billing-stand-in';
import {
  locate,
  STAND_IN_TAX_ORIGIN,
  standInTax,
  TaxLocationError,
  type StandInRegistration,
  type TaxShare,
} from './stripe-tax-stand-in';

/**
 * A local stand-in for the part of Stripe's API the product calls, so that tests drive the real `stripe` SDK over
 * HTTP: form-encoded requests, `expand[]`, idempotency keys replayed as Stripe replays them, and Stripe's error
 * shape. Test controls (pay, refund from the dashboard, disputes, expiry) change its state and return the event
 * Stripe would send; `signed` turns an event into a webhook delivery signed by the SDK's own test helper. Stripe Tax
 * (tax calculations, Checkout's automatic_tax from a customer's address and tax IDs) computes with a table of its own
 * (./stripe-tax-stand-in.ts), for an account in Germany registered for the EU's One-Stop Shop and in Washington state.
 */

type Obj = Record<string, unknown> & { id: string };
type Params = Record<string, unknown>;

export const STAND_IN_WEBHOOK_SECRET = 'whsec_standin_secret';
export const STAND_IN_SECRET_KEY = 'sk_test_standin';
const ACCOUNT_ID = 'acct_standin';
/** Stripe's fee on a chargeback, withdrawn with the disputed amount and kept whatever the outcome. */
export const DISPUTE_FEE = 1_500;

class StripeError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

/** The tax ID types a customer of the stand-in may carry (Stripe knows many more). */
const TAX_ID_TYPES = new Set(['eu_vat', 'gb_vat', 'au_abn', 'ca_bn', 'us_ein', 'ch_vat', 'no_vat']);

const customerTaxIds = (customer: Obj | null): { type: string; value: string }[] =>
  ((customer?.tax_ids as { data: { type: string; value: string }[] } | undefined)?.data ?? []).map(
    ({ type, value }) => ({ type, value }),
  );

/** A session's customer_details from its customer, as Checkout fills them. */
const customerDetails = (customer: Obj) => ({
  email: customer.email ?? null,
  name: customer.name ?? null,
  address: customer.address ?? null,
  tax_exempt: 'none',
  tax_ids: customerTaxIds(customer),
});

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

export interface StandIn {
  url: string;
  close(): Promise<void>;
  /** Requests by method and path template, e.g. 'POST /v1/refunds'. */
  calls: Map<string, number>;
  objects: Map<string, Obj>;
  /** The buyer pays on Stripe's page: the session completes with a charge, a customer and a fee (never once expired). */
  /**
   * `settleIn`: the account settles in another currency (its balance, fee and net in it), converted at `rate` (one
   * unit of the charge's currency in the settlement's, Stripe's `exchange_rate`).
   */
  pay(sessionId: string, options?: { settleIn?: { currency: string; rate: number } }): Stripe.Event;
  /**
   * From now on the account settles in `currency`, as Stripe converts for an account whose bank takes another one:
   * each payment, refund, failed refund and dispute of a charge in another currency moves the balance by
   * round(amount × `rates[its currency]`) (one unit in the settlement's, Stripe's `exchange_rate`, read as it moves:
   * call again for a later rate). Fees stay Stripe's, in the settlement currency.
   */
  settleAccountIn(currency: string, rates: Record<string, number>): void;
  expire(sessionId: string): Stripe.Event;
  /** A refund started in Stripe's dashboard (or the charge's state after ours). */
  refundFromDashboard(chargeId: string, amount: number): Stripe.Event;
  chargeRefundedEvent(chargeId: string): Stripe.Event;
  /**
   * From now on (`on`), refunds are created `pending`, as Stripe holds one while the balance is short or the bank is
   * slow: the charge counts them as refunded (`amount_refunded`) until they fail.
   */
  refundsPending(on: boolean): void;
  /**
   * Stripe's later decision on a pending refund: succeeded (`refund.updated`) or failed (`refund.failed`, its amount
   * no longer counted on the charge). Other events about it: `event('charge.refund.updated', objects.get(id))`.
   */
  settleRefund(refundId: string, outcome: 'succeeded' | 'failed'): Stripe.Event;
  /** A chargeback; its evidence is due in a week unless `dueBy` says otherwise, as Stripe sets it. */
  /** A chargeback (its amount and Stripe's 15.00 dispute fee withdrawn), or an inquiry (nothing withdrawn). */
  openDispute(
    chargeId: string,
    options?: { dueBy?: Date; inquiry?: boolean },
  ): { dispute: string; event: Stripe.Event };
  closeDispute(disputeId: string, status: 'won' | 'lost'): Stripe.Event;
  event(type: string, object: Obj): Stripe.Event;
  /** Makes the next `times` requests to a path fail as Stripe does during an outage (the SDK retries 500s). */
  failNext(pathTemplate: string, times?: number): void;
  /**
   * Holds the answer to the next `times` requests to a path for `ms` after doing the work, as when Stripe acts but
   * its answer is lost: a client with a shorter timeout gives up and retries.
   */
  delayNext(pathTemplate: string, ms: number, times?: number): void;
  /** Runs `probe` when the next request to a path arrives, before answering it (to look at our side meanwhile). */
  beforeNext(pathTemplate: string, probe: () => Promise<void>): void;
  /** Forgets every idempotency key, as Stripe does after about a day: a key sent again then acts again. */
  forgetIdempotencyKeys(): void;
  /** Every routed request in arrival order, with the Idempotency-Key it carried. */
  requests: { template: string; idempotencyKey: string | undefined; status: number }[];
  /** Where Stripe Tax collects for the account from now on (as registrations added in Stripe's dashboard). */
  registerTax(registration: StandInRegistration): void;
  /**
   * Stripe's payout to the school's bank: every balance transaction not yet paid out, one payout per currency (as
   * Stripe's schedule makes them). Answers the payouts' ids.
   */
  payOut(): string[];
  /** The balance transaction Stripe made for a charge, refund, dispute or transfer (the latest, for a dispute). */
  balanceTransactionOf(sourceId: string): Obj;
  /** Stripe Billing: subscriptions made in Checkout, renewed, retried and ended (./stripe-billing-stand-in.ts). */
  billing: StandInBilling;
}

/** The stand-in account's tax registrations unless a test adds more: Germany, the EU's OSS, Washington state. */
const DEFAULT_TAX_REGISTRATIONS: StandInRegistration[] = [
  { country: STAND_IN_TAX_ORIGIN },
  { country: 'EU' },
  { country: 'US', state: 'WA' },
];

export async function startStripeStandIn(): Promise<StandIn> {
  const objects = new Map<string, Obj>();
  const idempotent = new Map<string, { status: number; body: unknown }>();
  const calls = new Map<string, number>();
  const failures = new Map<string, number>();
  const delays = new Map<string, { ms: number; times: number }>();
  const probes = new Map<string, () => Promise<void>>();
  const requests: StandIn['requests'] = [];
  const taxRegistrations = [...DEFAULT_TAX_REGISTRATIONS];
  const tax = standInTax(taxRegistrations);
  // A session's tax breakdown, shown only when asked for (expand[]=total_details.breakdown), as Stripe does.
  const breakdowns = new Map<string, TaxShare[]>();

  const get = (id: string, what: string): Obj => {
    const found = objects.get(id);
    if (!found) throw new StripeError(404, 'invalid_request_error', `No such ${what}: '${id}'`, 'resource_missing');
    return found;
  };
  const put = (obj: Obj) => (objects.set(obj.id, obj), obj);
  const required = (params: Params, name: string) => {
    if (params[name] === undefined || params[name] === '') {
      throw new StripeError(400, 'invalid_request_error', `Missing required param: ${name}.`, 'parameter_missing');
    }
    return params[name] as string;
  };
  const int = (value: unknown) => Number.parseInt(String(value), 10);
  const billing = stripeBilling({
    get,
    put,
    newId,
    event: (type, object) => event(type, object),
    expand: (obj, paths) => expand(obj, paths),
    moved: (source, type, category, amount, fee) => moved(source, type, category, amount, fee),
    fail: (message, code, status = 400) => {
      throw new StripeError(status, 'invalid_request_error', message, code);
    },
  });

  /** `expand[]` paths such as payment_intent.latest_charge.balance_transaction, applied to a copy. */
  function expand(obj: Obj, paths: string[]): Obj {
    const copy: Obj = structuredClone(obj);
    for (const path of paths) {
      let level: Record<string, unknown>[] = [copy];
      for (const field of path.split('.')) {
        const next: Record<string, unknown>[] = [];
        for (const node of level) {
          const value = node[field];
          if (typeof value === 'string' && objects.has(value)) node[field] = structuredClone(objects.get(value)!);
          if (node[field] && typeof node[field] === 'object') next.push(node[field] as Record<string, unknown>);
        }
        level = next;
      }
    }
    return copy;
  }

  function sessionTotals(
    lineItems: { price: string; quantity: string }[],
    discounts: { coupon: string }[] | undefined,
  ) {
    let currency = 'usd';
    let subtotal = 0;
    let taxBehavior = 'unspecified';
    for (const item of lineItems) {
      const price = get(item.price, 'price');
      if (price.active === false)
        throw new StripeError(400, 'invalid_request_error', `The price ${price.id} is not active.`);
      currency = price.currency as string;
      taxBehavior = price.tax_behavior as string;
      subtotal += (price.unit_amount as number) * int(item.quantity ?? 1);
    }
    let discount = 0;
    for (const { coupon: couponId } of discounts ?? []) {
      const coupon = get(couponId, 'coupon');
      if ((coupon.times_redeemed as number) >= ((coupon.max_redemptions as number | null) ?? Infinity)) {
        throw new StripeError(
          400,
          'invalid_request_error',
          `Coupon ${coupon.id} has already been redeemed the maximum number of times.`,
        );
      }
      discount += coupon.amount_off
        ? Math.min(subtotal, coupon.amount_off as number)
        : Math.round(subtotal * ((coupon.percent_off as number) / 100));
    }
    return { currency, subtotal, total: subtotal - discount, discount, taxBehavior };
  }

  const routes: {
    method: string;
    pattern: RegExp;
    template: string;
    handle: (params: Params, match: string[]) => Obj;
  }[] = [
    {
      method: 'GET',
      pattern: /^\/v1\/account$/,
      template: 'GET /v1/account',
      handle: () => ({ id: ACCOUNT_ID, object: 'account', country: STAND_IN_TAX_ORIGIN, default_currency: 'eur' }),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/products$/,
      template: 'POST /v1/products',
      handle: (p) =>
        put({
          id: newId('prod'),
          object: 'product',
          name: required(p, 'name'),
          active: true,
          metadata: p.metadata ?? {},
          created: nowSeconds(),
        }),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/prices$/,
      template: 'POST /v1/prices',
      handle: (p) => {
        get(required(p, 'product'), 'product');
        return put({
          id: newId('price'),
          object: 'price',
          product: p.product as string,
          unit_amount: int(required(p, 'unit_amount')),
          currency: required(p, 'currency'),
          active: true,
          type: 'one_time',
          tax_behavior: (p.tax_behavior as string | undefined) ?? 'unspecified',
          metadata: p.metadata ?? {},
        });
      },
    },
    {
      method: 'POST',
      pattern: /^\/v1\/coupons$/,
      template: 'POST /v1/coupons',
      handle: (p) => {
        if (!p.amount_off && !p.percent_off)
          throw new StripeError(400, 'invalid_request_error', 'Must specify either amount_off or percent_off.');
        return put({
          id: newId('coupon'),
          object: 'coupon',
          amount_off: p.amount_off ? int(p.amount_off) : null,
          percent_off: p.percent_off ? Number(p.percent_off) : null,
          currency: (p.currency as string) ?? null,
          duration: p.duration ?? 'once',
          duration_in_months: p.duration_in_months ? int(p.duration_in_months) : null,
          max_redemptions: p.max_redemptions ? int(p.max_redemptions) : null,
          times_redeemed: 0,
          name: p.name ?? null,
          metadata: p.metadata ?? {},
        });
      },
    },
    {
      method: 'POST',
      pattern: /^\/v1\/checkout\/sessions$/,
      template: 'POST /v1/checkout/sessions',
      handle: (p) => {
        if (p.mode === 'subscription') return billing.createSession(p);
        const lineItems = p.line_items as { price: string; quantity: string }[] | undefined;
        if (!lineItems?.length)
          throw new StripeError(
            400,
            'invalid_request_error',
            'Missing required param: line_items.',
            'parameter_missing',
          );
        const totals = sessionTotals(lineItems, p.discounts as { coupon: string }[] | undefined);
        // As Stripe: a session lasts from 30 minutes to 24 hours.
        if (p.expires_at && (int(p.expires_at) < nowSeconds() + 30 * 60 || int(p.expires_at) > nowSeconds() + 86_400)) {
          throw new StripeError(
            400,
            'invalid_request_error',
            'The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.',
          );
        }
        if (p.customer && (p.customer_email || p.customer_creation))
          throw new StripeError(
            400,
            'invalid_request_error',
            `You may only specify one of these parameters: customer, ${p.customer_email ? 'customer_email' : 'customer_creation'}.`,
          );
        const customer = p.customer ? get(p.customer as string, 'customer') : null;
        const automaticTax = (p.automatic_tax as { enabled?: string } | undefined)?.enabled === 'true';
        const id = newId('cs_test');
        let amountTax = 0;
        let amountTotal = totals.total;
        if (automaticTax) {
          if (totals.taxBehavior === 'unspecified')
            throw new StripeError(
              400,
              'invalid_request_error',
              'Automatic tax calculation requires every price to have a tax_behavior, or a default tax behavior in the tax settings.',
            );
          const address = customer?.address as
            { country?: string; state?: string; postal_code?: string } | null | undefined;
          let shares: TaxShare[];
          try {
            const inclusive = totals.taxBehavior === 'inclusive';
            shares = tax.shares(totals.total, inclusive, {
              country: address?.country,
              state: address?.state,
              postalCode: address?.postal_code,
              taxIds: customerTaxIds(customer),
            });
          } catch (error) {
            if (!(error instanceof TaxLocationError)) throw error;
            throw new StripeError(
              400,
              'invalid_request_error',
              "Automatic tax calculation in Checkout requires a valid address on the Customer. Add a valid address to the Customer or set either `customer_update[address]` to 'auto' or `customer_update[shipping]` to 'auto' to save the address entered in Checkout.",
              'customer_tax_location_invalid',
            );
          }
          breakdowns.set(id, shares);
          amountTax = shares.reduce((sum, share) => sum + share.amount, 0);
          if (totals.taxBehavior === 'exclusive') amountTotal += amountTax;
        }
        return put({
          id,
          object: 'checkout.session',
          mode: required(p, 'mode'),
          status: 'open',
          payment_status: 'unpaid',
          amount_subtotal: totals.subtotal,
          amount_total: amountTotal,
          automatic_tax: automaticTax
            ? { enabled: true, liability: { type: 'self' }, provider: 'stripe', status: 'complete' }
            : { enabled: false, liability: null, provider: null, status: null },
          total_details: { amount_discount: totals.discount, amount_shipping: 0, amount_tax: amountTax },
          currency: totals.currency,
          customer: customer?.id ?? null,
          customer_email: (p.customer_email as string) ?? null,
          customer_details: customer ? customerDetails(customer) : null,
          client_reference_id: (p.client_reference_id as string) ?? null,
          metadata: p.metadata ?? {},
          discounts: (p.discounts as { coupon: string }[] | undefined) ?? [],
          line_items_spec: lineItems,
          payment_intent: null,
          success_url: required(p, 'success_url'),
          cancel_url: (p.cancel_url as string) ?? null,
          expires_at: p.expires_at ? int(p.expires_at) : nowSeconds() + 86_400,
          url: `https://checkout.stripe.com/c/pay/${id}`,
        });
      },
    },
    {
      method: 'GET',
      pattern: /^\/v1\/checkout\/sessions\/([^/]+)$/,
      template: 'GET /v1/checkout/sessions/:id',
      handle: (p, [id]) => {
        const paths = (p.expand as string[] | undefined) ?? [];
        const session = expand(get(id!, 'checkout session'), paths);
        const shares = breakdowns.get(id!);
        if (paths.includes('total_details.breakdown'))
          (session.total_details as Params).breakdown = {
            discounts: (session.discounts as { coupon: string }[]).map(({ coupon }) => ({
              amount: (session.total_details as { amount_discount: number }).amount_discount,
              discount: { object: 'discount', coupon: objects.get(coupon) ?? null },
            })),
            taxes: (shares ?? []).map(tax.sessionEntry),
          };
        return session;
      },
    },
    {
      method: 'POST',
      pattern: /^\/v1\/customers$/,
      template: 'POST /v1/customers',
      handle: (p) => {
        const taxIdData = (p.tax_id_data as { type: string; value: string }[] | undefined) ?? [];
        for (const { type, value } of taxIdData)
          if (!TAX_ID_TYPES.has(type) || !/^[A-Z]{2}[0-9A-Z+*]{2,13}$/.test(value ?? ''))
            throw new StripeError(
              400,
              'invalid_request_error',
              `Invalid value for ${type}: ${String(value)}`,
              'tax_id_invalid',
            );
        // tax[validate_location]=immediately: an address Stripe Tax cannot place is refused when the customer is made.
        const address = p.address as { country?: string; state?: string; postal_code?: string } | undefined;
        if ((p.tax as { validate_location?: string } | undefined)?.validate_location === 'immediately')
          try {
            locate({ country: address?.country, state: address?.state, postalCode: address?.postal_code });
          } catch (error) {
            if (!(error instanceof TaxLocationError)) throw error;
            throw new StripeError(400, 'invalid_request_error', error.message, 'customer_tax_location_invalid');
          }
        const id = newId('cus');
        return put({
          id,
          object: 'customer',
          email: (p.email as string) ?? null,
          name: (p.name as string) ?? null,
          address: p.address ?? null,
          metadata: p.metadata ?? {},
          tax_exempt: 'none',
          created: nowSeconds(),
          tax_ids: {
            object: 'list',
            data: taxIdData.map(({ type, value }) => ({
              id: newId('txi'),
              object: 'tax_id',
              type,
              value,
              country: value.slice(0, 2) === 'EL' ? 'GR' : value.slice(0, 2),
              customer: id,
              verification: { status: 'pending', verified_address: null, verified_name: null },
            })),
            has_more: false,
            url: `/v1/customers/${id}/tax_ids`,
          },
        });
      },
    },
    {
      method: 'POST',
      pattern: /^\/v1\/tax\/calculations$/,
      template: 'POST /v1/tax/calculations',
      handle: (p) => {
        const currency = required(p, 'currency');
        const items = p.line_items as { amount: string; reference?: string; tax_behavior?: string }[] | undefined;
        if (!items?.length)
          throw new StripeError(
            400,
            'invalid_request_error',
            'Missing required param: line_items.',
            'parameter_missing',
          );
        const details = (p.customer_details ?? {}) as {
          address?: { country?: string; state?: string; postal_code?: string };
          address_source?: string;
          tax_ids?: { type: string; value: string }[];
        };
        const perItem = items.map((item) => {
          const amount = int(item.amount);
          const inclusive = item.tax_behavior === 'inclusive';
          try {
            const shares = tax.shares(amount, inclusive, {
              country: details.address?.country,
              state: details.address?.state,
              postalCode: details.address?.postal_code,
              taxIds: details.tax_ids ?? [],
            });
            return { amount, inclusive, shares };
          } catch (error) {
            if (!(error instanceof TaxLocationError)) throw error;
            throw new StripeError(400, 'invalid_request_error', error.message, 'customer_tax_location_invalid');
          }
        });
        const sum = (inclusive: boolean) =>
          perItem
            .filter((i) => i.inclusive === inclusive)
            .reduce((total, i) => total + i.shares.reduce((t, share) => t + share.amount, 0), 0);
        const exclusiveTax = sum(false);
        return put({
          id: newId('taxcalc'),
          object: 'tax.calculation',
          amount_total: perItem.reduce((total, i) => total + i.amount, 0) + exclusiveTax,
          currency,
          customer: null,
          customer_details: {
            address: details.address ?? null,
            address_source: details.address_source ?? null,
            ip_address: null,
            tax_ids: details.tax_ids ?? [],
            taxability_override: 'none',
          },
          expires_at: nowSeconds() + 90 * 86_400,
          livemode: false,
          ship_from_details: null,
          shipping_cost: null,
          tax_amount_exclusive: exclusiveTax,
          tax_amount_inclusive: sum(true),
          tax_breakdown: perItem.flatMap((i) => i.shares.map(tax.calculationEntry)),
          tax_date: nowSeconds(),
        });
      },
    },
    {
      method: 'POST',
      pattern: /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/,
      template: 'POST /v1/checkout/sessions/:id/expire',
      handle: (_p, [id]) => {
        const session = get(id!, 'checkout session');
        if (session.status !== 'open')
          throw new StripeError(
            400,
            'invalid_request_error',
            `Only Checkout Sessions with a status in ["open"] can be expired.`,
          );
        return Object.assign(session, { status: 'expired' });
      },
    },
    {
      method: 'POST',
      pattern: /^\/v1\/customers\/([^/]+)$/,
      template: 'POST /v1/customers/:id',
      handle: (p, [id]) => Object.assign(get(id!, 'customer'), p.email ? { email: p.email } : {}),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/refunds$/,
      template: 'POST /v1/refunds',
      handle: (p) => {
        const charge = get(required(p, 'charge'), 'charge');
        const left = (charge.amount as number) - (charge.amount_refunded as number);
        const amount = p.amount ? int(p.amount) : left;
        if (charge.disputed)
          throw new StripeError(
            400,
            'invalid_request_error',
            `Charge ${charge.id} has been charged back; cannot issue a refund.`,
            'charge_disputed',
          );
        if (amount > left) {
          throw new StripeError(
            400,
            'invalid_request_error',
            `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(left / 100).toFixed(2)})`,
            'amount_too_large',
          );
        }
        if (p.reason && !['duplicate', 'fraudulent', 'requested_by_customer'].includes(p.reason as string))
          throw new StripeError(
            400,
            'invalid_request_error',
            `Invalid reason: ${String(p.reason)}`,
            'parameter_invalid',
          );
        return expand(
          refund(charge, amount, p.metadata as Params | undefined, p.reason as string | undefined),
          (p.expand as string[] | undefined) ?? [],
        );
      },
    },
    {
      // A payout to a connected account (any acct_ id is one), from the platform's balance in its currency.
      method: 'POST',
      pattern: /^\/v1\/transfers$/,
      template: 'POST /v1/transfers',
      handle: (p) => {
        const destination = required(p, 'destination');
        const amount = int(required(p, 'amount'));
        if (!/^acct_[A-Za-z0-9]+$/.test(destination))
          throw new StripeError(
            400,
            'invalid_request_error',
            `No such destination: '${destination}'`,
            'resource_missing',
          );
        if (!(amount > 0))
          throw new StripeError(400, 'invalid_request_error', 'Invalid positive integer', 'parameter_invalid_integer');
        const transfer = put({
          id: newId('tr'),
          object: 'transfer',
          amount,
          currency: required(p, 'currency'),
          destination,
          transfer_group: p.transfer_group ?? null,
          metadata: p.metadata ?? {},
          created: nowSeconds(),
        });
        transfer.balance_transaction = moved(transfer, 'transfer', 'transfer', -amount).id;
        return transfer;
      },
    },
    {
      // Transfers newest first, of one transfer group when asked (how a payout finds the transfer made for it).
      method: 'GET',
      pattern: /^\/v1\/transfers$/,
      template: 'GET /v1/transfers',
      handle: (p) => {
        const all = [...objects.values()].filter(
          (o) => o.object === 'transfer' && (p.transfer_group === undefined || o.transfer_group === p.transfer_group),
        );
        const limit = p.limit === undefined ? 10 : int(p.limit);
        const data = all.reverse().slice(0, limit);
        // A list is no object of its own (it has no id), answered as routes answer objects.
        return { object: 'list', url: '/v1/transfers', has_more: all.length > limit, data } as unknown as Obj;
      },
    },
    {
      // The balance's movements newest first: by creation time, by payout (those it paid out), by type or source.
      method: 'GET',
      pattern: /^\/v1\/balance_transactions$/,
      template: 'GET /v1/balance_transactions',
      handle: (p) =>
        listOf(
          '/v1/balance_transactions',
          [...objects.values()].filter(
            (o) =>
              o.object === 'balance_transaction' &&
              createdWithin(o, p.created) &&
              (p.payout === undefined || paidOutBy.get(o.id) === p.payout) &&
              (p.type === undefined || o.type === p.type) &&
              (p.source === undefined || o.source === p.source),
          ),
          p,
        ),
    },
    {
      method: 'GET',
      pattern: /^\/v1\/payouts$/,
      template: 'GET /v1/payouts',
      handle: (p) =>
        listOf(
          '/v1/payouts',
          [...objects.values()].filter((o) => o.object === 'payout' && createdWithin(o, p.created)),
          p,
        ),
    },
    {
      method: 'GET',
      pattern: /^\/v1\/charges\/([^/]+)$/,
      template: 'GET /v1/charges/:id',
      handle: (p, [id]) => expand(get(id!, 'charge'), (p.expand as string[] | undefined) ?? []),
    },
    {
      // Sessions newest first, of one payment intent when asked (how a charge finds the checkout it was paid in).
      method: 'GET',
      pattern: /^\/v1\/checkout\/sessions$/,
      template: 'GET /v1/checkout/sessions',
      handle: (p) =>
        listOf(
          '/v1/checkout/sessions',
          [...objects.values()].filter(
            (o) =>
              o.object === 'checkout.session' &&
              (p.payment_intent === undefined || o.payment_intent === p.payment_intent),
          ),
          p,
        ),
    },
    ...billing.routes,
  ];

  /** `created[gte|gt|lt|lte]` (Unix seconds) of a list request. */
  function createdWithin(obj: Obj, range: unknown): boolean {
    if (range === undefined) return true;
    const created = obj.created as number;
    if (typeof range !== 'object') return created === int(range);
    const { gte, gt, lt, lte } = range as Record<string, string | undefined>;
    return (
      (gte === undefined || created >= int(gte)) &&
      (gt === undefined || created > int(gt)) &&
      (lt === undefined || created < int(lt)) &&
      (lte === undefined || created <= int(lte))
    );
  }

  /** A page of a list, newest first, as Stripe pages one: `limit`, `starting_after`, `expand[]=data.…`. */
  function listOf(url: string, all: Obj[], p: Params): Obj {
    const newestFirst = all.reverse();
    const after = p.starting_after === undefined ? 0 : newestFirst.findIndex((o) => o.id === p.starting_after) + 1;
    const limit = p.limit === undefined ? 10 : int(p.limit);
    const paths = ((p.expand as string[] | undefined) ?? [])
      .filter((path) => path.startsWith('data.'))
      .map((path) => path.slice('data.'.length));
    const data = newestFirst.slice(after, after + limit).map((o) => expand(o, paths));
    return { object: 'list', url, has_more: newestFirst.length > after + limit, data } as unknown as Obj;
  }

  /** Which payout carried each balance transaction to the bank (Stripe answers it as the list's `payout` filter). */
  const paidOutBy = new Map<string, string>();

  /** The account's settlement currency and its rates, once a test sets one (`settleAccountIn`). */
  let accountSettlement: { currency: string; rates: Record<string, number> } | null = null;

  /** `amount` of `currency` as the balance takes it: converted when the account settles in another currency. */
  function settled(amount: number, currency: string): { amount: number; currency: string; rate: number | null } {
    if (!accountSettlement || accountSettlement.currency === currency) return { amount, currency, rate: null };
    const rate = accountSettlement.rates[currency];
    if (rate === undefined) throw new Error(`No rate from ${currency} to ${accountSettlement.currency}.`);
    const to = accountSettlement.currency;
    return { amount: Math.round(toMajorUnits(amount, currency) * rate * minorPerMajor(to)), currency: to, rate };
  }

  /**
   * A movement of the balance for `source`, in its currency (or the account's settlement currency, converted), fee-free
   * unless said (a fee is in the balance's currency); available at once.
   */
  function moved(source: Obj, type: string, category: string, sourceAmount: number, fee = 0): Obj {
    const { amount, currency, rate } = settled(sourceAmount, source.currency as string);
    return put({
      id: newId('txn'),
      object: 'balance_transaction',
      amount,
      fee,
      fee_details: fee ? [{ amount: fee, currency, type: 'stripe_fee', description: category }] : [],
      net: amount - fee,
      currency,
      exchange_rate: rate,
      type,
      reporting_category: category,
      source: source.id,
      status: 'available',
      created: nowSeconds(),
      available_on: nowSeconds(),
    });
  }

  let refundsHeld = false;
  function refund(charge: Obj, amount: number, metadata: Params = {}, reason: string | null = null): Obj {
    charge.amount_refunded = (charge.amount_refunded as number) + amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    const made = put({
      id: newId('re'),
      object: 'refund',
      amount,
      charge: charge.id,
      currency: charge.currency,
      status: refundsHeld ? 'pending' : 'succeeded',
      failure_reason: null,
      reason,
      metadata,
      created: nowSeconds(),
    });
    // Stripe takes a refund's money from the balance when it is made, pending or not, and gives it back if it fails.
    made.balance_transaction = moved(made, 'refund', 'refund', -amount).id;
    return made;
  }

  function event(type: string, object: Obj): Stripe.Event {
    return {
      id: newId('evt'),
      object: 'event',
      api_version: '2026-10-28.endive',
      created: nowSeconds(),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object: structuredClone(object) },
    } as unknown as Stripe.Event;
  }

  async function readBody(req: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  function answer(res: ServerResponse, status: number, body: unknown, replayed = false) {
    res.writeHead(status, {
      'content-type': 'application/json',
      'request-id': newId('req'),
      ...(replayed && { 'idempotent-replayed': 'true' }),
    });
    res.end(JSON.stringify(body));
  }

  async function serve(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const raw = req.method === 'GET' ? url.search.slice(1) : await readBody(req);
    const params = qs.parse(raw, { arrayLimit: 100, depth: 10 }) as Params;
    if (req.headers.authorization !== `Bearer ${STAND_IN_SECRET_KEY}`) {
      return answer(res, 401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } });
    }
    const route = routes.find((r) => r.method === req.method && r.pattern.test(url.pathname));
    if (!route)
      return answer(res, 404, {
        error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${url.pathname}).` },
      });
    calls.set(route.template, (calls.get(route.template) ?? 0) + 1);
    const key = req.headers['idempotency-key'] as string | undefined;
    const record = { template: route.template, idempotencyKey: key, status: 200 };
    requests.push(record);
    const probe = probes.get(route.template);
    probes.delete(route.template);
    if (probe) await probe();
    const failing = failures.get(route.template) ?? 0;
    if (failing > 0) failures.set(route.template, failing - 1);
    if (failing > 0)
      return answer(res, (record.status = 500), {
        error: { type: 'api_error', message: 'Something went wrong on our end.' },
      });
    const delay = delays.get(route.template);
    const hold = delay?.ms ?? 0;
    if (delay && --delay.times <= 0) delays.delete(route.template);
    const replay = key && idempotent.get(`${route.template} ${key}`);
    if (replay) {
      record.status = replay.status;
      if (hold) await new Promise((r) => setTimeout(r, hold));
      return answer(res, replay.status, replay.body, true);
    }
    let status = 200;
    let body: unknown;
    try {
      body = route.handle(params, route.pattern.exec(url.pathname)!.slice(1));
    } catch (error) {
      if (!(error instanceof StripeError)) throw error;
      status = error.status;
      body = { error: { type: error.type, message: error.message, code: error.code } };
    }
    if (key) idempotent.set(`${route.template} ${key}`, { status, body });
    record.status = status;
    if (hold) await new Promise((r) => setTimeout(r, hold));
    if (!res.destroyed) answer(res, status, body);
  }

  const server: Server = createServer((req, res) => {
    serve(req, res).catch((error: unknown) =>
      // A client gone mid-request (its body unread, or its answer half written) ends that request only.
      res.headersSent || res.destroyed
        ? res.destroy()
        : answer(res, 500, { error: { type: 'api_error', message: String(error) } }),
    );
  });
  const port = await listenOnLoopback(server);

  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    objects,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections(); // held answers (delayNext) would keep it open
      }),
    forgetIdempotencyKeys: () => idempotent.clear(),
    failNext: (template, times = 1) => void failures.set(template, times),
    registerTax: (registration) => void taxRegistrations.push(registration),

    payOut() {
      const unpaid = [...objects.values()].filter(
        (o) => o.object === 'balance_transaction' && o.type !== 'payout' && !paidOutBy.has(o.id),
      );
      const currencies = [...new Set(unpaid.map((o) => o.currency as string))];
      return currencies.map((currency) => {
        const carried = unpaid.filter((o) => o.currency === currency);
        const amount = carried.reduce((sum, o) => sum + (o.net as number), 0);
        const payout = put({
          id: newId('po'),
          object: 'payout',
          amount,
          currency,
          status: 'paid',
          created: nowSeconds(),
          arrival_date: nowSeconds() + 2 * 86_400,
        });
        const own = moved(payout, 'payout', 'payout', -amount);
        payout.balance_transaction = own.id;
        for (const txn of [...carried, own]) paidOutBy.set(txn.id, payout.id);
        return payout.id;
      });
    },

    balanceTransactionOf(sourceId) {
      const found = [...objects.values()].filter((o) => o.object === 'balance_transaction' && o.source === sourceId);
      if (!found.length) throw new Error(`No balance transaction for ${sourceId}.`);
      return found.at(-1)!;
    },
    beforeNext: (template, probe) => void probes.set(template, probe),
    delayNext: (template, ms, times = 1) => void delays.set(template, { ms, times }),
    event,
    billing: billing.billing,

    pay(sessionId, { settleIn } = {}) {
      const session = get(sessionId, 'checkout session');
      if (session.status === 'expired')
        throw new Error(`Checkout Session ${sessionId} has expired: Stripe's page no longer takes a payment.`);
      if (session.status !== 'complete') {
        for (const { coupon } of session.discounts as { coupon: string }[])
          (get(coupon, 'coupon').times_redeemed as number)++;
        // The session's own customer (made first, with the billing address and tax IDs), else one made now.
        const customer = session.customer
          ? get(session.customer as string, 'customer')
          : put({ id: newId('cus'), object: 'customer', email: session.customer_email ?? 'buyer@example.com' });
        const email = (customer.email as string | null) ?? 'buyer@example.com';
        const amount = session.amount_total as number;
        const inBalance = settleIn
          ? {
              amount: Math.round(
                toMajorUnits(amount, session.currency as string) * settleIn.rate * minorPerMajor(settleIn.currency),
              ),
              currency: settleIn.currency,
              rate: settleIn.rate,
            }
          : settled(amount, session.currency as string);
        const fee = Math.round(inBalance.amount * 0.029) + 30;
        const balance = put({
          id: newId('txn'),
          object: 'balance_transaction',
          amount: inBalance.amount,
          fee,
          net: inBalance.amount - fee,
          currency: inBalance.currency,
          exchange_rate: inBalance.rate,
          type: 'charge',
          reporting_category: 'charge',
          status: 'available',
          created: nowSeconds(),
          available_on: nowSeconds(),
        });
        const charge = put({
          id: newId('ch'),
          object: 'charge',
          created: nowSeconds(),
          amount,
          amount_refunded: 0,
          refunded: false,
          disputed: false,
          paid: true,
          status: 'succeeded',
          currency: session.currency,
          customer: customer.id,
          balance_transaction: balance.id,
          billing_details: { email },
        });
        const intent = put({
          id: newId('pi'),
          object: 'payment_intent',
          amount,
          currency: session.currency,
          status: 'succeeded',
          latest_charge: charge.id,
          customer: customer.id,
        });
        charge.payment_intent = intent.id;
        balance.source = charge.id;
        Object.assign(session, {
          status: 'complete',
          payment_status: 'paid',
          customer: customer.id,
          customer_details: { ...customerDetails(customer), email },
          payment_intent: intent.id,
        });
      }
      return event('checkout.session.completed', session);
    },

    expire(sessionId) {
      const session = get(sessionId, 'checkout session');
      if (session.status === 'open') session.status = 'expired';
      return event('checkout.session.expired', session);
    },

    refundFromDashboard(chargeId, amount) {
      refund(get(chargeId, 'charge'), amount, { reason: 'from the dashboard' });
      return event('charge.refunded', get(chargeId, 'charge'));
    },

    chargeRefundedEvent: (chargeId) => event('charge.refunded', get(chargeId, 'charge')),

    refundsPending: (on) => void (refundsHeld = on),

    settleAccountIn: (currency, rates) => void (accountSettlement = { currency, rates }),

    settleRefund(refundId, outcome) {
      const held = get(refundId, 'refund');
      if (held.status !== 'pending') throw new Error(`Refund ${refundId} is ${String(held.status)}, not pending.`);
      held.status = outcome;
      if (outcome === 'succeeded') return event('refund.updated', held);
      const charge = get(held.charge as string, 'charge');
      charge.amount_refunded = (charge.amount_refunded as number) - (held.amount as number);
      charge.refunded = charge.amount_refunded === charge.amount;
      held.failure_reason = 'expired_or_canceled_card';
      moved(held, 'refund_failure', 'refund_failure', held.amount as number);
      return event('refund.failed', held);
    },

    openDispute(chargeId, options = {}) {
      const charge = get(chargeId, 'charge');
      charge.disputed = true;
      const dueBy = options.dueBy ? Math.floor(options.dueBy.getTime() / 1000) : nowSeconds() + 7 * 86_400;
      const dispute = put({
        id: newId('dp'),
        object: 'dispute',
        charge: charge.id,
        amount: charge.amount,
        currency: charge.currency,
        created: nowSeconds(),
        reason: 'fraudulent',
        status: options.inquiry ? 'warning_needs_response' : 'needs_response',
        evidence_details: { due_by: dueBy, has_evidence: false, past_due: false, submission_count: 0 },
      });
      // A chargeback's amount leaves the balance as it opens, with Stripe's dispute fee; an inquiry moves nothing.
      dispute.balance_transactions = options.inquiry
        ? []
        : [moved(dispute, 'adjustment', 'dispute', -(dispute.amount as number), DISPUTE_FEE)];
      return { dispute: dispute.id, event: event('charge.dispute.created', dispute) };
    },

    closeDispute(disputeId, status) {
      const dispute = get(disputeId, 'dispute');
      // A won dispute gives the amount back to the balance (not the fee); an inquiry closes as warning_closed.
      const inquiry = (dispute.status as string).startsWith('warning_');
      if (inquiry) {
        dispute.status = 'warning_closed';
        return event('charge.dispute.closed', dispute);
      }
      if (status === 'won' && dispute.status !== 'won')
        (dispute.balance_transactions as Obj[]).push(
          moved(dispute, 'adjustment', 'dispute_reversal', dispute.amount as number),
        );
      dispute.status = status;
      return event('charge.dispute.closed', dispute);
    },
  };
}

/** A webhook delivery as Stripe makes it: the JSON body and its Stripe-Signature header from the SDK's helper. */
export function signed(event: Stripe.Event, secret = STAND_IN_WEBHOOK_SECRET): { payload: string; signature: string } {
  const payload = JSON.stringify(event);
  return { payload, signature: Stripe.webhooks.generateTestHeaderString({ payload, secret }) };
}

/** Posts `event` to the app's Stripe webhook, signed as Stripe signs it. */
export function deliverSigned(app: Parameters<typeof request>[0], event: Stripe.Event) {
  const { payload, signature } = signed(event);
  return request(app)
    .post('/api/webhooks/stripe')
    .set('Content-Type', 'application/json')
    .set('Stripe-Signature', signature)
    .send(payload);
}

/** The environment that points the product at the stand-in. */
export function standInEnv(standIn: StandIn): Record<string, string> {
  return {
    STRIPE_SECRET_KEY: STAND_IN_SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: STAND_IN_WEBHOOK_SECRET,
    STRIPE_API_URL: standIn.url,
  };
}
