import type Stripe from 'stripe';
import { nthPeriodEnd } from '../../api/src/payments/stripe-subscriptions';

/**
 * Stripe Billing in the Stripe stand-in (./stripe-stand-in.ts): Checkout in subscription mode, subscriptions, their
 * invoices and payments, and the customer portal, as the SDK reads them (API version 2026-10-28: an invoice names its
 * subscription under `parent.subscription_details`, its payments are expanded on request, a subscription's period is
 * its item's). Each subscription keeps a clock of its own, as a Stripe test clock does: a renewal moves it to the
 * period's end, and the events of that renewal are created then, in the order Stripe documents. Subscription
 * schedules made from a subscription (`from_subscription`) take a later phase: the renewal at the current phase's end
 * enters it (the phase's price, seats, coupon and metadata, the period restarted at its interval), and a schedule whose
 * last phase ends is released (`end_behavior: release`), as is one released through the API.
 */

type Obj = Record<string, unknown> & { id: string };
type Params = Record<string, unknown>;

/** What the billing part uses of the stand-in's core. */
export interface StandInCore {
  get(id: string, what: string): Obj;
  put(obj: Obj): Obj;
  newId(prefix: string): string;
  event(type: string, object: Obj): Stripe.Event;
  expand(obj: Obj, paths: string[]): Obj;
  /** A movement of the balance for `source` (its fee in the balance's currency). */
  moved(source: Obj, type: string, category: string, amount: number, fee?: number): Obj;
  /** Answers a request with Stripe's error (an invalid request unless `status` says otherwise). */
  fail(message: string, code?: string, status?: number): never;
}

export interface StandInRoute {
  method: string;
  pattern: RegExp;
  template: string;
  handle: (params: Params, match: string[]) => Obj;
}

export interface StandInBilling {
  /**
   * The buyer subscribes on the Checkout page: a customer, the subscription (trialing when the session asked for a
   * trial), its first invoice paid (nothing to pay in a trial) and the session completed. Answers Stripe's events.
   */
  subscribe(sessionId: string): { subscription: string; events: Stripe.Event[] };
  /**
   * The period ends: the subscription moves to the next one and bills it, paid or failed (past due); one set to end at
   * the period's end (or a plan's last period) ends instead. Answers Stripe's events.
   */
  renew(subscriptionId: string, outcome: 'paid' | 'failed'): Stripe.Event[];
  /** Smart Retries try the open invoice again (a new card, or just again): paid makes the subscription active. */
  retry(subscriptionId: string, outcome: 'paid' | 'failed'): Stripe.Event[];
  /** Moves the subscription's test clock on by `seconds` within its period (a change made later in it). */
  advance(subscriptionId: string, seconds: number): void;
  /** Ended from Stripe's dashboard (or Smart Retries gave up with "cancel the subscription"). */
  end(subscriptionId: string): Stripe.Event[];
  /** Events of changes asked through the API (cancel, resume, a price change, an end set), oldest first; emptied. */
  takeEvents(): Stripe.Event[];
  /** The subscription Checkout made for a session. */
  subscriptionOf(sessionId: string): string;
  /** The customer's card declines the next payment a change of price asks for. */
  declineNextChange(subscriptionId: string): void;
}

const DAY_SECONDS = 86_400;
const toSeconds = (date: Date) => Math.floor(date.getTime() / 1000);
const fromSeconds = (seconds: number) => new Date(seconds * 1000);

interface Clocked {
  /** The subscription's own time (a test clock's), Unix seconds. */
  now: number;
  anchor: number;
}

export function stripeBilling(core: StandInCore): {
  routes: StandInRoute[];
  billing: StandInBilling;
  /** Checkout in subscription mode (the stand-in's session route hands those sessions here). */
  createSession(p: Params): Obj;
} {
  const { get, put, newId } = core;
  const clocks = new Map<string, Clocked>();
  /** Subscriptions whose next price change's payment is declined. */
  const declining = new Set<string>();
  const queued: Stripe.Event[] = [];

  /** An event of the subscription, created at its own time. */
  const eventAt = (at: number, type: string, object: Obj): Stripe.Event => ({
    ...core.event(type, object),
    created: at,
  });

  const itemOf = (sub: Obj) => (sub.items as { data: Obj[] }).data[0]!;
  const priceOf = (sub: Obj) => itemOf(sub).price as Obj & { unit_amount: number; currency: string };
  const intervalOf = (sub: Obj) => (priceOf(sub).recurring as { interval: 'month' | 'year' }).interval;

  function recurringPrice(data: Params, product: string): Obj {
    const recurring = data.recurring as { interval?: string } | undefined;
    if (!recurring?.interval || !['month', 'year', 'week', 'day'].includes(recurring.interval))
      core.fail('Missing required param: price_data[recurring][interval].', 'parameter_missing');
    return put({
      id: newId('price'),
      object: 'price',
      product,
      unit_amount: Number(data.unit_amount),
      currency: String(data.currency),
      active: true,
      type: 'recurring',
      recurring: { interval: recurring!.interval, interval_count: 1 },
      tax_behavior: 'unspecified',
      metadata: {},
    });
  }

  /** A payment of `amount` by the customer: the balance's movement (Stripe's fee), the charge, its payment intent. */
  function payment(customer: Obj, amount: number, currency: string, at: number): Obj {
    const charge = put({
      id: newId('ch'),
      object: 'charge',
      created: at,
      amount,
      amount_refunded: 0,
      refunded: false,
      disputed: false,
      paid: true,
      status: 'succeeded',
      currency,
      customer: customer.id,
      billing_details: { email: customer.email ?? null },
    });
    charge.balance_transaction = core.moved(charge, 'charge', 'charge', amount, Math.round(amount * 0.029) + 30).id;
    const intent = put({
      id: newId('pi'),
      object: 'payment_intent',
      amount,
      currency,
      status: 'succeeded',
      latest_charge: charge.id,
      customer: customer.id,
    });
    charge.payment_intent = intent.id;
    return intent;
  }

  /** A finalized invoice of the subscription for `lines`, open until it is paid. */
  function invoiceFor(sub: Obj, reason: string, lines: { amount: number; start: number; end: number }[]): Obj {
    const clock = clocks.get(sub.id)!;
    const customer = get(sub.customer as string, 'customer');
    const subtotal = lines.reduce((sum, line) => sum + line.amount, 0);
    const { discount, tax, total, taxRate } = invoiceTotals(sub, subtotal, clock.now);
    const invoice = put({
      id: newId('in'),
      object: 'invoice',
      status: 'open',
      billing_reason: reason,
      customer: customer.id,
      customer_email: customer.email ?? null,
      currency: priceOf(sub).currency,
      subtotal,
      total,
      total_discount_amounts: discount ? [{ amount: discount, discount: newId('di') }] : [],
      total_taxes: taxRate
        ? [
            {
              amount: tax,
              tax_behavior: taxRate.inclusive ? 'inclusive' : 'exclusive',
              taxability_reason: 'standard_rated',
              taxable_amount: subtotal - discount - (taxRate.inclusive ? tax : 0),
              type: 'tax_rate_details',
              tax_rate_details: { tax_rate: taxRate.id },
            },
          ]
        : [],
      amount_due: Math.max(0, total),
      amount_paid: 0,
      amount_remaining: Math.max(0, total),
      attempt_count: 0,
      attempted: false,
      created: clock.now,
      period_start: clock.now,
      period_end: clock.now,
      parent: {
        type: 'subscription_details',
        quote_details: null,
        subscription_details: { subscription: sub.id, metadata: structuredClone(sub.metadata) },
      },
      lines: {
        object: 'list',
        has_more: false,
        url: '/v1/invoices/lines',
        data: lines.map((line) => ({
          id: newId('il'),
          object: 'line_item',
          amount: line.amount,
          currency: priceOf(sub).currency,
          quantity: itemOf(sub).quantity,
          period: { start: line.start, end: line.end },
        })),
      },
    });
    invoices.set(invoice.id, []);
    sub.latest_invoice = invoice.id;
    return invoice;
  }

  /**
   * An invoice's money as Stripe sums it: the subscription's coupon off the subtotal while it lasts (forever, or for
   * its months from the start), then its tax rate's tax, inside the amount or added on top.
   */
  function invoiceTotals(sub: Obj, subtotal: number, at: number) {
    const [couponId] = (sub.discounts as string[] | undefined) ?? [];
    const coupon = couponId ? get(couponId, 'coupon') : null;
    const started = fromSeconds(sub.start_date as number);
    const lasts =
      coupon &&
      (coupon.duration === 'forever' ||
        (coupon.duration === 'repeating' &&
          at < toSeconds(nthPeriodEnd(started, 'month', coupon.duration_in_months as number))) ||
        (coupon.duration === 'once' && at === sub.start_date));
    const discount = lasts && subtotal > 0 ? Math.round((subtotal * (coupon.percent_off as number)) / 100) : 0;
    const [rateId] = (itemOf(sub).tax_rates as string[] | undefined) ?? [];
    const taxRate = rateId ? (get(rateId, 'tax rate') as Obj & { inclusive: boolean; percentage: number }) : null;
    const base = subtotal - discount;
    const tax = !taxRate
      ? 0
      : taxRate.inclusive
        ? base - Math.round(base / (1 + taxRate.percentage / 100))
        : Math.round((base * taxRate.percentage) / 100);
    return { discount, tax, taxRate, total: base + (taxRate && !taxRate.inclusive ? tax : 0) };
  }

  /** Invoice payments by invoice, answered when the invoice is read with `expand[]=payments`. */
  const invoices = new Map<string, Obj[]>();

  /** An attempt to pay the invoice: paid takes the money (nothing when there is none to take), failed takes none. */
  function attempt(sub: Obj, invoice: Obj, outcome: 'paid' | 'failed'): Stripe.Event[] {
    const at = clocks.get(sub.id)!.now;
    invoice.attempt_count = (invoice.attempt_count as number) + 1;
    invoice.attempted = true;
    if (outcome === 'failed') {
      const events = [eventAt(at, 'invoice.payment_failed', invoice)];
      if (sub.status !== 'past_due') {
        sub.status = 'past_due';
        events.push(eventAt(at, 'customer.subscription.updated', sub));
      }
      return events;
    }
    const due = invoice.amount_due as number;
    if (due > 0) {
      const intent = payment(get(sub.customer as string, 'customer'), due, invoice.currency as string, at);
      invoices.get(invoice.id)!.push({
        id: newId('inpay'),
        object: 'invoice_payment',
        amount_paid: due,
        amount_requested: due,
        currency: invoice.currency,
        invoice: invoice.id,
        is_default: true,
        status: 'paid',
        created: at,
        payment: { type: 'payment_intent', payment_intent: intent.id },
        status_transitions: { canceled_at: null, paid_at: at },
      });
    }
    Object.assign(invoice, { status: 'paid', amount_paid: due, amount_remaining: 0 });
    const events = [eventAt(at, 'invoice.paid', invoice), eventAt(at, 'invoice.payment_succeeded', invoice)];
    if (sub.status === 'past_due') {
      sub.status = 'active';
      events.push(eventAt(at, 'customer.subscription.updated', sub));
    }
    return events;
  }

  function subscription(id: string): Obj {
    const sub = get(id, 'subscription');
    if (sub.object !== 'subscription') core.fail(`No such subscription: '${id}'`, 'resource_missing', 404);
    return sub;
  }

  function ended(sub: Obj, at: number): Stripe.Event[] {
    Object.assign(sub, { status: 'canceled', canceled_at: sub.canceled_at ?? at, ended_at: at });
    const events: Stripe.Event[] = [];
    if (sub.schedule) {
      // Its schedule ends with it.
      const sched = schedule(sub.schedule as string);
      Object.assign(sched, { status: 'canceled', canceled_at: at, current_phase: null });
      sub.schedule = null;
      events.push(eventAt(at, 'subscription_schedule.canceled', sched));
    }
    return [...events, eventAt(at, 'customer.subscription.deleted', sub)];
  }

  /** The period after the current one, counted from the billing anchor as Stripe counts it. */
  function nextPeriod(sub: Obj): { start: number; end: number } {
    const clock = clocks.get(sub.id)!;
    const item = itemOf(sub);
    const start = item.current_period_end as number;
    let n = 1;
    while (toSeconds(nthPeriodEnd(fromSeconds(clock.anchor), intervalOf(sub), n)) <= start) n++;
    return { start, end: toSeconds(nthPeriodEnd(fromSeconds(clock.anchor), intervalOf(sub), n)) };
  }

  /**
   * What a price change at `at` bills (the unused part of the period credited, the new price billed, prorated when it
   * keeps the interval) and the item it leaves, without changing anything: the change and its invoice preview alike.
   * `at` must fall within the current period, as Stripe asks of a `proration_date`.
   */
  function proratedChange(sub: Obj, p: Params, at: number) {
    const [change] = p.items as { id: string; price_data: Params; quantity?: string }[];
    const item = itemOf(sub);
    if (!change || change.id !== item.id) core.fail(`No such subscription item: '${change?.id}'`, 'resource_missing');
    const [start, end] = [item.current_period_start as number, item.current_period_end as number];
    if (at < start || at >= end) core.fail('proration_date must be within the current subscription period.');
    const old = { amount: priceOf(sub).unit_amount * (item.quantity as number), interval: intervalOf(sub) };
    const data = change!.price_data;
    const interval = (data.recurring as { interval: 'month' | 'year' }).interval;
    const quantity = change!.quantity ? Number(change!.quantity) : (item.quantity as number);
    const amount = Number(data.unit_amount) * quantity;
    const unused = Math.round((old.amount * (end - at)) / (end - start));
    const lines = [{ amount: -unused, start: at, end }];
    // Another interval starts a new period now, billed in full.
    const restart =
      interval !== old.interval ? { start: at, end: toSeconds(nthPeriodEnd(fromSeconds(at), interval, 1)) } : null;
    if (restart) lines.push({ amount, ...restart });
    else lines.push({ amount: Math.round((amount * (end - at)) / (end - start)), start: at, end });
    return { change: change!, quantity, lines, restart };
  }

  /** When a change is prorated: at the `proration_date` asked (previewed first), else now on the subscription's clock. */
  const prorationAt = (sub: Obj, p: Params) =>
    p.proration_date !== undefined ? Number(p.proration_date) : clocks.get(sub.id)!.now;

  /** A price change now: the unused part of the period credited, the new price billed (prorated when it keeps it). */
  function changePrice(sub: Obj, p: Params): Stripe.Event[] {
    const clock = clocks.get(sub.id)!;
    const now = prorationAt(sub, p);
    const { change, quantity, lines, restart } = proratedChange(sub, p, now);
    const item = itemOf(sub);
    item.price = recurringPrice(change.price_data, String(change.price_data.product));
    item.quantity = quantity;
    if (restart) {
      clock.anchor = restart.start;
      Object.assign(item, { current_period_start: restart.start, current_period_end: restart.end });
      sub.billing_cycle_anchor = restart.start;
    }
    const events = [eventAt(now, 'customer.subscription.updated', sub)];
    if (p.proration_behavior !== 'always_invoice') return events;
    const invoice = invoiceFor(sub, 'subscription_update', lines);
    events.push(eventAt(now, 'invoice.created', invoice), eventAt(now, 'invoice.finalized', invoice));
    return [...events, ...attempt(sub, invoice, 'paid')];
  }

  /**
   * The invoice a subscription update would make now (`invoices.createPreview`, `always_invoice`): its lines and
   * totals as the update will bill them, the subscription left as it is and nothing stored.
   */
  function previewChange(p: Params): Obj {
    const sub = subscription(String(p.subscription ?? ''));
    const details = (p.subscription_details ?? {}) as Params;
    if (!details.items) core.fail('The stand-in previews only a change of items (subscription_details[items]).');
    if (details.proration_behavior !== 'always_invoice')
      core.fail('The stand-in previews only an invoice made at once (proration_behavior=always_invoice).');
    const at = prorationAt(sub, details);
    const { lines } = proratedChange(sub, details, at);
    const subtotal = lines.reduce((sum, line) => sum + line.amount, 0);
    const { discount, tax, total } = invoiceTotals(sub, subtotal, at);
    return {
      id: `upcoming_${sub.id}`,
      object: 'invoice',
      status: 'draft',
      billing_reason: 'subscription_update',
      customer: sub.customer,
      currency: priceOf(sub).currency,
      subtotal,
      total,
      total_discount_amounts: discount ? [{ amount: discount, discount: newId('di') }] : [],
      total_taxes: tax ? [{ amount: tax }] : [],
      amount_due: Math.max(0, total),
      amount_paid: 0,
      amount_remaining: Math.max(0, total),
      lines: {
        object: 'list',
        has_more: false,
        url: '/v1/invoices/lines',
        data: lines.map((line) => ({
          object: 'line_item',
          amount: line.amount,
          period: { start: line.start, end: line.end },
        })),
      },
    };
  }

  function schedule(id: string): Obj {
    const found = get(id, 'subscription schedule');
    if (found.object !== 'subscription_schedule')
      core.fail(`No such subscription schedule: '${id}'`, 'resource_missing', 404);
    return found;
  }

  /** A list param as the SDK sends it: an empty list arrives as an empty string. */
  const listOf = <T>(value: unknown): T[] => (value === '' || value === undefined ? [] : (value as T[]));

  /** The subscription's terms now, as the first phase of a schedule made from it. */
  function phaseOf(sub: Obj): Obj {
    const item = itemOf(sub);
    return {
      id: newId('phase'),
      start_date: item.current_period_start,
      end_date: item.current_period_end,
      currency: priceOf(sub).currency,
      items: [
        {
          price: priceOf(sub).id,
          quantity: item.quantity,
          tax_rates: listOf<string>(item.tax_rates).map((rate) => get(rate, 'tax rate')),
          metadata: {},
        },
      ],
      discounts: ((sub.discounts as string[] | undefined) ?? []).map((coupon) => ({
        coupon,
        discount: null,
        promotion_code: null,
      })),
      trial_end: sub.status === 'trialing' ? sub.trial_end : null,
      metadata: {},
      proration_behavior: 'create_prorations',
    } as unknown as Obj;
  }

  /** Phases as an update sends them, in Stripe's shape: each starts where the one before ends. */
  function phasesFrom(sched: Obj, sub: Obj, given: Params[]): Obj[] {
    const current = sched.current_phase as { start_date: number; end_date: number };
    let start = current.start_date;
    return given.map((p, n) => {
      if (n === 0 && p.start_date !== undefined && Number(p.start_date) !== current.start_date)
        core.fail('You can not modify the start date of the current phase.');
      const items = listOf<Params>(p.items).map((it) => {
        const data = it.price_data as Params | undefined;
        if (data && !data.product) core.fail('Missing required param: phases[][items][][price_data][product].');
        if (data) get(String(data.product), 'product');
        const price = data ? recurringPrice(data, String(data.product)) : get(String(it.price), 'price');
        return {
          price: price.id,
          quantity: Number(it.quantity ?? 1),
          tax_rates: listOf<string>(it.tax_rates).map((rate) => get(rate, 'tax rate')),
          metadata: {},
        };
      });
      if (!items.length) core.fail('Missing required param: phases[][items].', 'parameter_missing');
      if (n === 0) {
        // The current phase's items sent back changed would change the subscription now (prorated): not modelled.
        const [item] = items;
        if (item!.price !== priceOf(sub).id || item!.quantity !== itemOf(sub).quantity)
          core.fail('The stand-in does not change the current phase of a schedule.');
      }
      const duration = p.duration as { interval: 'month' | 'year'; interval_count?: string } | undefined;
      if (duration && p.end_date !== undefined) core.fail('You may only specify one of end_date and duration.');
      const end = duration
        ? toSeconds(nthPeriodEnd(fromSeconds(start), duration.interval, Number(duration.interval_count ?? 1)))
        : Number(p.end_date);
      if (!end || end <= start) core.fail('Each phase must end after it starts: set end_date or duration.');
      const phase = {
        id: newId('phase'),
        start_date: start,
        end_date: end,
        currency: get(items[0]!.price, 'price').currency,
        items,
        discounts: listOf<{ coupon: string }>(p.discounts).map(({ coupon }) => ({
          coupon: get(coupon, 'coupon').id,
          discount: null,
          promotion_code: null,
        })),
        trial_end: p.trial_end ? Number(p.trial_end) : null,
        metadata: (p.metadata as Params | undefined) ?? {},
        proration_behavior: (p.proration_behavior as string | undefined) ?? 'create_prorations',
      };
      start = end;
      return phase as unknown as Obj;
    });
  }

  /** The schedule lets go of the subscription, which renews on its own at the terms it has. */
  function released(sched: Obj, sub: Obj, at: number): Stripe.Event {
    Object.assign(sched, {
      status: 'released',
      released_at: at,
      released_subscription: sub.id,
      subscription: null,
      current_phase: null,
    });
    sub.schedule = null;
    return eventAt(at, 'subscription_schedule.released', sched);
  }

  /**
   * At the current phase's end: the next phase's terms, the period restarted at its interval from its start (an
   * interval other than the one billed restarts the billing cycle); or, after the last phase, the schedule released.
   */
  function enterNextPhase(sub: Obj, at: number): Stripe.Event[] {
    if (!sub.schedule) return [];
    const sched = schedule(sub.schedule as string);
    const end = itemOf(sub).current_period_end as number;
    const phases = sched.phases as (Obj & { start_date: number; end_date: number; items: Obj[] })[];
    const next = phases.find((phase) => phase.start_date === end);
    if (!next) {
      const last = phases.at(-1)!;
      return last.end_date <= end && sched.end_behavior === 'release' ? [released(sched, sub, at)] : [];
    }
    const [phaseItem] = next.items;
    const item = itemOf(sub);
    const price = get(phaseItem!.price as string, 'price');
    Object.assign(item, {
      price,
      quantity: phaseItem!.quantity,
      tax_rates: (phaseItem!.tax_rates as Obj[]).map((rate) => rate.id),
    });
    sub.discounts = (next.discounts as { coupon: string }[]).map(({ coupon }) => coupon);
    sub.metadata = { ...(sub.metadata as Params), ...(next.metadata as Params) };
    clocks.get(sub.id)!.anchor = next.start_date;
    sub.billing_cycle_anchor = next.start_date;
    sched.current_phase = { start_date: next.start_date, end_date: next.end_date };
    return [eventAt(at, 'subscription_schedule.updated', sched)];
  }

  const routes: StandInRoute[] = [
    {
      method: 'POST',
      pattern: /^\/v1\/subscription_schedules$/,
      template: 'POST /v1/subscription_schedules',
      handle: (p) => {
        if (!p.from_subscription)
          core.fail('The stand-in makes schedules only from a subscription (from_subscription).');
        const sub = subscription(String(p.from_subscription));
        if (sub.schedule)
          core.fail(
            `You cannot migrate a subscription that is already attached to a schedule: \`${String(sub.schedule)}\`.`,
          );
        if (sub.status === 'canceled') core.fail('You cannot migrate a canceled subscription to a schedule.');
        const at = clocks.get(sub.id)!.now;
        const first = phaseOf(sub);
        const sched = put({
          id: newId('sub_sched'),
          object: 'subscription_schedule',
          status: 'active',
          subscription: sub.id,
          customer: sub.customer,
          created: at,
          end_behavior: 'release',
          current_phase: { start_date: first.start_date, end_date: first.end_date },
          phases: [first],
          released_at: null,
          released_subscription: null,
          canceled_at: null,
          completed_at: null,
          metadata: {},
        });
        sub.schedule = sched.id;
        queued.push(eventAt(at, 'subscription_schedule.created', sched));
        return sched;
      },
    },
    {
      method: 'GET',
      pattern: /^\/v1\/subscription_schedules\/([^/]+)$/,
      template: 'GET /v1/subscription_schedules/:id',
      handle: (p, [id]) => core.expand(schedule(id!), (p.expand as string[] | undefined) ?? []),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/subscription_schedules\/([^/]+)\/release$/,
      template: 'POST /v1/subscription_schedules/:id/release',
      handle: (_p, [id]) => {
        const sched = schedule(id!);
        if (sched.status !== 'active' && sched.status !== 'not_started')
          core.fail(
            `You cannot release a subscription schedule that is currently in the \`${String(sched.status)}\` status.`,
          );
        const sub = subscription(sched.subscription as string);
        queued.push(released(sched, sub, clocks.get(sub.id)!.now));
        return sched;
      },
    },
    {
      method: 'POST',
      pattern: /^\/v1\/subscription_schedules\/([^/]+)$/,
      template: 'POST /v1/subscription_schedules/:id',
      handle: (p, [id]) => {
        const sched = schedule(id!);
        if (sched.status !== 'active' && sched.status !== 'not_started')
          core.fail(
            `You cannot update a subscription schedule that is currently in the \`${String(sched.status)}\` status.`,
          );
        const sub = subscription(sched.subscription as string);
        if (p.phases !== undefined) sched.phases = phasesFrom(sched, sub, listOf<Params>(p.phases));
        if (p.end_behavior !== undefined) sched.end_behavior = p.end_behavior;
        if (p.metadata !== undefined) sched.metadata = { ...(sched.metadata as Params), ...(p.metadata as Params) };
        queued.push(eventAt(clocks.get(sub.id)!.now, 'subscription_schedule.updated', sched));
        return sched;
      },
    },
    {
      method: 'POST',
      pattern: /^\/v1\/tax_rates$/,
      template: 'POST /v1/tax_rates',
      handle: (p) =>
        put({
          id: newId('txr'),
          object: 'tax_rate',
          display_name: String(p.display_name ?? ''),
          percentage: Number(p.percentage),
          inclusive: p.inclusive === 'true',
          active: true,
        }),
    },
    {
      method: 'GET',
      pattern: /^\/v1\/subscriptions\/([^/]+)$/,
      template: 'GET /v1/subscriptions/:id',
      handle: (p, [id]) => core.expand(subscription(id!), (p.expand as string[] | undefined) ?? []),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/subscriptions\/([^/]+)$/,
      template: 'POST /v1/subscriptions/:id',
      handle: (p, [id]) => {
        const sub = subscription(id!);
        if (sub.status === 'canceled')
          core.fail('A canceled subscription can only update its cancellation_details and metadata.');
        const at = clocks.get(sub.id)!.now;
        if (p.payment_behavior === 'pending_if_incomplete') {
          const allowed = ['items', 'proration_behavior', 'payment_behavior', 'proration_date', 'expand'];
          const other = Object.keys(p).find((key) => !allowed.includes(key));
          if (other) core.fail(`Received unknown parameter: ${other} (not allowed with pending updates).`);
          if (declining.delete(sub.id)) {
            // The change's invoice failed: the subscription stays as it was, the change pending until it expires.
            sub.pending_update = { expires_at: at + DAY_SECONDS, subscription_items: p.items };
            return sub;
          }
        }
        if (p.metadata) sub.metadata = { ...(sub.metadata as Params), ...(p.metadata as Params) };
        if (p.items) {
          sub.pending_update = null;
          queued.push(...changePrice(sub, p));
        }
        const changed = p.cancel_at_period_end !== undefined || p.cancel_at !== undefined;
        if (changed && sub.schedule)
          core.fail(
            `The subscription is managed by the subscription schedule \`${String(sub.schedule)}\`, and updating any cancelation behavior directly is not allowed. Please update the schedule instead.`,
          );
        if (p.cancel_at_period_end !== undefined) {
          sub.cancel_at_period_end = p.cancel_at_period_end === 'true';
          sub.cancel_at = sub.cancel_at_period_end ? itemOf(sub).current_period_end : null;
          sub.canceled_at = sub.cancel_at_period_end ? at : null;
        }
        if (p.cancel_at !== undefined) sub.cancel_at = p.cancel_at === '' ? null : Number(p.cancel_at);
        if (changed || (p.metadata && !p.items)) queued.push(eventAt(at, 'customer.subscription.updated', sub));
        return sub;
      },
    },
    {
      method: 'DELETE',
      pattern: /^\/v1\/subscriptions\/([^/]+)\/discount$/,
      template: 'DELETE /v1/subscriptions/:id/discount',
      handle: (_p, [id]) => {
        const sub = subscription(id!);
        const [coupon] = (sub.discounts as string[] | undefined) ?? [];
        if (!coupon) core.fail(`No active discount for subscription: '${id}'`, 'resource_missing', 404);
        sub.discounts = [];
        return {
          id: newId('di'),
          object: 'discount',
          deleted: true,
          coupon: get(coupon!, 'coupon'),
          subscription: sub.id,
        };
      },
    },
    {
      method: 'DELETE',
      pattern: /^\/v1\/subscriptions\/([^/]+)$/,
      template: 'DELETE /v1/subscriptions/:id',
      handle: (_p, [id]) => {
        const sub = subscription(id!);
        if (sub.status === 'canceled') core.fail(`No such subscription: '${id}'`, 'resource_missing', 404);
        queued.push(...ended(sub, clocks.get(sub.id)!.now));
        return sub;
      },
    },
    {
      method: 'POST',
      pattern: /^\/v1\/invoices\/create_preview$/,
      template: 'POST /v1/invoices/create_preview',
      handle: (p) => previewChange(p),
    },
    {
      method: 'GET',
      pattern: /^\/v1\/invoices\/([^/]+)$/,
      template: 'GET /v1/invoices/:id',
      handle: (p, [id]) => {
        const invoice = core.expand(get(id!, 'invoice'), []);
        // `payments` is included only when asked for.
        if (((p.expand as string[] | undefined) ?? []).includes('payments'))
          invoice.payments = { object: 'list', has_more: false, data: invoices.get(id!) ?? [] };
        return invoice;
      },
    },
    {
      method: 'GET',
      pattern: /^\/v1\/payment_intents\/([^/]+)$/,
      template: 'GET /v1/payment_intents/:id',
      handle: (p, [id]) => core.expand(get(id!, 'payment intent'), (p.expand as string[] | undefined) ?? []),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/billing_portal\/sessions$/,
      template: 'POST /v1/billing_portal/sessions',
      handle: (p) => {
        const customer = get(String(p.customer ?? ''), 'customer');
        const flow = p.flow_data as { type?: string; after_completion?: Params } | undefined;
        if (flow && !['payment_method_update', 'subscription_cancel', 'subscription_update'].includes(flow.type ?? ''))
          core.fail('Invalid flow_data[type].', 'parameter_invalid_string');
        const id = newId('bps');
        return put({
          id,
          object: 'billing_portal.session',
          customer: customer.id,
          return_url: (p.return_url as string) ?? null,
          flow: flow ?? null,
          url: `https://billing.stripe.com/p/session/${id}`,
        });
      },
    },
  ];

  /** Checkout in subscription mode: one recurring line of inline price data, a trial and metadata for the subscription. */
  function createSession(p: Params): Obj {
    const [line] =
      (p.line_items as { price_data?: Params; quantity?: string; tax_rates?: string[] }[] | undefined) ?? [];
    const data = line?.price_data;
    if (!data?.product_data) core.fail('Missing required param: line_items[0][price_data][product_data].');
    const product = put({
      id: newId('prod'),
      object: 'product',
      name: String((data!.product_data as Params).name),
      active: true,
      metadata: {},
    });
    const price = recurringPrice(data!, product.id);
    const quantity = Number(line!.quantity ?? 1);
    const subscriptionData = (p.subscription_data ?? {}) as Params;
    const id = newId('cs_test');
    return put({
      id,
      object: 'checkout.session',
      mode: 'subscription',
      status: 'open',
      payment_status: 'unpaid',
      amount_subtotal: (price.unit_amount as number) * quantity,
      amount_total: (price.unit_amount as number) * quantity,
      currency: price.currency,
      customer: null,
      customer_email: (p.customer_email as string) ?? null,
      customer_details: null,
      client_reference_id: (p.client_reference_id as string) ?? null,
      metadata: p.metadata ?? {},
      subscription: null,
      payment_intent: null,
      line_items_spec: [{ price: price.id, quantity, tax_rates: line!.tax_rates ?? [] }],
      discounts: (p.discounts as { coupon: string }[] | undefined) ?? [],
      subscription_spec: {
        trial_period_days: subscriptionData.trial_period_days ? Number(subscriptionData.trial_period_days) : 0,
        metadata: subscriptionData.metadata ?? {},
      },
      success_url: p.success_url,
      cancel_url: p.cancel_url ?? null,
      expires_at: Math.floor(Date.now() / 1000) + DAY_SECONDS,
      url: `https://checkout.stripe.com/c/pay/${id}`,
    });
  }

  const billing: StandInBilling = {
    subscribe(sessionId) {
      const session = get(sessionId, 'checkout session');
      if (session.status !== 'open') throw new Error(`Checkout Session ${sessionId} is ${String(session.status)}.`);
      const now = Math.floor(Date.now() / 1000);
      const email = (session.customer_email as string | null) ?? 'subscriber@example.com';
      const customer = put({ id: newId('cus'), object: 'customer', email, name: null, metadata: {}, created: now });
      const [spec] = session.line_items_spec as { price: string; quantity: number; tax_rates: string[] }[];
      const { trial_period_days: trialDays, metadata } = session.subscription_spec as {
        trial_period_days: number;
        metadata: Params;
      };
      const price = get(spec!.price, 'price');
      const interval = (price.recurring as { interval: 'month' | 'year' }).interval;
      const anchor = trialDays ? now + trialDays * DAY_SECONDS : now;
      const end = trialDays ? anchor : toSeconds(nthPeriodEnd(fromSeconds(now), interval, 1));
      const sub = put({
        id: newId('sub'),
        object: 'subscription',
        status: trialDays ? 'trialing' : 'active',
        customer: customer.id,
        created: now,
        start_date: now,
        billing_cycle_anchor: anchor,
        cancel_at_period_end: false,
        cancel_at: null,
        canceled_at: null,
        ended_at: null,
        trial_start: trialDays ? now : null,
        trial_end: trialDays ? anchor : null,
        metadata: structuredClone(metadata),
        discounts: (session.discounts as { coupon: string }[]).map(({ coupon }) => coupon),
        latest_invoice: null,
        schedule: null,
        items: {
          object: 'list',
          has_more: false,
          data: [
            {
              id: newId('si'),
              object: 'subscription_item',
              price,
              quantity: spec!.quantity,
              tax_rates: spec!.tax_rates,
              current_period_start: now,
              current_period_end: end,
              metadata: {},
            },
          ],
        },
      });
      clocks.set(sub.id, { now, anchor });
      const invoice = invoiceFor(sub, 'subscription_create', [
        { amount: trialDays ? 0 : (price.unit_amount as number) * spec!.quantity, start: now, end },
      ]);
      const events = [
        eventAt(now, 'customer.created', customer),
        eventAt(now, 'customer.subscription.created', sub),
        eventAt(now, 'invoice.created', invoice),
        eventAt(now, 'invoice.finalized', invoice),
        ...attempt(sub, invoice, 'paid'),
      ];
      Object.assign(session, {
        status: 'complete',
        payment_status: trialDays ? 'no_payment_required' : 'paid',
        customer: customer.id,
        customer_details: { email, name: null, address: null, tax_exempt: 'none', tax_ids: [] },
        subscription: sub.id,
        invoice: invoice.id,
      });
      events.push(eventAt(now, 'checkout.session.completed', session));
      return { subscription: sub.id, events };
    },

    renew(subscriptionId, outcome) {
      const sub = subscription(subscriptionId);
      const clock = clocks.get(sub.id)!;
      const item = itemOf(sub);
      clock.now = Math.max(clock.now, item.current_period_end as number);
      const at = clock.now;
      if (sub.status === 'canceled') throw new Error(`Subscription ${sub.id} has ended.`);
      if (sub.cancel_at_period_end || (sub.cancel_at !== null && (sub.cancel_at as number) <= at))
        return ended(sub, at);
      // A schedule's next phase starts here (its price and interval), or its last one ended (released).
      const scheduled = enterNextPhase(sub, at);
      const period = nextPeriod(sub);
      Object.assign(item, { current_period_start: period.start, current_period_end: period.end });
      if (sub.status === 'trialing') sub.status = 'active';
      const invoice = invoiceFor(sub, 'subscription_cycle', [
        { amount: priceOf(sub).unit_amount * (item.quantity as number), ...period },
      ]);
      return [
        eventAt(at, 'invoice.created', invoice),
        eventAt(at, 'customer.subscription.updated', sub),
        ...scheduled,
        eventAt(at, 'invoice.finalized', invoice),
        ...attempt(sub, invoice, outcome),
      ];
    },

    retry(subscriptionId, outcome) {
      const sub = subscription(subscriptionId);
      const invoice = get(sub.latest_invoice as string, 'invoice');
      if (invoice.status !== 'open') throw new Error(`Invoice ${invoice.id} is ${String(invoice.status)}.`);
      const clock = clocks.get(sub.id)!;
      clock.now += DAY_SECONDS; // Smart Retries try again days later
      return attempt(sub, invoice, outcome);
    },

    advance(subscriptionId, seconds) {
      const clock = clocks.get(subscription(subscriptionId).id)!;
      clock.now += seconds;
    },

    end(subscriptionId) {
      const sub = subscription(subscriptionId);
      return ended(sub, clocks.get(sub.id)!.now);
    },

    takeEvents: () => queued.splice(0),

    declineNextChange(subscriptionId) {
      declining.add(subscription(subscriptionId).id);
    },

    subscriptionOf(sessionId) {
      const session = get(sessionId, 'checkout session');
      if (!session.subscription) throw new Error(`Checkout Session ${sessionId} made no subscription yet.`);
      return session.subscription as string;
    },
  };

  return { routes, billing, createSession };
}
