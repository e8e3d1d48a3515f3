import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '../../api/src/audit/record';
import type { PayoutBalance } from '../../api/src/finance/payouts/schemas';
import { createServices, type Services } from '../../api/src/services';
import { createProduct, createUser } from '../../seeds/factories';
import { testDeps } from '../support/app';
import { boughtWithTestProvider } from '../support/checkout';
import { useTestDatabase } from '../support/db';
import { expectPayoutInvariants } from '../support/payout-invariants';

/**
 * Payout balances read whole months from the monthly rollup by recipient, the holding period's whole days from the
 * daily one, its first day's whole hours from the hourly one and only the lines of the hour it starts in from the
 * ledger (docs/domain.md §19). After seeded random runs of sales, refunds, lost and won disputes on days spread over
 * half a year (some a millisecond either side of a month's start, some minutes either side of the holding period's
 * start), payout runs, manual payouts marked paid, and the clock moved forwards and back (so the holding period ends
 * in other months, before or after the last run's), every balance equals the ledger and the payouts summed directly,
 * payable included.
 */

const DAY_MS = 86_400_000;
const SEEDS = [11, 29, 2026];
const CURRENCIES = ['usd', 'eur'] as const;
const SIGN = { sale: 1, refund: -1, dispute: -1, 'dispute-won': 1 } as const;

/** A line's time: days ago, either side of a month's start, or minutes from the holding period's start (its day). */
type When = { daysAgo: number } | { monthsAgo: number; edge: -1 | 0 } | { fromHoldStart: number };
type Step =
  | { kind: 'line'; recipient: number; currency: number; line: keyof typeof SIGN; amount: number; when: When }
  | { kind: 'run' }
  | { kind: 'mark-paid'; pick: number }
  | { kind: 'clock'; when: { daysAhead: number; minutes: number } | { monthsAgo: number; edge: -1 | 0 } };

const when: fc.Arbitrary<When> = fc.oneof(
  fc.record({ daysAgo: fc.integer({ min: 0, max: 180 }) }),
  fc.record({ monthsAgo: fc.integer({ min: 0, max: 5 }), edge: fc.constantFrom(-1 as const, 0 as const) }),
  // The hour the holding period starts in is read from the ledger, that day's later hours from the hourly rollup.
  fc.record({ fromHoldStart: fc.oneof(fc.integer({ min: -1440, max: 1440 }), fc.constantFrom(-1, 0, 1)) }),
);
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('line' as const),
      recipient: fc.nat(3),
      currency: fc.nat(1),
      line: fc.constantFrom('sale', 'sale', 'refund', 'dispute', 'dispute-won'),
      amount: fc.integer({ min: 1, max: 40_000 }),
      when,
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('run' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('mark-paid' as const), pick: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('clock' as const),
      when: fc.oneof(
        // Any time of day: the holding period's start falls in the first half of its hour (UTC) or the second, which read
        // its hour apart.
        fc.record({ daysAhead: fc.integer({ min: -20, max: 60 }), minutes: fc.integer({ min: -720, max: 720 }) }),
        fc.record({ monthsAgo: fc.integer({ min: -1, max: 3 }), edge: fc.constantFrom(-1 as const, 0 as const) }),
      ),
    }),
  },
);

/** The first instant of the UTC month `monthsAgo` before the present one, and `edge` milliseconds from it. */
const monthEdge = (monthsAgo: number, edge: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsAgo, 1) + edge);
};

describe('payout balances from the monthly rollup equal the ledger summed directly', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let services: Services;
  let holdDays = 0;
  let now = new Date();
  let chargeId = '';
  let productId = '';
  const recipients: string[] = [];

  beforeAll(async () => {
    const deps = testDeps(db(), { clock: { now: () => now } });
    holdDays = deps.config.PAYOUT_HOLD_DAYS;
    services = createServices(deps);
    const product = await createProduct(db(), { name: 'Balances Course', unitAmount: 5_000 });
    productId = product.id;
    const buyer = await createUser(db(), { email: 'balances.buyer@example.com' });
    const purchaseId = await boughtWithTestProvider(services, db(), { buyer, productId });
    chargeId = (await db()('purchases').where({ id: purchaseId }).first('merchantChargeId')).merchantChargeId;
    for (let i = 0; i < 4; i++)
      recipients.push((await createUser(db(), { email: `recipient-${i}@example.com`, name: `R${i}` })).id);
  });

  /** Each balance as the ledger, the covered lines and the payouts give it, one line and payout at a time. */
  async function direct(): Promise<Record<string, Omit<PayoutBalance, 'recipientName' | 'recipientEmail'>>> {
    const before = now.getTime() - holdDays * DAY_MS;
    const lines = (await db()('splitLines as l')
      .leftJoin('payoutLines as pl', 'pl.splitLineId', 'l.id')
      .whereNotNull('l.userId')
      .select('l.userId', 'l.currency', 'l.amount', 'l.createdAt', 'pl.payoutId')) as {
      userId: string;
      currency: string;
      amount: number;
      createdAt: Date;
      payoutId: string | null;
    }[];
    const payouts = (await db()('payouts').select('recipientId', 'currency', 'amount', 'status')) as {
      recipientId: string;
      currency: string;
      amount: string | number;
      status: string;
    }[];
    const out: Awaited<ReturnType<typeof direct>> = {};
    for (const l of lines) {
      const b = (out[`${l.userId} ${l.currency}`] ??= {
        recipientId: l.userId,
        currency: l.currency,
        earned: 0,
        clawedBack: 0,
        paid: 0,
        inPayouts: 0,
        balance: 0,
        payable: 0,
      });
      if (l.amount > 0) b.earned += l.amount;
      else b.clawedBack -= l.amount;
      b.balance += l.amount;
      if (!l.payoutId && (l.amount < 0 || l.createdAt.getTime() < before)) b.payable += l.amount;
    }
    for (const p of payouts) {
      const b = out[`${p.recipientId} ${p.currency}`]!;
      if (p.status === 'paid') {
        b.paid += Number(p.amount);
        b.balance -= Number(p.amount);
      } else b.inPayouts += Number(p.amount);
    }
    return out;
  }

  async function expectDirect(): Promise<void> {
    const read = await services.payouts.balances();
    const keyed = Object.fromEntries(
      read.map(({ recipientName: _n, recipientEmail: _e, ...b }) => [`${b.recipientId} ${b.currency}`, b]),
    );
    expect(keyed, `balances at ${now.toISOString()}`).toEqual(await direct());
    await expectPayoutInvariants(db(), read);
    // One recipient's alone (their earnings page) is their part of everyone's.
    for (const recipient of recipients)
      expect(await services.payouts.balances(recipient)).toEqual(read.filter((b) => b.recipientId === recipient));
  }

  async function apply(s: Step): Promise<void> {
    switch (s.kind) {
      case 'line': {
        const at =
          'daysAgo' in s.when
            ? new Date(Date.now() - s.when.daysAgo * DAY_MS)
            : 'fromHoldStart' in s.when
              ? new Date(now.getTime() - holdDays * DAY_MS + s.when.fromHoldStart * 60_000)
              : monthEdge(s.when.monthsAgo, s.when.edge);
        await db()('splitLines').insert({
          merchantChargeId: chargeId,
          productId,
          recipientType: 'owner',
          userId: recipients[s.recipient],
          kind: s.line,
          amount: SIGN[s.line] * s.amount,
          currency: CURRENCIES[s.currency],
          createdAt: at,
        });
        return;
      }
      case 'run':
        await services.payouts.run(SYSTEM_ACTOR, null);
        return;
      case 'mark-paid': {
        const pending = await db()('payouts').where({ status: 'pending' }).orderBy('id').pluck('id');
        if (pending.length === 0) return;
        const id = pending[s.pick % pending.length] as string;
        await services.payouts.markPaid(id, `BANK-${id.slice(0, 8)}`, SYSTEM_ACTOR, null);
        return;
      }
      case 'clock':
        // The holding period's end lands wherever the step says: days ahead, or either side of a month's start.
        now =
          'daysAhead' in s.when
            ? new Date(Date.now() + s.when.daysAhead * DAY_MS + s.when.minutes * 60_000)
            : new Date(monthEdge(s.when.monthsAgo, s.when.edge).getTime() + holdDays * DAY_MS);
        return;
    }
  }

  for (const seed of SEEDS)
    it(`holds after every step of a random run (seed ${seed})`, async () => {
      const [steps] = fc.sample(fc.array(step, { minLength: 40, maxLength: 40 }), { seed, numRuns: 1 });
      for (const s of steps!) {
        await apply(s);
        await expectDirect();
      }
      // Every kind of step ran at least once across the seeds' runs (checked on the last).
      if (seed === SEEDS.at(-1)) {
        expect(await db()('payouts').where({ status: 'paid' }).first('id')).toBeDefined();
        const months = await db()('financeMonthlyLedgerRecipients').countDistinct({ n: 'month' });
        expect(Number(months[0]!.n)).toBeGreaterThan(3);
      }
    });

  it('reads the hour the holding period starts in by its shorter part, in its first half and in its second', async () => {
    // Past every run so far (their clocks went at most 60 days ahead): no run covers the holding period's lines.
    const day = new Date(Date.now() + 90 * DAY_MS);
    expect(await db()('payoutRuns').where('earnedBefore', '>=', day).first('id')).toBeUndefined();
    for (const [hour, minute] of [
      [9, 10],
      [15, 50],
    ] as const) {
      // The holding period starts at `hour`:`minute` UTC that day: in the hour's first half its lines before then are
      // taken off the hour's rollup, in its second half its lines after then are added to the next hours'.
      const start = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), hour, minute);
      now = new Date(start + holdDays * DAY_MS);
      const toDayEnd = 24 * 60 - hour * 60 - minute;
      for (const minutes of [
        -(hour * 60 + minute),
        -61,
        -minute,
        -1,
        0,
        1,
        59 - minute,
        60 - minute,
        61,
        toDayEnd - 1,
        toDayEnd,
      ]) {
        await apply({
          kind: 'line',
          recipient: 0,
          currency: 0,
          line: 'sale',
          amount: 1_000 + minutes,
          when: { fromHoldStart: minutes },
        });
        await expectDirect();
      }
    }
  });

  it('counts a line moved out of its month by a correction (the append-only guard lifted) in its new month', async () => {
    // A line no payout covers: a payout is exactly its lines, which no correction may change.
    const [line] = await db()('splitLines as l')
      .leftJoin('payoutLines as pl', 'pl.splitLineId', 'l.id')
      .whereNotNull('l.userId')
      .whereNull('pl.payoutId')
      .orderBy('l.id')
      .limit(1)
      .select('l.id');
    await db().transaction(async (trx) => {
      await trx.raw('ALTER TABLE split_lines DISABLE TRIGGER split_lines_append_only');
      await trx('splitLines')
        .where({ id: line.id })
        .update({ createdAt: monthEdge(4, 5), amount: 123 });
      await trx.raw('ALTER TABLE split_lines ENABLE TRIGGER split_lines_append_only');
    });
    now = new Date(Date.now() + 30 * DAY_MS);
    await expectDirect();
  });
});
