import { coursesOfProducts } from '../catalog/service';
import type { QuoteService } from '../commerce/checkout/quotes';
import type { Db } from '../db/connection';
import { AppError } from '../shared/errors';
import type { User } from '../identity/models';
import { recurringPricing } from './recurring';
import { releasePlan } from '../learning/drip/release-plan';
import { readerZone } from '../learning/drip/schedule';
import type { RecurringQuery, ScenarioInput, ScenarioOutcome, Simulation, SimulateQuery } from './schemas';
import type { Clock } from '../clock';
import type { Config } from '../config';

/**
 * The console's pricing simulator: the storefront's quote, priced by the same `QuoteService.quote` checkout uses,
 * for any product, country, coupon, quantity and customer (their upgrade credit and seats already bought count), and
 * what the purchase would grant. Nothing is written and no coupon lookup is counted against anyone.
 */
export function pricingSimulator({
  db,
  clock,
  config,
  quotes,
}: {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'DEFAULT_COUNTRY'>;
  quotes: QuoteService;
}) {
  async function simulate(q: SimulateQuery): Promise<Simulation> {
    const customer: User | undefined | null = q.userId ? await db('users').where({ id: q.userId }).first() : null;
    if (q.userId && !customer) throw new AppError('not-found', 'No such customer.');
    const preview = await quotes.quote({
      productId: q.productId,
      quantity: q.quantity,
      forTeam: q.team,
      couponCode: q.coupon,
      country: q.country ?? null,
      pppRequested: q.ppp,
      upgradeFromId: q.upgradeFrom,
      buyer: customer ?? null,
    });
    const courses = (await coursesOfProducts(db, [q.productId])).get(q.productId) ?? [];
    const { quote } = preview;
    // Bought now: what its courses release later, in the customer's zone (UTC for a visitor).
    const now = clock.now();
    const reader = { start: now, timeZone: await readerZone(db, customer?.id ?? null) };
    const releases = await releasePlan(
      db,
      courses.map((c) => c.id),
      reader,
      now,
    );
    return {
      releases,
      quote: preview,
      grants: {
        courses: courses.map((c) => ({ id: c.id, title: c.title })),
        access: preview.team ? 'seats' : quote.restricted ? 'restricted' : 'full',
        free: quote.free,
        seats: preview.team ? preview.team.seats - preview.team.existingSeats : null,
        restrictedTo: quote.restricted ? preview.country : null,
        spends: preview.upgrade?.fromPurchaseId ?? null,
      },
      customer: customer ? { id: customer.id, email: customer.email } : null,
    };
  }

  /** A scenario's stable handles → the simulator's query; an unknown handle is a clear 404. */
  async function queryOf(input: ScenarioInput): Promise<SimulateQuery> {
    const product = await db('products').where({ key: input.productKey }).first('id');
    if (!product) throw new AppError('not-found', `No product has the key "${input.productKey}".`);
    const customer = input.customerEmail ? await db('users').where({ email: input.customerEmail }).first('id') : null;
    if (input.customerEmail && !customer)
      throw new AppError('not-found', `No customer has the email ${input.customerEmail}.`);
    let upgradeFrom: string | undefined;
    if (input.upgradeFromProductKey) {
      const source = await db('purchases as p')
        .join('products as pr', 'pr.id', 'p.productId')
        .where({ 'pr.key': input.upgradeFromProductKey, 'p.userId': customer?.id ?? null })
        .orderBy('p.createdAt', 'desc')
        .first('p.id');
      if (!source)
        throw new AppError('not-found', `${input.customerEmail} has no purchase of "${input.upgradeFromProductKey}".`);
      upgradeFrom = source.id;
    }
    return {
      productId: product.id,
      userId: customer?.id,
      upgradeFrom,
      country: input.country ?? undefined,
      ppp: input.ppp,
      coupon: input.coupon ?? undefined,
      quantity: input.quantity,
      team: input.team,
    };
  }

  /** A simulator query → the scenario's stable handles (what is saved). */
  async function inputOf(q: SimulateQuery): Promise<ScenarioInput> {
    const product = await db('products').where({ id: q.productId }).first('key');
    if (!product) throw new AppError('not-found', 'No such product.');
    if (!product.key)
      throw new AppError('validation-failed', 'Give the product a key first: scenarios name products by their key.', {
        productId: 'has no key',
      });
    const customer = q.userId ? await db('users').where({ id: q.userId }).first('email') : null;
    if (q.userId && !customer) throw new AppError('not-found', 'No such customer.');
    const source = q.upgradeFrom
      ? await db('purchases as p')
          .join('products as pr', 'pr.id', 'p.productId')
          .where('p.id', q.upgradeFrom)
          .first('pr.key')
      : null;
    return {
      productKey: product.key,
      customerEmail: customer?.email ?? null,
      upgradeFromProductKey: source?.key ?? null,
      country: q.country ?? null,
      ppp: q.ppp,
      coupon: q.coupon ?? null,
      quantity: q.quantity,
      team: q.team,
    };
  }

  return {
    simulate,
    /**
     * How the product is paid over time beside its one-time price: a membership's periods, a payment plan, priced for
     * that customer, country, regional price and coupon as subscribing or buying the plan would price them.
     */
    async recurring(q: RecurringQuery) {
      const customer = q.userId ? await db('users').where({ id: q.userId }).first('id', 'email') : null;
      if (q.userId && !customer) throw new AppError('not-found', 'No such customer.');
      return recurringPricing(db, q.productId, {
        country: q.country ?? config.DEFAULT_COUNTRY,
        ppp: q.ppp,
        coupon: q.coupon,
        buyer: customer ?? null,
        now: clock.now(),
      });
    },
    queryOf,
    inputOf,
    /** What a scenario pins down of a simulation (no database ids: it must replay on another database). */
    outcomeOf(simulation: Simulation): ScenarioOutcome {
      const { quote } = simulation;
      const { discount, ...prices } = quote.quote;
      const { couponId: _, ...applied } = discount ?? { couponId: undefined };
      return {
        currency: quote.currency,
        quote: { ...prices, discount: discount ? (applied as ScenarioOutcome['quote']['discount']) : null },
        couponProblem: quote.coupon?.problem ?? null,
        teamSeats: quote.team?.seats ?? null,
        upgradeCredit: quote.upgrade?.credit ?? null,
      };
    },
  };
}

export type PricingSimulator = ReturnType<typeof pricingSimulator>;
