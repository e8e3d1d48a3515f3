import fc from 'fast-check';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import type { Db } from '../../api/src/db/connection';
import { createServices, type Services } from '../../api/src/services';
import { createCoupon, createCourse, createProduct, createRevenueSplit, makeUpgradable } from '../../seeds/factories';
import { testConfig, testDeps } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { sessionOfCheckout } from '../support/checkout';
import { manualClock } from '../support/clock';
import { periodEnd } from '../../api/src/payments/test-provider-subscriptions';
import { createTestDatabase } from '../support/db';
import { expectPayoutInvariants } from '../support/payout-invariants';
import { expectReconciled } from '../support/reconciliation-invariants';
import { expectTaxInvariants, reportedTaxDue } from '../support/tax-invariants';
import { taxRefunded } from '../../api/src/tax/amounts';
import { taxFrom, type TaxSetup } from '../../api/src/tax/engine';
import { chargedTotal, type BuyerTaxPlace, type TaxAnswer } from '../../api/src/tax/types';

/**
 * A model-based test of commerce (docs/domain.md §4–§9, §22, §23): random sequences of what people do (buy individually, as
 * a team, with a coupon, at the regional price, as an upgrade, as a guest with an owning email; add seats; take, revoke
 * and retake seats; reset invite links; offer, accept, cancel and outlive transfers; refund in part and in full; open,
 * win and lose disputes; ban; subscribe to a membership, renew it paid or failed, cancel it at its period's end and
 * resume it; buy a course in instalments, pay or miss one, ask to give away, upgrade from or cancel its plan; let time
 * pass, past a grace or a period's end) run against the real API on real PostgreSQL. A small model says what
 * should be true and which steps must be refused; after every step these invariants are checked:
 *
 *  1. people with access through a team ≤ the seats its live purchases paid for; the coupon counts them exactly
 *     (maxUses = seats bought by live purchases, usedCount = members), and the owner's quote counts those seats
 *     (existingSeats) for the team tier;
 *  2. for every upgrade, what was paid for the source (net of refunds) + the upgrade ≤ the target's price at that
 *     moment (checked when bought); a source is upgraded at most once, and a spent source is never given away;
 *  3. nobody holds two copies of one product that grant it (an individual purchase or a seat; a source spent on
 *     an upgrade of the same product aside);
 *  4. a limited coupon's usedCount = fulfilled uses + live reservations ≤ maxUses;
 *  5. no ledger line ever changes, and tax is never revenue (tests/support/tax-invariants.ts): a charge's split lines
 *     sum to its amount − tax − fee − (refunded − refunded tax) − open or lost disputes net of their tax share;
 *  6. every learner's access to each course's paid lesson (`/api/store/courses/…/lessons/…`) is the model's;
 *  7. a refused step leaves every commerce table unchanged (checksums), and a step the model expects to be
 *     refused is refused (and the other way round);
 *  8. tax (docs/domain.md §18): each run's school is established in Germany, on the EU OSS, registered in GB and
 *     in Washington, its prices including tax or not (drawn per run); each purchase bills a place drawn from PLACES.
 *     The model predicts the tax with the pure `taxFrom` on the quoted price after discounts: the quote, the checkout
 *     and the charge carry it, and what is charged is the quote's total. Every charge's tax is also recomputed from
 *     its rate apart from the code's arithmetic (BigInt, half up); every charge is its taxable amount + its tax, has
 *     one current invoice for its payer (a transfer or a seat changes no payer; payers correct their invoices)
 *     whose lines add up to its sums, credit notes that add up to what was refunded and give back the tax in
 *     proportion; a reverse charge names a VAT ID of the buyer's country; tax collected
 *     (charges − refunds) = tax reported (invoices − credit notes) = the tax report's net tax due; invoice and
 *     credit-note numbers run 1..n without gaps. After each sequence, everyone's invoices are what they paid for;
 *  9. payouts (docs/domain.md §19, lines payable once time has passed them): every recipient's balance agrees with the ledger
 *     and the payouts (paid + balance = earned − clawed back), no split line is covered by two payouts, each payout
 *     is exactly its lines, and right after a run nobody is left with a payable balance at the minimum; every
 *     balance transaction of the provider, imported, is matched to exactly one entry of the books, to the cent;
 * 10. memberships (docs/domain.md §22): each learner's subscriptions read as the model's (status at that moment, as
 *     time lapses or ends them; period's end; cancelled or not), and their courses open as it says (6: a
 *     whole-catalog membership opens a course nothing else sells); each provider invoice is one period, none twice,
 *     and each paid period one charge of the model's amount (the sale off its first, tax for the subscriber's place)
 *     with one invoice for its subscriber, its split lines checked as any charge's (5).
 * 11. payment plans (docs/domain.md §23): the planned course opens as the model says (from the first paid instalment,
 *     through a failed one's grace, closed at the lapse, open again once paid, for good once paid in full); each
 *     plan's list entry is the model's; its purchase has paid what was paid and is paid in full exactly when every
 *     instalment is; each paid instalment is one charge of the instalment with one invoice (split lines as in 5); the
 *     provider billed exactly the instalments paid, never more than the plan's; upgrading from and giving away its
 *     purchase are refused (payment-plan-not-paid) until paid in full, cancelling it always (payment-plan-not-cancelable).
 *
 * `npm run test:reliability` runs MODEL_RUNS (default 25) sequences of up to MODEL_STEPS (30) steps;
 * `npm run test:model -- --runs 500 --steps 40` runs more. A failure prints the shrunk sequence and the
 * `--seed`/`--path` that replay it.
 */

const RUNS = Number(process.env.MODEL_RUNS ?? 25);
const STEPS = Number(process.env.MODEL_STEPS ?? 30);
const SEED = process.env.MODEL_SEED ? Number(process.env.MODEL_SEED) : undefined;
const PATH = process.env.MODEL_PATH || undefined;

const DAY = 86_400_000;
/**
 * None, so that payout runs within a sequence pay lines: a line is payable once the model's clock has passed it (time
 * passes a day or more a step). The API tests hold the holding period.
 */
const PAYOUT_HOLD_DAYS = 0;
const PAYOUT_MINIMUM = testConfig().PAYOUT_MINIMUM_CENTS;
const USERS = 4;
const WORKSHOP_SEATS = 6;
const LIMITED_USES = 2;
/** The sale every product is on for the first three days of a run. */
const SALE_BP = 2000;
const SALE_DAYS = 3;
type ProductKey = 'basics' | 'pro' | 'workshop';
type CourseKey = 'main' | 'workshop' | 'extra' | 'planned';
const COURSES: readonly CourseKey[] = ['main', 'workshop', 'extra', 'planned'];
type Status = 'Valid' | 'Restricted' | 'Refunded' | 'Disputed' | 'Banned' | 'Revoked';
const GRANTS_COURSE: Record<ProductKey, CourseKey> = { basics: 'main', pro: 'main', workshop: 'workshop' };
const TABLES = [
  'invoices',
  'invoice_counters',
  'purchases',
  'coupons',
  'checkouts',
  'merchant_charges',
  'merchant_refunds',
  'split_lines',
  'purchase_user_transfers',
  'team_seat_revocations',
  'merchant_disputes',
  'subscriptions',
  'subscription_periods',
  'test_provider_subscription_invoices',
];

/**
 * Memberships (docs/domain.md §22): All access, monthly over the whole catalog (the extra course is sold by nothing
 * else), and a yearly one with a trial over the workshop's course only.
 */
type MembershipKey = 'allAccess' | 'workshopYearly';
type Interval = 'month' | 'year';
const MEMBERSHIPS = {
  allAccess: {
    interval: 'month',
    trialDays: 0,
    prices: { month: 2900, year: 29_000 },
    courses: ['main', 'workshop', 'extra', 'planned'],
  },
  workshopYearly: { interval: 'year', trialDays: 14, prices: { year: 19_900 }, courses: ['workshop'] },
} as const satisfies Record<
  MembershipKey,
  { interval: Interval; trialDays: number; prices: Partial<Record<Interval, number>>; courses: readonly CourseKey[] }
>;
const priceOf = (membership: MembershipKey, interval: Interval) =>
  (MEMBERSHIPS[membership].prices as Partial<Record<Interval, number>>)[interval];
const GRACE_DAYS = testConfig().SUBSCRIPTION_GRACE_DAYS;
type SubscriptionStatus = 'trialing' | 'active' | 'past_due' | 'canceled' | 'lapsed';

/**
 * Payment plans (docs/domain.md §23): the planned course, sold by nothing else, in three monthly instalments (no coupon
 * or tax on them; the running sale, as for any course, takes its percentage off the first instalment of a plan bought
 * while it runs), upgradable to a dearer course that the model only quotes.
 */
const PLAN = { instalments: 3, amount: 2500 } as const;
const TRANSFER_WINDOW_DAYS = testConfig().TRANSFER_WINDOW_DAYS;

/** Where buyers are billed: consumers, a business with a VAT ID of its own country, a taxing and a non-taxing US
 * state, and a country where the school is not registered. */
const PLACES = {
  'de-consumer': { country: 'DE', region: null, vatId: null },
  'fr-consumer': { country: 'FR', region: null, vatId: null },
  'fr-business': { country: 'FR', region: null, vatId: 'FR40303265045' },
  'us-wa': { country: 'US', region: 'WA', vatId: null },
  'us-ca': { country: 'US', region: 'CA', vatId: null },
  jp: { country: 'JP', region: null, vatId: null },
} satisfies Record<string, BuyerTaxPlace>;
type PlaceKey = keyof typeof PLACES;
const placeKey = fc.constantFrom(...(Object.keys(PLACES) as PlaceKey[]));

/**
 * The school's tax setup, as the model knows it (written to the database when a run starts): established in Germany,
 * on the EU OSS, registered in GB and Washington; California and Japan have rates but no registration.
 */
const modelTaxSetup = (inclusive: boolean): TaxSetup => ({
  seller: {
    country: 'DE',
    euOss: true,
    registrations: [
      { country: 'GB', region: null },
      { country: 'US', region: 'WA' },
    ],
  },
  taxId: 'DE123456789',
  inclusiveCurrencies: inclusive ? ['usd'] : [],
  rates: [
    { country: 'DE', region: null, rateBp: 1900, name: 'VAT' },
    { country: 'FR', region: null, rateBp: 2000, name: 'VAT' },
    { country: 'GB', region: null, rateBp: 2000, name: 'VAT' },
    { country: 'US', region: 'WA', rateBp: 650, name: 'Sales tax' },
    { country: 'US', region: 'CA', rateBp: 725, name: 'Sales tax' },
    { country: 'JP', region: null, rateBp: 1000, name: 'JCT' },
  ],
});

async function writeTaxSetup(db: Db, setup: TaxSetup) {
  await db('schoolSettings').update({
    taxCountry: setup.seller.country,
    taxId: setup.taxId,
    taxEuOss: setup.seller.euOss,
    taxInclusiveCurrencies: setup.inclusiveCurrencies,
  });
  await db('taxRegistrations').delete();
  await db('taxRegistrations').insert(setup.seller.registrations);
  await db('taxRates').delete();
  await db('taxRates').insert(setup.rates);
}

/** The quote's tax as the storefront reads it, from what the model predicts. */
const quotedTax = (answer: TaxAnswer | null) =>
  answer && {
    country: answer.country,
    region: answer.region,
    rate: answer.rate,
    amount: answer.amount,
    inclusive: answer.inclusive,
    reverseCharge: answer.reverseCharge,
    name: answer.name,
  };

// ---------------------------------------------------------------------------------------------------------------
// The model

interface MPurchase {
  id: string;
  /** Who holds it now (a transfer moves it). */
  user: number;
  /** Who paid for it: theirs for ever, its invoice too (null for a seat, which nobody paid for). */
  payer: number | null;
  product: ProductKey;
  kind: 'individual' | 'team' | 'seat';
  status: Status;
  /** Its status when bought: what a won dispute gives back. */
  boughtAs: Status;
  country: string;
  /** Team purchases: their coupon; seats: the coupon they were taken from. */
  coupon: string | null;
  /** Seats a team purchase bought. */
  seats: number;
  /** What was charged, the tax inside it. */
  charge: {
    id: string;
    identifier: string;
    amount: number;
    tax: number;
    taxInclusive: boolean | null;
    /** The total its quote said, before paying. */
    quoted: number;
  } | null;
  refunded: number;
  /** Its credit paid for an upgrade. */
  spent: boolean;
  upgradedFrom: string | null;
  transfer: {
    state: 'none' | 'INITIATED' | 'VERIFIED';
    id: string | null;
    recipient: number | null;
    expiresAt: number | null;
    ended: boolean;
  };
  disputes: { id: string; state: 'open' | 'won' | 'lost' }[];
}

interface MSubscription {
  /** Ours, as the learner's list answers it (the test provider renews by it too). */
  id: string;
  user: number;
  membership: MembershipKey;
  /** As stored: time alone turns it lapsed or canceled (statusNow). */
  status: SubscriptionStatus;
  /** Billed every month or year (a switch changes it). */
  interval: Interval;
  /** While a switch waits for the period's end (nothing was due): the interval the period was billed at. */
  waitingFrom: Interval | null;
  periodStart: number;
  periodEnd: number;
  /** When each of its periods began (a renewal the provider billed ahead begins one after the present). */
  periodStarts: number[];
  cancelAtPeriodEnd: boolean;
  graceUntil: number | null;
  /** Each provider invoice recorded, in order: one subscription period each. */
  periods: ('trial' | 'paid' | 'failed')[];
  /** Where the subscriber is billed: every period's tax follows it. */
  place: PlaceKey;
  /** Paid periods the running sale still takes its percentage off (its first one when subscribed during the sale). */
  discountLeft: number;
  /** What each paid period charges, in the order they were billed, the tax in it, and what finance refunded of it. */
  charges: { amount: number; tax: number; refunded: number }[];
}

/** A payment plan of the planned course: its subscription, billed monthly, ends with its last instalment. */
interface MPlan {
  /** Its subscription's id, as the learner's list answers it. */
  id: string;
  user: number;
  /** The course's purchase its first instalment opened. */
  purchaseId: string;
  status: SubscriptionStatus;
  periodStart: number;
  periodEnd: number;
  cancelAtPeriodEnd: boolean;
  graceUntil: number | null;
  /** Each instalment billed, in order. */
  periods: ('paid' | 'failed')[];
  /** Instalments the sale still takes its percentage off (its duration is once: the first, if bought during it). */
  discountLeft: number;
  /** What each paid instalment charged, in order. */
  charges: number[];
  /** When the last instalment was paid: the transfer window counts from then. */
  paidInFullAt: number | null;
}
const instalmentsPaid = (p: MPlan) => p.periods.filter((o) => o === 'paid').length;
/** What the plan's paid instalments charged: the purchase's total, and the credit an upgrade from it earns. */
const planPaid = (p: MPlan) => p.charges.reduce((sum, c) => sum + c, 0);

/** Records what `p`'s next paid instalment charges: the plan's amount, less the sale's (half up) while it is due. */
function payInstalment(p: MPlan) {
  const off = p.discountLeft > 0 ? Math.floor((PLAN.amount * SALE_BP + 5000) / 10_000) : 0;
  if (p.discountLeft > 0) p.discountLeft--;
  p.charges.push(PLAN.amount - off);
}

/**
 * What the next paid period of `s` charges: the price, less the sale's percentage (rounded half up) while it has periods
 * left, with tax as the school's setup says for the subscriber's place, inside the price or on top.
 */
function chargeOfNextPeriod(m: Model, s: MSubscription, price = priceOf(s.membership, s.interval)!, usesUp = true) {
  const base = price - (s.discountLeft > 0 ? Math.floor((price * SALE_BP + 5000) / 10_000) : 0);
  if (s.discountLeft > 0 && usesUp) s.discountLeft--;
  const inclusive = m.tax.inclusiveCurrencies.includes('usd');
  const predicted = taxFrom(m.tax, { currency: 'usd', amount: base, inclusive, buyer: PLACES[s.place] });
  s.charges.push({ amount: chargedTotal(base, predicted), tax: predicted?.amount ?? 0, refunded: 0 });
}

interface MTeam {
  coupon: string;
  owner: number;
  product: ProductKey;
  inviteCode: string;
  oldCodes: string[];
  revoked: Set<number>;
}

interface Model {
  /** This run's tax setup: the school's prices include tax, or tax comes on top. */
  tax: TaxSetup;
  purchases: MPurchase[];
  teams: MTeam[];
  now: number;
  /** When the sale ends. */
  saleEnds: number;
  disputes: number;
  subscriptions: MSubscription[];
  plans: MPlan[];
}

const live = (p: MPurchase) => p.status === 'Valid' || p.status === 'Restricted';
/** The model states the access rule itself (not imported), so a wrong rule in the code cannot agree with it. */
const MODEL_GRANTING: readonly Status[] = ['Valid', 'Restricted'];
const holding = (m: Model, user: number, product: ProductKey, statuses: readonly Status[] = MODEL_GRANTING) =>
  m.purchases.filter(
    (p) => p.user === user && p.product === product && p.kind !== 'team' && statuses.includes(p.status),
  );
const teamPurchases = (m: Model, coupon: string) => m.purchases.filter((p) => p.kind === 'team' && p.coupon === coupon);
const teamLive = (m: Model, coupon: string) => teamPurchases(m, coupon).some(live);
/** Seats a team holds: those its live purchases bought, and a disputed one's until the dispute ends. */
const holdsSeats = (p: MPurchase) => live(p) || p.status === 'Disputed';
const teamSeats = (m: Model, coupon: string) =>
  teamPurchases(m, coupon)
    .filter(holdsSeats)
    .reduce((n, p) => n + p.seats, 0);
const members = (m: Model, coupon: string) =>
  m.purchases.filter((p) => p.kind === 'seat' && p.coupon === coupon && live(p));
const liveTeamOf = (m: Model, user: number, product: ProductKey) =>
  m.teams.find((t) => t.owner === user && t.product === product && teamLive(m, t.coupon));
const seatsSold = (m: Model, product: ProductKey) =>
  m.purchases.filter((p) => p.product === product && p.kind === 'individual' && live(p)).length +
  m.teams.filter((t) => t.product === product && teamLive(m, t.coupon)).reduce((n, t) => n + teamSeats(m, t.coupon), 0);
/** A subscription's status at the model's time: past due after its grace is lapsed; cancelled, ended after its period. */
type Billed = Pick<MSubscription, 'status' | 'graceUntil' | 'cancelAtPeriodEnd' | 'periodEnd'>;
function statusNow(m: Model, s: Billed): SubscriptionStatus {
  if (s.status === 'past_due' && s.graceUntil! <= m.now) return 'lapsed';
  if ((s.status === 'trialing' || s.status === 'active') && s.cancelAtPeriodEnd && s.periodEnd <= m.now)
    return 'canceled';
  return s.status;
}
const opens = (m: Model, s: Billed) => ['trialing', 'active', 'past_due'].includes(statusNow(m, s));
const liveSubscription = (m: Model, user: number, membership: MembershipKey) =>
  m.subscriptions.find(
    (s) => s.user === user && s.membership === membership && !['canceled', 'lapsed'].includes(statusNow(m, s)),
  );
const entitled = (m: Model, user: number, course: CourseKey, country: string) =>
  m.purchases.some(
    (p) =>
      p.user === user &&
      p.kind !== 'team' &&
      GRANTS_COURSE[p.product] === course &&
      (p.status === 'Valid' || (p.status === 'Restricted' && p.country === country)),
  ) ||
  m.subscriptions.some(
    (s) =>
      s.user === user && (MEMBERSHIPS[s.membership].courses as readonly CourseKey[]).includes(course) && opens(m, s),
  ) ||
  // A plan's purchase opens its course once paid in full; until then its subscription does (through its grace).
  (course === 'planned' && m.plans.some((p) => p.user === user && (p.paidInFullAt !== null || opens(m, p))));
const transferable = (m: Model, p: MPurchase) =>
  p.kind === 'individual' &&
  p.status === 'Valid' &&
  !p.spent &&
  !p.transfer.ended &&
  p.transfer.expiresAt !== null &&
  m.now < p.transfer.expiresAt;

/** A purchase that ended takes its seats back: the whole team when it was its last live purchase, else its seats (latest members first). */
function endTeamPurchase(m: Model, p: MPurchase, status: Status) {
  if (p.kind !== 'team' || status === 'Disputed') return;
  const coupon = p.coupon!;
  const left = teamPurchases(m, coupon).filter((t) => t !== p && holdsSeats(t));
  const seated = members(m, coupon);
  if (left.length === 0) {
    for (const seat of seated) seat.status = status;
    return;
  }
  const remaining = left.reduce((n, t) => n + t.seats, 0);
  for (const seat of seated.slice(remaining)) seat.status = status; // seated is in joining order
}

function endAccess(m: Model, p: MPurchase, status: Status) {
  p.transfer = { ...p.transfer, state: 'none', recipient: null };
  endTeamPurchase(m, p, status);
}

// ---------------------------------------------------------------------------------------------------------------
// The system

interface World {
  db: Db;
  release(): Promise<void>;
  services: Services;
  app: ReturnType<ReturnType<typeof createApp>['callback']>;
  clock: ReturnType<typeof manualClock>;
  users: SignedIn[];
  support: SignedIn;
  admin: SignedIn;
  products: Record<ProductKey, { id: string }>;
  memberships: Record<MembershipKey, { id: string }>;
  /** The course sold in instalments and the one it upgrades to. */
  planned: { product: { id: string }; upgrade: { id: string } };
  lessons: Record<CourseKey, { course: string; lesson: string }>;
  accountId: string;
  splitSnapshot: Map<string, string>;
  /** How many invoices and credit notes the tax report was last read with. */
  documentsReported: number;
}

async function createWorld(tax: TaxSetup): Promise<World> {
  const database = await createTestDatabase();
  const db = database.db;
  const clock = manualClock(new Date());
  const deps = testDeps(db, {
    clock,
    config: testConfig({
      TRUST_PROXY: 'true',
      COUNTRY_HEADER: 'x-country',
      PAYOUT_HOLD_DAYS: String(PAYOUT_HOLD_DAYS),
    }),
  });
  const services = createServices(deps);
  const app = createApp(deps, { services }).callback();
  await writeTaxSetup(db, tax);
  services.tax.setup.forget();
  const basics = await createProduct(db, { name: 'Model Basics', unitAmount: 4900 });
  const pro = await createProduct(db, { name: 'Model Pro', unitAmount: 19_900 });
  const workshop = await createProduct(db, {
    name: 'Model Workshop',
    unitAmount: 10_000,
    quantityAvailable: WORKSHOP_SEATS,
  });
  await makeUpgradable(db, basics, pro);
  const memberships = {} as Record<MembershipKey, { id: string }>;
  for (const key of Object.keys(MEMBERSHIPS) as MembershipKey[]) {
    const terms = MEMBERSHIPS[key];
    memberships[key] = await createProduct(db, {
      name: `Model ${key}`,
      productType: 'membership',
      billingInterval: terms.interval,
      trialDays: terms.trialDays,
      grantsWholeCatalog: key === 'allAccess',
      unitAmount: priceOf(key, terms.interval),
      ...(key === 'allAccess' && { yearlyAmount: MEMBERSHIPS.allAccess.prices.year }),
    });
  }
  const planned = await createProduct(db, { name: 'Model Planned', unitAmount: 6900 });
  const plannedPro = await createProduct(db, { name: 'Model Planned Pro', unitAmount: 19_900 });
  await makeUpgradable(db, planned, plannedPro);
  await db('paymentPlans').insert({
    productId: planned.id,
    instalments: PLAN.instalments,
    instalmentAmount: PLAN.amount,
    currency: 'usd',
  });
  const owner = await signedIn(db, ['contributor']);
  for (const product of [basics, pro, workshop, planned, plannedPro, ...Object.values(memberships)]) {
    await createRevenueSplit(db, { productId: product.id, type: 'platform', percent: 0.1 });
    await createRevenueSplit(db, { productId: product.id, type: 'owner', percent: 0.9, userId: owner.user.id });
  }
  // A sale that ends three days in (time passes in the model) and a limited coupon.
  await createCoupon(db, {
    code: null,
    default: true,
    percentageDiscount: SALE_BP / 10_000,
    expires: new Date(clock.now().getTime() + SALE_DAYS * DAY),
  });
  await createCoupon(db, { code: 'LIMITED', percentageDiscount: 0.3, maxUses: LIMITED_USES });
  const lessonsOf = async (title: string, products: { id: string }[]) => {
    const built = await createCourse(
      db,
      {
        title,
        modules: [
          {
            title: 'One',
            sections: [
              {
                title: 'A',
                lessons: [
                  { title: 'Open', body: '<p>open</p>' },
                  { title: 'Paid', body: '<p>paid</p>' },
                ],
              },
            ],
          },
        ],
      },
      { products: products as never },
    );
    return { course: built.course.id, lesson: built.lessons[1]!.id };
  };
  const users = [];
  for (let i = 0; i < USERS; i++)
    users.push(await signedIn(db, ['learner'], `model-${i}-${Math.random().toString(36).slice(2, 8)}@example.com`));
  const support = await signedIn(db, ['support']);
  const admin = await signedIn(db, ['admin']);
  // Sessions last 30 days, and a membership's periods take the model's clock past that.
  await db('sessions').update({ expires: new Date(Date.UTC(2100, 0)) });
  return {
    db,
    release: database.release,
    services,
    app,
    clock,
    users,
    support,
    admin,
    products: { basics, pro, workshop },
    memberships,
    planned: { product: planned, upgrade: plannedPro },
    lessons: {
      main: await lessonsOf('Model Course', [basics, pro]),
      workshop: await lessonsOf('Model Workshop Course', [workshop, memberships.workshopYearly]),
      extra: await lessonsOf('Model Extra Course', []),
      planned: await lessonsOf('Model Planned Course', [planned, plannedPro]),
    },
    accountId: await services.payments.accountId(),
    splitSnapshot: new Map(),
    documentsReported: 0,
  };
}

const store = (
  w: World,
  who: SignedIn | undefined,
  method: 'get' | 'post' | 'put' | 'delete',
  path: string,
  body?: object,
  country = 'US',
) =>
  as(who, request(w.app)[method](`/api/store${path}`))
    .set('x-country', country)
    .send(body);
const staff = (w: World, who: SignedIn, path: string, body: object) =>
  as(who, request(w.app).post(`/api/admin${path}`)).send(body);

async function checksums(w: World): Promise<Record<string, string>> {
  const sums: Record<string, string> = {};
  for (const table of TABLES) {
    const { rows } = await w.db.raw(
      `SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS sum FROM ${table} t`,
    );
    sums[table] = rows[0].sum;
  }
  return sums;
}

/** Runs a step the model says must be refused: it is, with one of the codes, and nothing changes. */
async function refused(w: World, step: () => Promise<request.Response>, codes: string[]) {
  const before = await checksums(w);
  const answer = await step();
  expect(answer.status, JSON.stringify(answer.body)).toBeGreaterThanOrEqual(400);
  expect(answer.status).toBeLessThan(500);
  expect(codes).toContain(answer.body.code);
  expect(await checksums(w)).toEqual(before);
  return answer;
}

async function accepted(step: () => Promise<request.Response>) {
  const answer = await step();
  expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
  return answer;
}

async function readPurchase(w: World, id: string) {
  return w
    .db('purchases as p')
    .leftJoin('merchantCharges as c', 'c.id', 'p.merchantChargeId')
    .leftJoin('coupons as tc', 'tc.id', 'p.bulkCouponId')
    .where('p.id', id)
    .first(
      'p.*',
      'c.identifier as chargeIdentifier',
      'c.amount as chargeAmount',
      'c.taxAmount as chargeTax',
      'c.taxInclusive as chargeTaxInclusive',
      'tc.inviteCode as inviteCode',
    );
}

/** The purchase a settled checkout wrote, added to the model. */
async function recordPurchase(
  m: Model,
  w: World,
  user: number,
  product: ProductKey,
  purchaseId: string,
  quantity: number,
  quotedTotal: number,
): Promise<MPurchase> {
  const row = await readPurchase(w, purchaseId);
  const window = await w
    .db('purchaseUserTransfers')
    .where({ purchaseId, transferState: 'AVAILABLE' })
    .first('id', 'expiresAt');
  const p: MPurchase = {
    id: purchaseId,
    user,
    payer: row.merchantChargeId ? user : null,
    product,
    kind: row.bulkCouponId ? 'team' : 'individual',
    status: row.status,
    boughtAs: row.status,
    country: row.country,
    coupon: row.bulkCouponId,
    seats: row.bulkCouponId ? quantity : 1,
    charge: row.merchantChargeId
      ? {
          id: row.merchantChargeId,
          identifier: row.chargeIdentifier,
          amount: row.chargeAmount,
          tax: row.chargeTax,
          taxInclusive: row.chargeTaxInclusive,
          quoted: quotedTotal,
        }
      : null,
    refunded: 0,
    spent: false,
    upgradedFrom: row.upgradedFromId,
    transfer: {
      state: 'none',
      id: null,
      recipient: null,
      expiresAt: window ? new Date(window.expiresAt).getTime() : null,
      ended: false,
    },
    disputes: [],
  };
  m.purchases.push(p);
  if (p.kind === 'team' && !m.teams.some((t) => t.coupon === p.coupon)) {
    m.teams.push({
      coupon: p.coupon!,
      owner: user,
      product,
      inviteCode: row.inviteCode,
      oldCodes: [],
      revoked: new Set(),
    });
  }
  return p;
}

// ---------------------------------------------------------------------------------------------------------------
// Invariants, after every step

async function checkInvariants(m: Model, w: World) {
  const { db } = w;
  // 1. Teams: members ≤ seats paid for; the coupon counts exactly; the owner's quote counts the same seats.
  for (const team of m.teams) {
    const coupon = await db('coupons').where({ id: team.coupon }).first();
    const seated = await db('purchases').where({ redeemedBulkCouponId: team.coupon }).whereIn('status', MODEL_GRANTING);
    expect(seated.length).toBe(members(m, team.coupon).length);
    if (!teamLive(m, team.coupon)) {
      // Closed when no purchase holds seats any more; a disputed one keeps its members seated meanwhile.
      if (teamSeats(m, team.coupon) === 0) expect(seated).toHaveLength(0);
      continue;
    }
    expect(coupon.maxUses).toBe(teamSeats(m, team.coupon));
    expect(coupon.usedCount).toBe(seated.length);
    expect(seated.length).toBeLessThanOrEqual(coupon.maxUses);
    const quote = await store(
      w,
      w.users[team.owner],
      'get',
      `/products/${w.products[team.product].id}/quote?team=true&quantity=1`,
    );
    expect(quote.body.team).toEqual({ seats: teamSeats(m, team.coupon) + 1, existingSeats: teamSeats(m, team.coupon) });
  }
  // 2. A source is upgraded at most once, and a spent source has no open transfer.
  const upgrades = await db('purchases').whereNotNull('upgradedFromId').select('upgradedFromId');
  expect(new Set(upgrades.map((u) => u.upgradedFromId)).size).toBe(upgrades.length);
  const spentOffered = await db('purchaseUserTransfers as t')
    .whereIn('t.purchaseId', db('purchases').whereNotNull('upgradedFromId').select('upgradedFromId'))
    .whereIn('t.transferState', ['AVAILABLE', 'INITIATED', 'VERIFIED', 'CONFIRMED']);
  expect(spentOffered).toEqual([]);
  // 3. Nobody holds two copies of a product (a source spent on an upgrade of the same product aside, and a regional
  // copy a won dispute gave back after the product was bought again, which cannot be a seat: docs/domain.md §6.5).
  const doubles = await db('purchases as p')
    .whereIn('p.status', MODEL_GRANTING)
    .whereNull('p.bulkCouponId')
    .whereNotExists(db('purchases as u').whereRaw('u.upgraded_from_id = p.id'))
    .whereNot((q) =>
      q
        .where('p.status', 'Restricted')
        .whereExists(
          db('merchantDisputes as d').whereRaw('d.merchant_charge_id = p.merchant_charge_id').where('d.status', 'won'),
        ),
    )
    .groupBy('p.userId', 'p.productId')
    .havingRaw('count(*) > 1')
    .select('p.userId', 'p.productId');
  expect(doubles).toEqual([]);
  // 4. The limited coupon: used = fulfilled uses + live reservations ≤ maxUses.
  const limited = await db('coupons').where({ code: 'LIMITED' }).first();
  const uses = await db('checkouts')
    .where({ couponId: limited.id })
    .where((q) => q.where({ status: 'fulfilled' }).orWhere({ status: 'open', couponReserved: true }))
    .count({ n: '*' });
  expect(limited.usedCount).toBe(Number(uses[0]!.n));
  expect(limited.usedCount).toBeLessThanOrEqual(LIMITED_USES);
  // 5. The ledger: no line ever changes (its sums, net of tax, are checked with the tax below).
  const { rows: lines } = await db.raw(`SELECT id, md5(t::text) AS sum FROM split_lines t`);
  const now = new Map<string, string>(lines.map((l: { id: string; sum: string }) => [l.id, l.sum]));
  for (const [id, sum] of w.splitSnapshot) expect(now.get(id), `split line ${id}`).toBe(sum);
  w.splitSnapshot = now;
  // Every purchase the model knows has the model's status.
  const statuses = await db('purchases')
    .whereIn(
      'id',
      m.purchases.map((p) => p.id),
    )
    .select('id', 'status', 'userId');
  const byId = new Map(statuses.map((s) => [s.id, s]));
  for (const p of m.purchases) {
    expect(byId.get(p.id)?.status, `status of ${p.kind} ${p.id}`).toBe(p.status);
    expect(byId.get(p.id)?.userId, `owner of ${p.id}`).toBe(w.users[p.user]!.user.id);
  }
  // 9. Payouts agree with the ledger; no line is paid twice. What the provider says happened, imported, is each matched
  // to one entry of the books to the cent (docs/domain.md §20).
  await expectPayoutInvariants(db, await w.services.payouts.balances());
  await w.services.reconciliation.import({ from: new Date(0), to: new Date(Date.UTC(2100, 0)) });
  await expectReconciled(db);
  // 8. Tax: charges, invoices, credit notes and the ledger agree; the payer of each charge is who the model says paid.
  const charged = m.purchases.filter((p) => p.charge);
  const payers = new Map(charged.map((p) => [p.charge!.id, w.users[p.payer!]!.user.id] as const));
  for (const [chargeId, user] of await expectSubscriptionsAsModelled(m, w))
    payers.set(chargeId, w.users[user]!.user.id);
  const quotedTotals = new Map(charged.map((p) => [p.charge!.id, p.charge!.quoted] as const));
  const tax = await expectTaxInvariants(db, { payers, quotedTotals });
  // The report reads issued documents only, which never change: read again when one was issued.
  if (tax.documents !== w.documentsReported) {
    expect(await reportedTaxDue(w.app, w.admin), "the tax report's net tax due = tax collected").toEqual(tax.collected);
    w.documentsReported = tax.documents;
  }
  // 6. Access to each course's paid lesson is the model's, for every learner.
  for (const [user, who] of w.users.entries()) {
    for (const course of COURSES) {
      const { course: courseId, lesson } = w.lessons[course];
      const answer = await store(w, who, 'get', `/courses/${courseId}/lessons/${lesson}`);
      expect(answer.body.open, `user ${user} ${course}`).toBe(entitled(m, user, course, 'US'));
    }
  }
}

/**
 * 10. Memberships (docs/domain.md §22): each learner's subscriptions are the model's (status at this moment, period's
 * end, cancelled or not); each provider invoice is one period, never two; each paid period is one charge of the
 * membership's price, to its subscriber, with one invoice (its split lines are checked with the tax). Answers each
 * period's charge and who paid it.
 */
async function expectSubscriptionsAsModelled(m: Model, w: World): Promise<Map<string, number>> {
  for (const [user, who] of w.users.entries()) {
    const mine = m.subscriptions.filter((s) => s.user === user);
    const plans = m.plans.filter((p) => p.user === user);
    if (mine.length + plans.length === 0) continue;
    const listed = await store(w, who, 'get', '/subscriptions');
    const view = (s: {
      id: string;
      productId: string;
      status: string;
      currentPeriodEnd: string;
      cancelAtPeriodEnd: boolean;
    }) => ({
      id: s.id,
      productId: s.productId,
      status: s.status,
      currentPeriodEnd: s.currentPeriodEnd,
      cancelAtPeriodEnd: s.cancelAtPeriodEnd,
    });
    const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
    expect(listed.body.data.map(view).sort(byId), `user ${user}'s subscriptions`).toEqual(
      mine
        .map((s) => ({
          id: s.id,
          productId: w.memberships[s.membership].id,
          status: statusNow(m, s),
          currentPeriodEnd: new Date(s.periodEnd).toISOString(),
          cancelAtPeriodEnd: s.cancelAtPeriodEnd,
        }))
        .concat(
          plans.map((p) => ({
            id: p.id,
            productId: w.planned.product.id,
            status: statusNow(m, p),
            currentPeriodEnd: new Date(p.periodEnd).toISOString(),
            cancelAtPeriodEnd: p.cancelAtPeriodEnd,
          })),
        )
        .sort(byId),
    );
  }
  const periods: {
    subscriptionId: string;
    providerInvoiceIdentifier: string;
    outcome: string;
    periodStart: Date;
    createdAt: Date;
    merchantChargeId: string | null;
    invoiceId: string | null;
  }[] = await w.db('subscriptionPeriods').orderBy('createdAt').orderBy('periodStart');
  expect(new Set(periods.map((p) => p.providerInvoiceIdentifier)).size, 'a provider invoice recorded twice').toBe(
    periods.length,
  );
  const charges = new Map<string, number>();
  const expected = new Map<string, { amount: number; tax: number; refunded: number }>();
  for (const s of m.subscriptions) {
    const own = periods.filter((p) => p.subscriptionId === s.id);
    expect(own.map((p) => p.outcome).sort(), `periods of subscription ${s.id}`).toEqual([...s.periods].sort());
    const paid = own
      .filter((p) => p.outcome === 'paid')
      .sort((a, b) => new Date(a.createdAt).getTime() - new Date(b.createdAt).getTime());
    expect(new Set(paid.map((p) => new Date(p.periodStart).getTime())).size, 'a period paid twice').toBe(paid.length);
    paid.forEach((p, i) => {
      charges.set(p.merchantChargeId!, s.user);
      expected.set(p.merchantChargeId!, s.charges[i]!);
    });
    for (const p of own.filter((q) => q.outcome !== 'paid')) expect(p.merchantChargeId).toBeNull();
  }
  const planCharges = await expectPlansAsModelled(m, w, periods);
  const rows: {
    id: string;
    amount: number;
    refundAmount: number;
    taxAmount: number;
    productId: string;
  }[] = await w
    .db('merchantCharges as c')
    .join('merchantProducts as mp', 'mp.id', 'c.merchantProductId')
    .whereIn('c.id', [...charges.keys()])
    .select('c.id', 'c.amount', 'c.refundAmount', 'c.taxAmount', 'mp.productId');
  expect(rows).toHaveLength(charges.size);
  const membershipOf = new Map(Object.entries(w.memberships).map(([k, v]) => [v.id, k as MembershipKey]));
  for (const c of rows) {
    const key = membershipOf.get(c.productId);
    expect(key, `the product of period charge ${c.id}`).toBeDefined();
    expect(
      { amount: c.amount, tax: c.taxAmount, refunded: c.refundAmount },
      `the charge of a paid period of ${key}`,
    ).toEqual(expected.get(c.id));
  }
  const invoices = await w
    .db('invoices')
    .whereIn('merchantChargeId', [...charges.keys()])
    .where({ kind: 'invoice' })
    .whereNull('correctsId')
    .select('merchantChargeId');
  expect(invoices.map((i) => i.merchantChargeId).sort(), 'one invoice per paid period').toEqual(
    [...charges.keys()].sort(),
  );
  for (const [chargeId, user] of planCharges) charges.set(chargeId, user);
  return charges;
}

/**
 * Payment plans (docs/domain.md §23): each plan's instalments are the model's, each paid one a charge of the
 * instalment with no tax and one invoice for its learner (split lines checked with every charge's); the provider
 * billed exactly those paid, never more than the plan's; the course's purchase, Valid and its learner's, has paid what
 * they did and is paid in full exactly when every instalment is. Answers each instalment's charge and who paid it.
 */
async function expectPlansAsModelled(
  m: Model,
  w: World,
  periods: { subscriptionId: string; outcome: string; merchantChargeId: string | null }[],
): Promise<Map<string, number>> {
  const charges = new Map<string, number>();
  if (m.plans.length === 0) return charges;
  const ids = m.plans.map((p) => p.id);
  const [purchases, billed, rows] = await Promise.all([
    w.db('purchases').whereIn('paymentPlanSubscriptionId', ids),
    w
      .db('testProviderSubscriptionInvoices as i')
      .join('testProviderSubscriptions as s', 's.identifier', 'i.subscriptionIdentifier')
      .whereIn('s.reference', ids)
      .where('i.status', 'paid')
      .groupBy('s.reference')
      .select('s.reference', w.db.raw('count(*)::int AS n')),
    w
      .db('merchantCharges as c')
      .join('subscriptionPeriods as sp', 'sp.merchantChargeId', 'c.id')
      .whereIn('sp.subscriptionId', ids)
      .select('c.id', 'sp.subscriptionId', 'c.amount', 'c.taxAmount', 'c.refundAmount'),
  ]);
  const billedOf = new Map(billed.map((b: { reference: string; n: number }) => [b.reference, b.n]));
  for (const plan of m.plans) {
    const own = periods.filter((p) => p.subscriptionId === plan.id);
    expect(own.map((p) => p.outcome).sort(), `instalments of plan ${plan.id}`).toEqual([...plan.periods].sort());
    const paid = instalmentsPaid(plan);
    expect(paid).toBeLessThanOrEqual(PLAN.instalments);
    expect(billedOf.get(plan.id) ?? 0, `instalments the provider billed for plan ${plan.id}`).toBe(paid);
    for (const p of own) if (p.merchantChargeId) charges.set(p.merchantChargeId, plan.user);
    const purchase = purchases.find((p) => p.paymentPlanSubscriptionId === plan.id);
    expect(purchase, `the purchase of plan ${plan.id}`).toMatchObject({
      id: plan.purchaseId,
      userId: w.users[plan.user]!.user.id,
      productId: w.planned.product.id,
      status: 'Valid',
      totalAmount: planPaid(plan),
      paidInFull: paid === PLAN.instalments,
    });
  }
  expect(purchases).toHaveLength(m.plans.length);
  expect(rows.map((c) => c.id).sort(), 'one charge per paid instalment').toEqual([...charges.keys()].sort());
  for (const plan of m.plans) {
    const own = rows.filter((c) => c.subscriptionId === plan.id);
    expect(
      own.map((c) => c.amount).sort((a, b) => a - b),
      `what plan ${plan.id}'s instalments charged`,
    ).toEqual([...plan.charges].sort((a, b) => a - b));
    for (const c of own) expect({ tax: c.taxAmount, refunded: c.refundAmount }).toEqual({ tax: 0, refunded: 0 });
  }
  const invoices = await w
    .db('invoices')
    .whereIn('merchantChargeId', [...charges.keys()])
    .where({ kind: 'invoice' })
    .whereNull('correctsId')
    .select('merchantChargeId');
  expect(invoices.map((i) => i.merchantChargeId).sort(), 'one invoice per paid instalment').toEqual(
    [...charges.keys()].sort(),
  );
  return charges;
}

/**
 * After a sequence: each person's invoices (GET /api/store/invoices) are those of what they paid for, and whoever
 * holds a purchase someone else paid for (a transfer) cannot open its invoice.
 */
async function checkInvoicesOfPayers(m: Model, w: World) {
  for (const [user, who] of w.users.entries()) {
    const listed = await store(w, who, 'get', '/invoices');
    expect(listed.status).toBe(200);
    const paid = m.purchases.filter((p) => p.charge && p.payer === user).map((p) => p.charge!.id);
    const periods = [...m.subscriptions, ...m.plans].filter((s) => s.user === user).map((s) => s.id);
    paid.push(
      ...(
        await w
          .db('subscriptionPeriods')
          .whereIn('subscriptionId', periods)
          .whereNotNull('merchantChargeId')
          .select('merchantChargeId')
      ).map((p: { merchantChargeId: string }) => p.merchantChargeId),
    );
    const theirs: string[] = await w.db('invoices').whereIn('merchantChargeId', paid).pluck('id');
    expect(listed.body.data.map((d: { id: string }) => d.id).sort(), `user ${user}'s invoices`).toEqual(theirs.sort());
  }
  for (const p of m.purchases.filter((q) => q.charge && q.payer !== q.user)) {
    const invoice = await w.db('invoices').where({ merchantChargeId: p.charge!.id, kind: 'invoice' }).first('id');
    const answer = await store(w, w.users[p.user], 'get', `/invoices/${invoice.id}`);
    expect(answer.status, `the invoice of ${p.id}, paid by user ${p.payer}, asked by its holder`).toBe(404);
  }
}

/** What the runs sold, by how the tax fell: printed at the end, so a run that taxed nothing shows. */
const taxed = { inside: 0, onTop: 0, reverseCharge: 0, none: 0, creditNotes: 0, corrections: 0 };

async function countTaxed(w: World) {
  const charges = await w.db('merchantCharges').select('taxInclusive', 'taxReverseCharge', 'taxCountry');
  for (const c of charges) {
    if (c.taxReverseCharge) taxed.reverseCharge++;
    else if (c.taxCountry === null) taxed.none++;
    else if (c.taxInclusive) taxed.inside++;
    else taxed.onTop++;
  }
  taxed.creditNotes += Number((await w.db('invoices').where({ kind: 'credit-note' }).count({ n: '*' }))[0]!.n);
  taxed.corrections += Number((await w.db('invoices').whereNotNull('correctsId').count({ n: '*' }))[0]!.n);
}

// ---------------------------------------------------------------------------------------------------------------
// Commands

type Step = fc.AsyncCommand<Model, World>;
let stepsRun = 0;

function step(name: string, check: (m: Model) => boolean, run: (m: Model, w: World) => Promise<void>): Step {
  return {
    check,
    async run(m, w) {
      stepsRun++;
      try {
        await run(m, w);
        await checkInvariants(m, w);
      } catch (error) {
        // Which step broke, on top of what broke: the counterexample lists the whole sequence.
        if (error instanceof Error) error.message = `after ${name}: ${error.message}`;
        throw error;
      }
    },
    toString: () => name,
  };
}

const pick = <T>(items: T[], index: number): T | undefined => (items.length ? items[index % items.length] : undefined);

interface BuyChoice {
  user: number;
  product: ProductKey;
  quantity: number;
  team: boolean;
  coupon: boolean;
  ppp: boolean;
  place: PlaceKey;
}

/** The billing place as the quote's query parameters and as the checkout's `billing`. */
const placeQuery = (key: PlaceKey) => {
  const { country, region, vatId } = PLACES[key];
  return `&billingCountry=${country}${region ? `&region=${region}` : ''}${vatId ? `&vatId=${vatId}` : ''}`;
};
const billingOf = (key: PlaceKey) => {
  const { country, region, vatId } = PLACES[key];
  return { country, ...(region && { region }), ...(vatId && { vatId, company: 'Modèle SARL' }) };
};

/**
 * The tax the model predicts for a quote, with the pure engine on the quoted price after every discount (none on a
 * free one); the quote must say it, and its total must be what will be charged.
 */
function expectQuotedTax(
  m: Model,
  place: PlaceKey,
  body: { currency: string; quote: { finalPrice: number; total: number; tax: unknown } },
) {
  const q = body.quote;
  const inclusive = m.tax.inclusiveCurrencies.includes(body.currency);
  const predicted =
    q.finalPrice === 0
      ? null
      : taxFrom(m.tax, { currency: body.currency, amount: q.finalPrice, inclusive, buyer: PLACES[place] });
  expect(q.tax, `the quote's tax for ${place} on ${q.finalPrice}`).toEqual(quotedTax(predicted));
  expect(q.total, "the quote's total").toBe(chargedTotal(q.finalPrice, predicted));
  return { predicted, total: q.total };
}

/** The checkout and its charge carry the predicted tax, and charge the quote's total. */
async function expectChargedAsQuoted(
  w: World,
  checkoutId: string,
  { predicted, total }: ReturnType<typeof expectQuotedTax>,
) {
  const row = await w
    .db('checkouts as k')
    .leftJoin('purchases as p', 'p.id', 'k.purchaseId')
    .leftJoin('merchantCharges as c', 'c.id', 'p.merchantChargeId')
    .where('k.id', checkoutId)
    .first(
      'k.amountTotal',
      'k.taxAmount as quotedTax',
      'k.taxRateBp as quotedRate',
      'c.id as chargeId',
      'c.amount',
      'c.taxAmount',
      'c.taxCountry',
      'c.taxRegion',
      'c.taxRateBp',
      'c.taxInclusive',
      'c.taxReverseCharge',
    );
  expect({ total: row.amountTotal, tax: row.quotedTax, rate: row.quotedRate }, 'the checkout as quoted').toEqual({
    total,
    tax: predicted?.amount ?? 0,
    rate: predicted?.rate ?? null,
  });
  if (total === 0) return;
  expect(
    {
      amount: row.amount,
      tax: row.taxAmount,
      country: row.taxCountry,
      region: row.taxRegion,
      rate: row.taxRateBp,
      inclusive: row.taxInclusive,
      reverseCharge: row.taxReverseCharge,
    },
    'the charge as quoted',
  ).toEqual({
    amount: total,
    tax: predicted?.amount ?? 0,
    country: predicted?.country ?? null,
    region: predicted?.region ?? null,
    rate: predicted?.rate ?? null,
    inclusive: predicted?.inclusive ?? null,
    reverseCharge: predicted?.reverseCharge ?? false,
  });
}

/** What a source earns toward an upgrade: what was paid for it net of refunds, without tax added on top of its price. */
function paidNetOfRefunds(source: MPurchase): number {
  if (!source.charge) return 0;
  const { amount, tax, taxInclusive } = source.charge;
  if (taxInclusive !== false) return amount - source.refunded;
  return amount - tax - (source.refunded - taxRefunded(source.refunded, amount, tax));
}

/** Pays a checkout at the test provider (a free one was fulfilled when made) and settles it through the thank-you page. */
async function payAndSettle(w: World, checkoutId: string, free = false) {
  if (!free) await w.services.testProvider.pay(await sessionOfCheckout(w.db, checkoutId));
  const settled = await request(w.app).get(`/api/store/checkouts/${checkoutId}`);
  expect(settled.status).toBe(200);
  return settled.body as { status: string; purchaseId: string | null };
}

const buy = (c: BuyChoice) =>
  step(
    `buy(${JSON.stringify(c)})`,
    () => true,
    async (m, w) => {
      const who = w.users[c.user]!;
      const product = w.products[c.product];
      const country = c.ppp ? 'IN' : 'US';
      const query = `?quantity=${c.quantity}&team=${c.team}${c.coupon ? '&coupon=LIMITED' : ''}${c.ppp ? '&ppp=true' : ''}${placeQuery(c.place)}`;
      const quote = await store(w, who, 'get', `/products/${product.id}/quote${query}`, undefined, country);
      const body = {
        productId: product.id,
        quantity: c.quantity,
        team: c.team,
        ppp: c.ppp,
        ...(c.coupon && { coupon: 'LIMITED' }),
        billing: billingOf(c.place),
      };
      expect(quote.status, JSON.stringify(quote.body)).toBe(200);
      const quoted = expectQuotedTax(m, c.place, quote.body);
      const team = quote.body.team !== null;
      // Already having it as Valid makes another copy a seat to give away (docs/domain.md §5.5).
      expect(team).toBe(c.team || c.quantity > 1 || holding(m, c.user, c.product, ['Valid']).length > 0);
      const seats = team ? c.quantity : 1;
      const soldOut = c.product === 'workshop' && seatsSold(m, 'workshop') + seats > WORKSHOP_SEATS;
      const usedUp = quote.body.coupon?.problem === 'coupon-used-up';
      if (soldOut || usedUp) {
        await refused(w, () => store(w, who, 'post', '/checkout', body, country), [
          soldOut ? 'sold-out' : 'coupon-used-up',
          'coupon-used-up',
          'sold-out',
        ]);
        return;
      }
      const existing = liveTeamOf(m, c.user, c.product);
      const created = await accepted(() => store(w, who, 'post', '/checkout', body, country));
      const settled = await payAndSettle(w, created.body.checkoutId, quote.body.quote.free);
      expect(settled.status).toBe('fulfilled');
      await expectChargedAsQuoted(w, created.body.checkoutId, quoted);
      const p = await recordPurchase(m, w, c.user, c.product, settled.purchaseId!, c.quantity, quoted.total);
      expect(p.kind).toBe(team ? 'team' : 'individual');
      if (team) {
        // More seats join the buyer's live team; otherwise a new team.
        if (existing) expect(p.coupon).toBe(existing.coupon);
        else expect(m.teams.filter((t) => t.coupon === p.coupon)).toHaveLength(1);
        return;
      }
      // Upgrade credit: from an unspent source the buyer holds; source + upgrade ≤ the target's price that day.
      const sources = m.purchases.filter(
        (s) =>
          s.user === c.user &&
          s.kind === 'individual' &&
          live(s) &&
          !s.spent &&
          s !== p &&
          ((c.product === 'pro' && s.product === 'basics') || (s.product === c.product && s.status === 'Restricted')),
      );
      if (!sources.length) {
        expect(p.upgradedFrom).toBeNull();
        return;
      }
      const source = sources.find((s) => s.id === p.upgradedFrom);
      expect(source, 'upgraded from a source the buyer holds').toBeDefined();
      source!.spent = true;
      source!.transfer = { ...source!.transfer, state: 'none', recipient: null, ended: true };
      const q = quote.body.quote;
      const targetPrice = q.fullPrice - (q.discount ? Math.floor((q.fullPrice * q.discount.bp + 5000) / 10_000) : 0);
      // In the price's own terms: tax added on top of a price is no part of it, and earns no credit.
      expect(paidNetOfRefunds(source!) + q.finalPrice).toBeLessThanOrEqual(targetPrice);
      expect(p.charge?.amount ?? 0).toBe(q.total);
    },
  );

const guestBuy = (user: number, product: ProductKey, place: PlaceKey) =>
  step(
    `guestBuy(user ${user}, ${product}, ${place})`,
    () => true,
    async (m, w) => {
      const email = w.users[user]!.user.email;
      const body = { productId: w.products[product].id, quantity: 1, email, billing: billingOf(place) };
      const soldOut = product === 'workshop' && seatsSold(m, 'workshop') + 1 > WORKSHOP_SEATS;
      if (soldOut) {
        await refused(w, () => store(w, undefined, 'post', '/checkout', body), ['sold-out']);
        return;
      }
      if (holding(m, user, product).length > 0) {
        // Answered as for anyone (a guest cannot learn who owns what); this one leaves without paying.
        const started = await accepted(() => store(w, undefined, 'post', '/checkout', body));
        await w.services.testProvider.cancel(await sessionOfCheckout(w.db, started.body.checkoutId));
        await request(w.app).get(`/api/store/checkouts/${started.body.checkoutId}`);
        return;
      }
      const quote = await store(
        w,
        undefined,
        'get',
        `/products/${body.productId}/quote?quantity=1${placeQuery(place)}`,
      );
      const quoted = expectQuotedTax(m, place, quote.body);
      const created = await accepted(() => store(w, undefined, 'post', '/checkout', body));
      const settled = await payAndSettle(w, created.body.checkoutId);
      expect(settled.status).toBe('fulfilled');
      await expectChargedAsQuoted(w, created.body.checkoutId, quoted);
      const p = await recordPurchase(m, w, user, product, settled.purchaseId!, 1, quoted.total);
      expect(p.kind).toBe('individual');
    },
  );

/** A checkout with the limited coupon left unpaid (its use stays reserved), or started and canceled. */
const abandon = (user: number, cancel: boolean, place: PlaceKey) =>
  step(
    `abandonCheckout(user ${user}, ${cancel ? 'canceled' : 'left open'}, ${place})`,
    () => true,
    async (m, w) => {
      const answer = await store(w, w.users[user], 'post', '/checkout', {
        productId: w.products.basics.id,
        quantity: 1,
        team: true,
        coupon: 'LIMITED',
        billing: billingOf(place),
      });
      if (answer.status >= 400) {
        expect(['coupon-used-up']).toContain(answer.body.code);
        return;
      }
      if (cancel)
        await w.services.testProvider
          .cancel(await sessionOfCheckout(w.db, answer.body.checkoutId))
          .then(() => request(w.app).get(`/api/store/checkouts/${answer.body.checkoutId}`));
    },
  );

/** Billing details the tax cannot use: a US buyer without a state, or a VAT ID of another country. Nothing is written. */
const badBilling = (user: number, problem: 'no-state' | 'vat-id') =>
  step(
    `badBilling(user ${user}, ${problem})`,
    () => true,
    async (m, w) => {
      const billing = problem === 'no-state' ? { country: 'US' } : { country: 'FR', vatId: 'DE123456789' };
      const body = { productId: w.products.basics.id, quantity: 1, billing };
      await refused(w, () => store(w, w.users[user], 'post', '/checkout', body), [
        problem === 'no-state' ? 'billing-region-required' : 'vat-id-invalid',
      ]);
    },
  );

/**
 * The payer corrects the company and address on their invoice: a corrected invoice with a new number, the original
 * kept, the tax unchanged (the invariants count one current invoice). A superseded version, or someone else's (a
 * transferred purchase's holder), cannot be corrected.
 */
const correctInvoice = (purchaseIndex: number, superseded: boolean) =>
  step(
    `correctInvoice(purchase ${purchaseIndex}${superseded ? ', a superseded version' : ''})`,
    (m) => m.purchases.some((p) => p.charge),
    async (m, w) => {
      const p = pick(
        m.purchases.filter((q) => q.charge),
        purchaseIndex,
      )!;
      const versions: { id: string }[] = await w
        .db('invoices')
        .where({ merchantChargeId: p.charge!.id, kind: 'invoice' })
        .orderBy('sequence')
        .select('id');
      const payer = w.users[p.payer!]!;
      // A correction keeps the buyer's VAT ID (a reverse-charged invoice must name it).
      const latest = await w
        .db('invoices')
        .where({ id: versions.at(-1)!.id })
        .first('buyer');
      const body = {
        company: `Model Company ${versions.length}`,
        address: '1 Model Street',
        vatId: (latest.buyer as { vatId: string }).vatId,
      };
      const path = (id: string) => `/invoices/${id}/buyer`;
      if (p.user !== p.payer)
        await refused(w, () => store(w, w.users[p.user], 'put', path(versions.at(-1)!.id), body), ['not-found']);
      if (superseded) {
        if (versions.length > 1)
          await refused(w, () => store(w, payer, 'put', path(versions[0]!.id), body), ['invoice-not-latest']);
        return;
      }
      const answer = await accepted(() => store(w, payer, 'put', path(versions.at(-1)!.id), body));
      expect(answer.body.invoice.corrects?.id).toBe(versions.at(-1)!.id);
      expect(answer.body.invoice.buyer.company).toBe(body.company);
    },
  );

const takeSeat = (user: number, teamIndex: number) =>
  step(
    `takeSeat(user ${user}, team ${teamIndex})`,
    (m) => m.teams.length > 0,
    async (m, w) => {
      const team = pick(m.teams, teamIndex)!;
      const path = `/invites/${team.inviteCode}/redeem`;
      const ok =
        teamLive(m, team.coupon) &&
        !team.revoked.has(user) &&
        holding(m, user, team.product).length === 0 &&
        members(m, team.coupon).length < teamSeats(m, team.coupon);
      if (!ok) {
        await refused(w, () => store(w, w.users[user], 'post', path), [
          'coupon-inactive',
          'seat-revoked',
          'already-purchased',
          'coupon-used-up',
        ]);
        return;
      }
      const answer = await accepted(() => store(w, w.users[user], 'post', path));
      const row = await readPurchase(w, answer.body.purchaseId);
      m.purchases.push({
        id: row.id,
        user,
        payer: null,
        product: team.product,
        kind: 'seat',
        status: row.status,
        boughtAs: row.status,
        country: row.country,
        coupon: team.coupon,
        seats: 1,
        charge: null,
        refunded: 0,
        spent: false,
        upgradedFrom: null,
        transfer: { state: 'none', id: null, recipient: null, expiresAt: null, ended: true },
        disputes: [],
      });
    },
  );

const revoke = (teamIndex: number, memberIndex: number) =>
  step(
    `revokeSeat(team ${teamIndex}, member ${memberIndex})`,
    (m) => m.teams.length > 0,
    async (m, w) => {
      const team = pick(m.teams, teamIndex)!;
      const seat = pick(members(m, team.coupon), memberIndex);
      if (!seat) return;
      const teamId = teamPurchases(m, team.coupon)[0]!.id;
      await accepted(() => store(w, w.users[team.owner], 'delete', `/teams/${teamId}/members/${seat.id}`));
      // The seat stays, marked Revoked (the invariants check every known purchase's status).
      seat.status = 'Revoked';
      if (seat.user !== team.owner) team.revoked.add(seat.user);
    },
  );

const readmit = (teamIndex: number, user: number) =>
  step(
    `letBackIn(team ${teamIndex}, user ${user})`,
    (m) => m.teams.length > 0,
    async (m, w) => {
      const team = pick(m.teams, teamIndex)!;
      const teamId = teamPurchases(m, team.coupon)[0]!.id;
      const path = `/teams/${teamId}/revoked/${w.users[user]!.user.id}/readmit`;
      if (!team.revoked.has(user)) {
        await refused(w, () => store(w, w.users[team.owner], 'post', path), ['not-found']);
        return;
      }
      await accepted(() => store(w, w.users[team.owner], 'post', path));
      team.revoked.delete(user);
    },
  );

const resetInvite = (teamIndex: number) =>
  step(
    `resetInvite(team ${teamIndex})`,
    (m) => m.teams.length > 0,
    async (m, w) => {
      const team = pick(m.teams, teamIndex)!;
      const teamId = teamPurchases(m, team.coupon)[0]!.id;
      const answer = await accepted(() => store(w, w.users[team.owner], 'post', `/teams/${teamId}/invite/reset`));
      team.oldCodes.push(team.inviteCode);
      team.inviteCode = new URL(answer.body.inviteUrl).pathname.split('/').pop()!;
      expect(team.inviteCode).not.toBe(team.oldCodes.at(-1));
      await refused(
        w,
        () => store(w, w.users[(team.owner + 1) % USERS], 'post', `/invites/${team.oldCodes.at(-1)}/redeem`),
        ['coupon-not-found'],
      );
    },
  );

const offerTransfer = (purchaseIndex: number, recipient: number) =>
  step(
    `offerTransfer(purchase ${purchaseIndex}, to user ${recipient})`,
    (m) => m.purchases.length > 0,
    async (m, w) => {
      const p = pick(m.purchases, purchaseIndex)!;
      const path = `/purchases/${p.id}/transfer`;
      const body = { email: w.users[recipient]!.user.email };
      const ok =
        transferable(m, p) &&
        p.transfer.state === 'none' &&
        recipient !== p.user &&
        holding(m, recipient, p.product).length === 0;
      if (!ok) {
        await refused(w, () => store(w, w.users[p.user], 'post', path, body), [
          'transfer-not-available',
          'transfer-expired',
          'validation-failed',
          'already-purchased',
          'not-purchase-owner',
        ]);
        if (p.transfer.expiresAt !== null && m.now >= p.transfer.expiresAt) p.transfer.ended = true;
        return;
      }
      const answer = await accepted(() => store(w, w.users[p.user], 'post', path, body));
      p.transfer = { ...p.transfer, state: 'INITIATED', id: answer.body.data.id, recipient };
    },
  );

const acceptTransfer = (purchaseIndex: number) =>
  step(
    `acceptTransfer(purchase ${purchaseIndex})`,
    (m) => m.purchases.some((p) => p.transfer.state !== 'none'),
    async (m, w) => {
      const p = pick(
        m.purchases.filter((q) => q.transfer.state !== 'none'),
        purchaseIndex,
      )!;
      const recipient = p.transfer.recipient!;
      const who = w.users[recipient]!;
      const expired = m.now >= p.transfer.expiresAt!;
      if (expired || !transferable(m, p)) {
        await refused(w, () => store(w, who, 'post', `/transfers/${p.transfer.id}/verify`), [
          'transfer-expired',
          'transfer-not-available',
        ]);
        if (expired) p.transfer = { ...p.transfer, state: 'none', ended: true };
        return;
      }
      if (p.transfer.state === 'INITIATED')
        await accepted(() => store(w, who, 'post', `/transfers/${p.transfer.id}/verify`));
      p.transfer.state = 'VERIFIED';
      if (holding(m, recipient, p.product).length > 0) {
        await refused(w, () => store(w, who, 'post', `/transfers/${p.transfer.id}/accept`), ['already-purchased']);
        return;
      }
      await accepted(() => store(w, who, 'post', `/transfers/${p.transfer.id}/accept`));
      p.user = recipient;
      p.transfer = { ...p.transfer, state: 'none', recipient: null, ended: true };
    },
  );

const cancelTransfer = (purchaseIndex: number) =>
  step(
    `cancelTransfer(purchase ${purchaseIndex})`,
    (m) => m.purchases.some((p) => p.transfer.state !== 'none'),
    async (m, w) => {
      const p = pick(
        m.purchases.filter((q) => q.transfer.state !== 'none'),
        purchaseIndex,
      )!;
      const path = `/transfers/${p.transfer.id}/cancel`;
      if (m.now >= p.transfer.expiresAt!) {
        await refused(w, () => store(w, w.users[p.user], 'post', path), ['transfer-expired']);
        p.transfer = { ...p.transfer, state: 'none', ended: true };
        return;
      }
      await accepted(() => store(w, w.users[p.user], 'post', path));
      p.transfer = { ...p.transfer, state: 'none', recipient: null };
    },
  );

const refund = (purchaseIndex: number, full: boolean) =>
  step(
    `refund(purchase ${purchaseIndex}, ${full ? 'full' : 'half'})`,
    (m) => m.purchases.length > 0,
    async (m, w) => {
      const p = pick(m.purchases, purchaseIndex)!;
      const path = `/purchases/${p.id}/refund`;
      const upgrade = m.purchases.find((u) => u.upgradedFrom === p.id);
      const left = p.charge ? p.charge.amount - p.refunded : 0;
      const amount = full || left < 2 ? left : Math.floor(left / 2);
      if (!p.charge || left <= 0) {
        await refused(
          w,
          () => staff(w, w.support, path, { reasonCode: 'customer-request', reason: 'asked by the buyer' }),
          ['refund-not-possible', 'purchase-upgraded'],
        );
        return;
      }
      if (upgrade && upgrade.status !== 'Refunded') {
        await refused(
          w,
          () => staff(w, w.support, path, { reasonCode: 'customer-request', reason: 'asked by the buyer' }),
          ['purchase-upgraded'],
        );
        return;
      }
      await accepted(() =>
        staff(w, w.support, path, { amount, reasonCode: 'customer-request', reason: 'asked by the buyer' }),
      );
      p.refunded += amount;
      if (p.refunded === p.charge.amount && live(p)) {
        endAccess(m, p, 'Refunded');
        p.status = 'Refunded';
      }
    },
  );

const dispute = (purchaseIndex: number, outcome: 'open' | 'won' | 'lost') =>
  step(
    `dispute(purchase ${purchaseIndex}, ${outcome})`,
    (m) => m.purchases.some((p) => p.charge),
    async (m, w) => {
      const p = pick(
        m.purchases.filter((q) => q.charge),
        purchaseIndex,
      )!;
      const charge = p.charge!;
      if (outcome === 'open') {
        const id = `dp_model_${++m.disputes}`;
        await w.services.lifecycle.disputeOpened(w.accountId, {
          identifier: id,
          chargeIdentifier: charge.identifier,
          amount: charge.amount,
          reason: 'fraudulent',
        });
        p.disputes.push({ id, state: 'open' });
        if (live(p)) {
          endAccess(m, p, 'Disputed');
          p.status = 'Disputed';
        }
        return;
      }
      const open = p.disputes.find((d) => d.state === 'open');
      if (!open) return;
      await w.services.lifecycle.disputeClosed(w.accountId, {
        identifier: open.id,
        chargeIdentifier: charge.identifier,
        amount: charge.amount,
        reason: 'fraudulent',
        won: outcome === 'won',
      });
      open.state = outcome;
      if (outcome === 'won' && p.status === 'Disputed' && !p.disputes.some((d) => d.state === 'open')) {
        // Bought again meanwhile: a Valid individual copy comes back as a one-seat team to give away (§6.5).
        const later = holding(m, p.user, p.product).filter((q) => m.purchases.indexOf(q) > m.purchases.indexOf(p));
        const asSeat = p.kind === 'individual' && p.boughtAs === 'Valid' && later.length > 0;
        p.status = p.boughtAs;
        if (asSeat) {
          const row = await readPurchase(w, p.id);
          expect(row.bulkCouponId).toBeTruthy();
          p.kind = 'team';
          p.coupon = row.bulkCouponId;
          p.seats = 1;
          p.transfer = { state: 'none', id: null, recipient: null, expiresAt: null, ended: true };
          m.teams.push({
            coupon: row.bulkCouponId,
            owner: p.user,
            product: p.product,
            inviteCode: row.inviteCode,
            oldCodes: [],
            revoked: new Set(),
          });
        }
      }
    },
  );

const ban = (purchaseIndex: number) =>
  step(
    `ban(purchase ${purchaseIndex})`,
    (m) => m.purchases.length > 0,
    async (m, w) => {
      const p = pick(m.purchases, purchaseIndex)!;
      const path = `/purchases/${p.id}/ban`;
      if (!(live(p) || p.status === 'Disputed')) {
        await refused(w, () => staff(w, w.admin, path, { reason: 'abuse of the platform' }), [
          'status-change-not-allowed',
        ]);
        return;
      }
      await accepted(() => staff(w, w.admin, path, { reason: 'abuse of the platform' }));
      endAccess(m, p, 'Banned');
      p.status = 'Banned';
      // A banned member frees their seat and is kept out of the team as a removed member.
      if (p.kind === 'seat') m.teams.find((t) => t.coupon === p.coupon)!.revoked.add(p.user);
    },
  );

/** What the payout steps did across the sequences, printed at the end (a run that paid nobody proves little). */
const payoutsDone = { runs: 0, payouts: 0, markedPaid: 0 };

/** A payout run (as the monthly job or finance starts one): afterwards nobody payable at the minimum is left out. */
const payoutRun = () =>
  step(
    'payoutRun',
    () => true,
    async (_m, w) => {
      const answer = await accepted(() => staff(w, w.admin, '/payouts/run', {}));
      payoutsDone.runs++;
      payoutsDone.payouts += (answer.body.data as { created: number }).created;
      const left = (await w.services.payouts.balances()).filter((b) => b.payable >= PAYOUT_MINIMUM);
      expect(left, 'payable balances a run left out').toEqual([]);
    },
  );

/** Finance marks a pending payout paid (a bank transfer), then again with the same reference, which changes nothing. */
const markPayoutPaid = (payoutIndex: number) =>
  step(
    `markPayoutPaid(${payoutIndex})`,
    () => true,
    async (_m, w) => {
      const pending = await w.db('payouts').where({ status: 'pending' }).orderBy('createdAt').select('id');
      const payout = pick(pending, payoutIndex);
      if (!payout) return;
      payoutsDone.markedPaid++;
      for (let i = 0; i < 2; i++)
        await accepted(() => staff(w, w.admin, `/payouts/${payout.id}/mark-paid`, { reference: `BANK-${payout.id}` }));
    },
  );

/** What the membership steps did across the sequences, printed at the end (steps that were all refused prove little). */
const membershipsDone = {
  subscribed: 0,
  paid: 0,
  failed: 0,
  lapsed: 0,
  cancelled: 0,
  resumed: 0,
  ended: 0,
  refunded: 0,
  switched: 0,
  refused: 0,
};

/** The clock moves on to `to`: transfer offers and windows past their time end. */
async function passTime(m: Model, w: World, to: number) {
  w.clock.set(new Date(to));
  m.now = to;
  await w.services.transfers.expire();
  for (const p of m.purchases) {
    if (p.transfer.expiresAt !== null && m.now >= p.transfer.expiresAt)
      p.transfer = { ...p.transfer, state: 'none', recipient: null, ended: true };
  }
}

const timePasses = (days: number) =>
  step(
    `timePasses(${days} days)`,
    () => true,
    (m, w) => passTime(m, w, m.now + days * DAY),
  );

/**
 * A learner subscribes to a membership at the test provider's page (or leaves it without subscribing). A second
 * live subscription to the same membership is refused before the page opens.
 */
const subscribe = (user: number, membership: MembershipKey, yearly: boolean, place: PlaceKey, leave: boolean) =>
  step(
    `subscribe(user ${user}, ${membership}${yearly ? ' yearly' : ''}, ${place}${leave ? ', leaves the page' : ''})`,
    () => true,
    async (m, w) => {
      const who = w.users[user]!;
      const interval: Interval = yearly ? 'year' : MEMBERSHIPS[membership].interval;
      const body = {
        productId: w.memberships[membership].id,
        billing: billingOf(place),
        ...(yearly && { interval }),
      };
      if (liveSubscription(m, user, membership)) {
        await refused(w, () => store(w, who, 'post', '/subscriptions', body), ['already-subscribed']);
        membershipsDone.refused++;
        return;
      }
      const started = await accepted(() => store(w, who, 'post', '/subscriptions', body));
      const { pathname } = new URL(started.body.data.url);
      expect((await request(w.app).get(pathname)).status).toBe(200);
      // The learner's list shows their payment plans too.
      const known = new Set([...m.subscriptions, ...m.plans].map((s) => s.id));
      if (leave) {
        const left = await request(w.app).post(`${pathname}/cancel`);
        expect(left.status).toBe(303);
        expect(new URL(left.headers.location!).pathname).toMatch(/^\/products\//);
        return;
      }
      const paid = await request(w.app).post(`${pathname}/pay`);
      expect(paid.status).toBe(303);
      expect(new URL(paid.headers.location!).pathname).toBe('/learning');
      const listed: { id: string }[] = (await store(w, who, 'get', '/subscriptions')).body.data;
      const fresh = listed.filter((s) => !known.has(s.id));
      expect(fresh, 'the new subscription').toHaveLength(1);
      const terms = MEMBERSHIPS[membership];
      const trial = terms.trialDays > 0;
      const s: MSubscription = {
        id: fresh[0]!.id,
        user,
        membership,
        status: trial ? 'trialing' : 'active',
        interval,
        waitingFrom: null,
        periodStart: m.now,
        periodEnd: trial ? m.now + terms.trialDays * DAY : periodEnd(new Date(m.now), interval).getTime(),
        periodStarts: [m.now],
        cancelAtPeriodEnd: false,
        graceUntil: null,
        periods: [trial ? 'trial' : 'paid'],
        place,
        discountLeft: m.now < m.saleEnds ? 1 : 0,
        charges: [],
      };
      if (!trial) chargeOfNextPeriod(m, s);
      m.subscriptions.push(s);
      membershipsDone.subscribed++;
    },
  );

/**
 * The provider bills a subscription's next period, paid or failed (its webhook recorded). One cancelled at its
 * period's end does not renew. Paid: active for another period, whatever came before (a lapse too). Failed: past due,
 * its grace set by the first failure only.
 */
const renew = (subscriptionIndex: number, outcome: 'paid' | 'failed') =>
  step(
    `renew(subscription ${subscriptionIndex}, ${outcome})`,
    (m) => m.subscriptions.length > 0,
    async (m, w) => {
      const s = pick(m.subscriptions, subscriptionIndex)!;
      const renewal = () => request(w.app).post(`/test-provider/subscriptions/${s.id}/renew`).send({ outcome });
      if (s.cancelAtPeriodEnd || s.status === 'canceled') {
        await refused(w, renewal, ['subscription-not-renewable']);
        membershipsDone.refused++;
        return;
      }
      const answer = await accepted(renewal);
      membershipsDone[outcome]++;
      expect(answer.body.data.periodStart).toBe(new Date(s.periodEnd).toISOString());
      s.periods.push(outcome);
      s.periodStarts.push(s.periodEnd);
      if (outcome === 'paid') {
        chargeOfNextPeriod(m, s);
        s.status = 'active';
        s.periodStart = s.periodEnd;
        s.periodEnd = periodEnd(new Date(s.periodEnd), s.interval).getTime();
        s.graceUntil = null;
        s.waitingFrom = null;
      } else if (s.status !== 'past_due') {
        s.status = 'past_due';
        s.graceUntil = m.now + GRACE_DAYS * DAY;
      }
    },
  );

/**
 * The subscriber cancels at the period's end, or resumes: only while it is in force and its period has not ended;
 * asking for what already holds changes nothing; one past due is ended now. Someone else cannot.
 */
const changeSubscription = (subscriptionIndex: number, cancel: boolean, stranger: boolean) =>
  step(
    `${cancel ? 'cancel' : 'resume'}Subscription(subscription ${subscriptionIndex}${stranger ? ', by someone else' : ''})`,
    (m) => m.subscriptions.length > 0,
    async (m, w) => {
      const s = pick(m.subscriptions, subscriptionIndex)!;
      const path = `/subscriptions/${s.id}/${cancel ? 'cancel' : 'resume'}`;
      if (stranger) {
        await refused(w, () => store(w, w.users[(s.user + 1) % USERS], 'post', path), ['not-found']);
        return;
      }
      const who = w.users[s.user]!;
      if (!['trialing', 'active', 'past_due'].includes(statusNow(m, s))) {
        await refused(w, () => store(w, who, 'post', path), ['subscription-not-renewable']);
        membershipsDone.refused++;
        return;
      }
      if (s.cancelAtPeriodEnd === cancel) {
        await accepted(() => store(w, who, 'post', path));
        return;
      }
      // A renewal owed and cancelled: the retries stop and the provider ends it now, whatever its period's end.
      if (cancel && statusNow(m, s) === 'past_due') {
        const answer = await accepted(() => store(w, who, 'post', path));
        expect(answer.body.data).toMatchObject({ status: 'canceled', cancelAtPeriodEnd: true });
        Object.assign(s, { status: 'canceled', cancelAtPeriodEnd: true, graceUntil: null });
        if (s.waitingFrom) [s.interval, s.waitingFrom] = [s.waitingFrom, null];
        membershipsDone.cancelled++;
        return;
      }
      if (s.periodEnd <= m.now) {
        await refused(w, () => store(w, who, 'post', path), ['subscription-not-renewable']);
        membershipsDone.refused++;
        return;
      }
      const answer = await accepted(() => store(w, who, 'post', path));
      expect(answer.body.data.cancelAtPeriodEnd).toBe(cancel);
      s.cancelAtPeriodEnd = cancel;
      // Cancelling drops a switch waiting for that end: resumed, it renews at the interval billed.
      if (cancel && s.waitingFrom) [s.interval, s.waitingFrom] = [s.waitingFrom, null];
      membershipsDone[cancel ? 'cancelled' : 'resumed']++;
    },
  );

/**
 * The subscriber switches All access between monthly and yearly: the unused part of the period paid is credited
 * (rounded down), the new price less it charged now as a paid period starting now; when the credit covers it, or in a
 * trial, nothing is charged and the new price applies from the period's end. Refused while a payment is owed or once
 * it is ending; a membership with one interval offers no other.
 */
const switchInterval = (subscriptionIndex: number) =>
  step(
    `switchInterval(subscription ${subscriptionIndex})`,
    (m) => m.subscriptions.length > 0,
    async (m, w) => {
      const s = pick(m.subscriptions, subscriptionIndex)!;
      const to: Interval = s.interval === 'month' ? 'year' : 'month';
      const path = `/subscriptions/${s.id}/switch`;
      const who = w.users[s.user]!;
      const status = statusNow(m, s);
      const price = priceOf(s.membership, to);
      const refusal =
        status === 'past_due' || status === 'lapsed'
          ? 'subscription-past-due'
          : status === 'canceled' || s.cancelAtPeriodEnd
            ? 'subscription-ending'
            : price === undefined
              ? 'interval-not-offered'
              : null;
      if (refusal) {
        await refused(w, () => store(w, who, 'post', path, { interval: to }), [refusal]);
        membershipsDone.refused++;
        return;
      }
      // A switch comes a while after its period began: at the very instant a period began (the current one, or the
      // first when the provider billed the next ahead) its charge would start that period again, which a period's
      // uniqueness refuses ("renewed this very moment: try again").
      if (s.periodStarts.includes(m.now)) await passTime(m, w, m.now + 60_000);
      const answer = await accepted(() => store(w, who, 'post', path, { interval: to }));
      membershipsDone.switched++;
      // Back to the interval billed while a switch waits for the period's end: that switch is undone, nothing charged.
      if (s.waitingFrom === to && m.now < s.periodEnd) {
        expect(answer.body.data).toMatchObject({ interval: to, scheduledSwitch: null });
        [s.interval, s.waitingFrom] = [to, null];
        return;
      }
      const old = priceOf(s.membership, s.waitingFrom ?? s.interval)!;
      const length = s.periodEnd - s.periodStart;
      const unused = Math.max(0, Math.min(length, s.periodEnd - m.now));
      const credit = s.status === 'trialing' ? 0 : Math.floor((old * unused) / length);
      const due = price! - credit;
      if (s.status === 'trialing' || due <= 0) {
        // Nothing due now: the plan stays the one billed, the switch waiting for the period's end.
        expect(answer.body.data).toMatchObject({ interval: s.interval, scheduledSwitch: { interval: to } });
        [s.waitingFrom, s.interval] = [s.interval, to];
        return;
      }
      expect(answer.body.data.interval).toBe(to);
      [s.interval, s.waitingFrom] = [to, null];
      s.periods.push('paid');
      chargeOfNextPeriod(m, s, due, false);
      s.status = 'active';
      s.periodStart = m.now;
      s.periodStarts.push(m.now);
      s.periodEnd = periodEnd(new Date(m.now), to).getTime();
    },
  );

/**
 * Finance refunds a period of a subscription from the console, in full or half of what is left, with a reason: only
 * that period's charge gives money back (checked with every charge's), the courses stay open, unless the refund
 * ends the subscription now too. A trial or a failed renewal, or a period refunded in full, has nothing to refund.
 */
const refundPeriod = (subscriptionIndex: number, periodIndex: number, full: boolean, end: boolean) =>
  step(
    `refundPeriod(subscription ${subscriptionIndex}, period ${periodIndex}, ${full ? 'full' : 'half'}${end ? ', ending it' : ''})`,
    (m) => m.subscriptions.length > 0,
    async (m, w) => {
      const s = pick(m.subscriptions, subscriptionIndex)!;
      const periods: { id: string; outcome: string }[] = await w
        .db('subscriptionPeriods')
        .where({ subscriptionId: s.id })
        .orderBy('createdAt')
        .select('id', 'outcome');
      const period = pick(periods, periodIndex)!;
      const paidBefore = periods.slice(0, periods.indexOf(period)).filter((p) => p.outcome === 'paid').length;
      const charge = period.outcome === 'paid' ? s.charges[paidBefore]! : null;
      const left = charge ? charge.amount - charge.refunded : 0;
      const amount = full || left < 2 ? left : Math.floor(left / 2);
      const path = `/subscription-periods/${period.id}/refund`;
      const why = { reasonCode: 'customer-request', reason: 'asked by the subscriber', cancel: end };
      if (left <= 0) {
        await refused(w, () => staff(w, w.admin, path, why), ['refund-not-possible']);
        membershipsDone.refused++;
        return;
      }
      const answer = await accepted(() => staff(w, w.admin, path, { ...why, amount }));
      expect(answer.body.data.refund).toMatchObject({ amount, refundAmount: charge!.refunded + amount });
      charge!.refunded += amount;
      membershipsDone.refunded++;
      if (end && opens(m, s)) {
        s.status = 'canceled';
        s.graceUntil = null;
      }
      expect(answer.body.data.status).toBe(statusNow(m, s));
    },
  );

/** Time reaches the end of a past-due subscription's (or payment plan's) grace: it lapses, its courses close. */
const graceEnds = (subscriptionIndex: number) =>
  step(
    `graceEnds(subscription ${subscriptionIndex})`,
    (m) => [...m.subscriptions, ...m.plans].some((s) => statusNow(m, s) === 'past_due'),
    async (m, w) => {
      const s = pick(
        [...m.subscriptions, ...m.plans].filter((q) => statusNow(m, q) === 'past_due'),
        subscriptionIndex,
      )!;
      await passTime(m, w, s.graceUntil!);
      expect(statusNow(m, s)).toBe('lapsed');
      membershipsDone.lapsed++;
    },
  );

/**
 * Time reaches the end of a subscription's (or payment plan's) period: one cancelled at that end is over, its courses
 * closed (a plan paid in full ends so, its purchase opening the course).
 */
const periodEnds = (subscriptionIndex: number) =>
  step(
    `periodEnds(subscription ${subscriptionIndex})`,
    (m) => [...m.subscriptions, ...m.plans].some((s) => s.periodEnd > m.now),
    async (m, w) => {
      const s = pick(
        [...m.subscriptions, ...m.plans].filter((q) => q.periodEnd > m.now),
        subscriptionIndex,
      )!;
      await passTime(m, w, s.periodEnd);
      if (statusNow(m, s) === 'canceled') membershipsDone.ended++;
    },
  );

const plansDone = { bought: 0, paid: 0, failed: 0, paidInFull: 0, refused: 0, transferred: 0, upgradeQuoted: 0 };

/**
 * A learner buys the planned course in instalments at the test provider's page, paying the first there. Someone who
 * holds it already (a plan bought before, whatever its state: its purchase is theirs) is refused before the page opens.
 */
const buyPlan = (user: number) =>
  step(
    `buyPlan(user ${user})`,
    () => true,
    async (m, w) => {
      const who = w.users[user]!;
      const body = { productId: w.planned.product.id };
      if (m.plans.some((p) => p.user === user)) {
        await refused(w, () => store(w, who, 'post', '/payment-plans', body), ['already-purchased']);
        plansDone.refused++;
        return;
      }
      const started = await accepted(() => store(w, who, 'post', '/payment-plans', body));
      const { pathname } = new URL(started.body.data.url);
      expect((await request(w.app).post(`${pathname}/pay`)).status).toBe(303);
      const known = new Set(m.plans.map((p) => p.id));
      const listed: { id: string; kind: string }[] = (await store(w, who, 'get', '/subscriptions')).body.data;
      const fresh = listed.filter((s) => s.kind === 'payment-plan' && !known.has(s.id));
      expect(fresh, 'the new plan').toHaveLength(1);
      const purchase = await w.db('purchases').where({ paymentPlanSubscriptionId: fresh[0]!.id }).first('id');
      m.plans.push({
        id: fresh[0]!.id,
        user,
        purchaseId: purchase.id,
        status: 'active',
        periodStart: m.now,
        periodEnd: periodEnd(new Date(m.now), 'month').getTime(),
        cancelAtPeriodEnd: false,
        graceUntil: null,
        periods: ['paid'],
        discountLeft: m.now < m.saleEnds ? 1 : 0,
        charges: [],
        paidInFullAt: null,
      });
      payInstalment(m.plans.at(-1)!);
      plansDone.bought++;
    },
  );

/**
 * The provider bills a plan's next instalment, paid or failed, as a membership's renewal (grace from the first failure,
 * a payment after a lapse opens the course again). The last one paid, the plan ends with its period: the provider
 * bills nothing more.
 */
const instalment = (planIndex: number, outcome: 'paid' | 'failed') =>
  step(
    `instalment(plan ${planIndex}, ${outcome})`,
    (m) => m.plans.length > 0,
    async (m, w) => {
      const p = pick(m.plans, planIndex)!;
      const renewal = () => request(w.app).post(`/test-provider/subscriptions/${p.id}/renew`).send({ outcome });
      if (p.cancelAtPeriodEnd) {
        await refused(w, renewal, ['subscription-not-renewable']);
        plansDone.refused++;
        return;
      }
      const answer = await accepted(renewal);
      expect(answer.body.data.periodStart).toBe(new Date(p.periodEnd).toISOString());
      p.periods.push(outcome);
      plansDone[outcome]++;
      if (outcome === 'failed') {
        if (p.status !== 'past_due') {
          p.status = 'past_due';
          p.graceUntil = m.now + GRACE_DAYS * DAY;
        }
        return;
      }
      payInstalment(p);
      p.status = 'active';
      p.graceUntil = null;
      p.periodStart = p.periodEnd;
      p.periodEnd = periodEnd(new Date(p.periodEnd), 'month').getTime();
      if (instalmentsPaid(p) === PLAN.instalments) {
        p.cancelAtPeriodEnd = true;
        p.paidInFullAt = m.now;
        plansDone.paidInFull++;
      }
    },
  );

/**
 * The learner offers their plan's purchase to someone: refused until paid in full, then offered within the transfer
 * window counted from the last instalment (and withdrawn at once, the model keeping plans' purchases with their buyers).
 */
const planTransfer = (planIndex: number, recipient: number) =>
  step(
    `planTransfer(plan ${planIndex}, to user ${recipient})`,
    (m) => m.plans.length > 0,
    async (m, w) => {
      const p = pick(m.plans, planIndex)!;
      const who = w.users[p.user]!;
      const offer = () =>
        store(w, who, 'post', `/purchases/${p.purchaseId}/transfer`, { email: w.users[recipient]!.user.email });
      if (p.paidInFullAt === null) {
        await refused(w, offer, ['payment-plan-not-paid']);
        plansDone.refused++;
        return;
      }
      if (m.now >= p.paidInFullAt + TRANSFER_WINDOW_DAYS * DAY) {
        await refused(w, offer, ['transfer-expired', 'transfer-not-available']);
        return;
      }
      if (recipient === p.user || m.plans.some((q) => q.user === recipient)) {
        await refused(w, offer, ['validation-failed', 'already-purchased']);
        return;
      }
      const answer = await accepted(offer);
      expect(answer.body.data.state).toBe('INITIATED');
      await accepted(() => store(w, who, 'post', `/transfers/${answer.body.data.id}/cancel`));
      plansDone.transferred++;
    },
  );

/** The learner asks the price of the upgrade from their plan's purchase: refused until paid in full, then credited all of it. */
const planUpgrade = (planIndex: number) =>
  step(
    `planUpgrade(plan ${planIndex})`,
    (m) => m.plans.length > 0,
    async (m, w) => {
      const p = pick(m.plans, planIndex)!;
      const quote = () =>
        store(w, w.users[p.user], 'get', `/products/${w.planned.upgrade.id}/quote?upgradeFrom=${p.purchaseId}`);
      if (p.paidInFullAt === null) {
        await refused(w, quote, ['payment-plan-not-paid']);
        plansDone.refused++;
        return;
      }
      const answer = await accepted(quote);
      expect(answer.body.upgrade).toMatchObject({
        fromPurchaseId: p.purchaseId,
        credit: planPaid(p),
      });
      plansDone.upgradeQuoted++;
    },
  );

/** A plan is paid to its end: its learner cannot cancel it, whatever its state. */
const planCancel = (planIndex: number) =>
  step(
    `planCancel(plan ${planIndex})`,
    (m) => m.plans.length > 0,
    async (m, w) => {
      const p = pick(m.plans, planIndex)!;
      await refused(w, () => store(w, w.users[p.user], 'post', `/subscriptions/${p.id}/cancel`), [
        'payment-plan-not-cancelable',
      ]);
      plansDone.refused++;
    },
  );

const user = fc.integer({ min: 0, max: USERS - 1 });
/** Where subscribers are billed, a business reverse charged among them (its periods' invoices name its VAT ID). */
const subscriberPlace = fc.constantFrom<PlaceKey>('de-consumer', 'fr-consumer', 'fr-business', 'us-wa', 'us-ca', 'jp');
const index = fc.nat({ max: 40 });
const productKey = fc.constantFrom<ProductKey>('basics', 'pro', 'workshop');
const commands = [
  fc
    .record({
      user,
      product: productKey,
      quantity: fc.constantFrom(1, 1, 1, 2, 3, 5),
      team: fc.boolean(),
      coupon: fc.boolean(),
      ppp: fc.boolean(),
      place: placeKey,
    })
    .map(buy),
  fc
    .record({
      user,
      product: fc.constantFrom<ProductKey>('basics', 'pro'),
      quantity: fc.constant(1),
      team: fc.constant(false),
      coupon: fc.constant(false),
      ppp: fc.constant(false),
      place: placeKey,
    })
    .map(buy),
  fc.tuple(user, productKey, placeKey).map(([u, p, place]) => guestBuy(u, p, place)),
  fc.tuple(user, fc.boolean(), placeKey).map(([u, c, place]) => abandon(u, c, place)),
  fc.tuple(user, fc.constantFrom<'no-state' | 'vat-id'>('no-state', 'vat-id')).map(([u, p]) => badBilling(u, p)),
  fc.tuple(user, index).map(([u, t]) => takeSeat(u, t)),
  fc.tuple(user, index).map(([u, t]) => takeSeat(u, t)),
  fc.tuple(index, index).map(([t, s]) => revoke(t, s)),
  fc.tuple(index, user).map(([t, u]) => readmit(t, u)),
  index.map(resetInvite),
  fc.tuple(index, user).map(([p, u]) => offerTransfer(p, u)),
  index.map(acceptTransfer),
  index.map(cancelTransfer),
  fc.tuple(index, fc.boolean()).map(([p, full]) => refund(p, full)),
  fc
    .tuple(index, fc.constantFrom<'open' | 'won' | 'lost'>('open', 'open', 'won', 'lost'))
    .map(([p, o]) => dispute(p, o)),
  index.map(ban),
  fc.tuple(index, fc.boolean()).map(([p, superseded]) => correctInvoice(p, superseded)),
  fc.integer({ min: 1, max: 4 }).map(timePasses),
  fc
    .tuple(
      user,
      fc.constantFrom<MembershipKey>('allAccess', 'allAccess', 'workshopYearly'),
      fc.boolean(),
      subscriberPlace,
      fc.constantFrom(false, false, true),
    )
    .map(([u, k, yearly, place, leave]) => subscribe(u, k, yearly && k === 'allAccess', place, leave)),
  fc
    .tuple(
      user,
      fc.constantFrom<MembershipKey>('allAccess', 'allAccess', 'workshopYearly'),
      fc.boolean(),
      subscriberPlace,
      fc.constantFrom(false, false, true),
    )
    .map(([u, k, yearly, place, leave]) => subscribe(u, k, yearly && k === 'allAccess', place, leave)),
  fc.tuple(index, fc.constantFrom<'paid' | 'failed'>('paid', 'failed')).map(([s, o]) => renew(s, o)),
  fc.tuple(index, fc.constantFrom<'paid' | 'failed'>('paid', 'failed')).map(([s, o]) => renew(s, o)),
  fc
    .tuple(index, fc.boolean(), fc.constantFrom(false, false, false, true))
    .map(([s, cancel, stranger]) => changeSubscription(s, cancel, stranger)),
  index.map(graceEnds),
  index.map(switchInterval),
  fc
    .tuple(index, index, fc.boolean(), fc.constantFrom(false, false, true))
    .map(([s, p, full, end]) => refundPeriod(s, p, full, end)),
  index.map(periodEnds),
  user.map(buyPlan),
  fc.tuple(index, fc.constantFrom<'paid' | 'failed'>('paid', 'paid', 'failed')).map(([p, o]) => instalment(p, o)),
  fc.tuple(index, fc.constantFrom<'paid' | 'failed'>('paid', 'paid', 'failed')).map(([p, o]) => instalment(p, o)),
  fc.tuple(index, user).map(([p, u]) => planTransfer(p, u)),
  fc
    .tuple(index, fc.constantFrom('upgrade', 'upgrade', 'cancel'))
    .map(([p, what]) => (what === 'upgrade' ? planUpgrade(p) : planCancel(p))),
  fc.constant(null).map(payoutRun),
  fc.constant(null).map(payoutRun),
  index.map(markPayoutPaid),
];

describe('commerce, model-based (fast-check commands on the real API and PostgreSQL)', () => {
  it(
    `keeps money and access right through ${RUNS} random sequences of up to ${STEPS} steps`,
    async () => {
      let sequences = 0;
      await fc.assert(
        // A plain array rather than fc.commands: its length is drawn evenly, so sequences are long enough to combine.
        fc.asyncProperty(
          fc.array(fc.oneof(...commands), { minLength: Math.ceil(STEPS / 2), maxLength: STEPS }),
          fc.boolean(),
          async (cmds, inclusive) => {
            const tax = modelTaxSetup(inclusive);
            const world = await createWorld(tax);
            try {
              const model: Model = {
                tax,
                purchases: [],
                teams: [],
                now: world.clock.now().getTime(),
                saleEnds: world.clock.now().getTime() + SALE_DAYS * DAY,
                disputes: 0,
                subscriptions: [],
                plans: [],
              };
              await fc.asyncModelRun(() => ({ model, real: world }), cmds);
              await checkInvoicesOfPayers(model, world);
              await countTaxed(world);
              sequences++;
            } finally {
              await world.release();
            }
          },
        ),
        {
          numRuns: RUNS,
          ...(SEED !== undefined && { seed: SEED }),
          ...(PATH && { path: PATH, endOnFailure: true }),
        },
      );
      console.log(`commerce model: ${sequences} sequences, ${stepsRun} steps; charges by tax:`, taxed);
      console.log('payouts:', payoutsDone);
      console.log('memberships:', membershipsDone);
      console.log('payment plans:', plansDone);
    },
    60_000 + RUNS * STEPS * 1000,
  ); // about 7 steps a second; shrinking a failure takes longer
});
