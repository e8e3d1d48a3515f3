import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createProduct } from '../../seeds/factories';
import { testApp, testConfig } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { manualClock, onTheHour } from '../support/clock';
import { useTestDatabase } from '../support/db';
import { runSeeds } from '../../seeds/run';
import type { Product } from '../../api/src/catalog/models';

const DAY = 86_400_000;

interface Sub {
  id: string;
  status: string;
  updatedAt: Date;
}
interface Period {
  subscriptionId: string;
  outcome: string;
  periodStart: Date;
  periodEnd: Date;
  createdAt: Date;
  amount: number | null;
  taxAmount: number | null;
  currency: string | null;
}

/** A small deterministic random sequence (mulberry32), so a failure can be run again as it was. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The figures' definitions (docs/domain.md §22) computed directly over the rows, to hold the SQL to. */
function direct(subs: Sub[], periods: Period[], from: string, to: string, now: Date) {
  const ended = (s: Sub, t: number) => ['canceled', 'lapsed'].includes(s.status) && s.updatedAt.getTime() <= t;
  const covering = (s: Sub, outcome: string, t: number) =>
    periods.filter(
      (p) =>
        p.subscriptionId === s.id && p.outcome === outcome && p.periodStart.getTime() <= t && p.periodEnd.getTime() > t,
    );
  const active = (s: Sub, t: number) => !ended(s, t) && covering(s, 'paid', t).length > 0;
  const trialing = (s: Sub, t: number) =>
    !ended(s, t) && covering(s, 'trial', t).length > 0 && covering(s, 'paid', t).length === 0;
  const mrr = (t: number) => {
    const twelfths: Record<string, number> = {};
    for (const s of subs.filter((x) => !ended(x, t)))
      for (const p of covering(s, 'paid', t)) {
        const revenue = p.amount! - p.taxAmount!;
        const yearly = p.periodEnd.getTime() - p.periodStart.getTime() > 32 * DAY;
        twelfths[p.currency!] = (twelfths[p.currency!] ?? 0) + (yearly ? revenue : revenue * 12);
      }
    return Object.fromEntries(Object.entries(twelfths).map(([c, v]) => [c, Math.round(v / 12)]));
  };
  const start = Date.parse(`${from}T00:00:00Z`);
  const last = Date.parse(`${to}T00:00:00Z`);
  const end = Math.min(last + DAY, now.getTime());
  const days = [];
  for (let d = start; d <= last; d += DAY) {
    const at = Math.min(d + DAY, now.getTime());
    days.push({
      day: new Date(d).toISOString().slice(0, 10),
      active: subs.filter((s) => active(s, at)).length,
      trials: subs.filter((s) => trialing(s, at)).length,
      failedPayments: periods.filter(
        (p) => p.outcome === 'failed' && p.createdAt.getTime() >= d && p.createdAt.getTime() < d + DAY,
      ).length,
      mrr: mrr(at),
    });
  }
  const atStart = subs.filter((s) => active(s, start));
  const churned = atStart.filter((s) => !active(s, end) && !trialing(s, end)).length;
  return {
    mrr: Object.entries(mrr(end))
      .map(([currency, amount]) => ({ currency, amount }))
      .sort((a, b) => a.currency.localeCompare(b.currency)),
    activeSubscribers: subs.filter((s) => active(s, end)).length,
    trials: subs.filter((s) => trialing(s, end)).length,
    activeAtStart: atStart.length,
    churned,
    churnRate: atStart.length ? churned / atStart.length : null,
    failedPayments: periods.filter(
      (p) => p.outcome === 'failed' && p.createdAt.getTime() >= start && p.createdAt.getTime() < last + DAY,
    ).length,
    days,
  };
}

describe('recurring revenue on the Finance page', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  // Sessions are made at the real time and last 30 days: the clock stays within them.
  const begin = onTheHour();
  const clock = manualClock(begin);
  let app: ReturnType<typeof testApp>;
  let memberships: Product[];
  let finance: SignedIn;
  let support: SignedIn;

  beforeAll(async () => {
    await runSeeds(db(), { demo: false });
    app = testApp(db(), { clock, config: testConfig() });
    memberships = [
      await createProduct(db(), {
        name: 'Monthly',
        productType: 'membership',
        billingInterval: 'month',
        unitAmount: 2900,
      }),
      await createProduct(db(), {
        name: 'Yearly',
        productType: 'membership',
        billingInterval: 'year',
        unitAmount: 19900,
      }),
      await createProduct(db(), {
        name: 'Monthly in euros with a trial',
        productType: 'membership',
        billingInterval: 'month',
        trialDays: 10,
        unitAmount: 2500,
        currency: 'eur',
      }),
    ];
    finance = await signedIn(db(), ['finance']);
    support = await signedIn(db(), ['support']);
  });

  async function subscribe(product: Product): Promise<string> {
    const learner = await signedIn(db());
    const started = await as(learner, request(app).post('/api/store/subscriptions')).send({ productId: product.id });
    expect(started.status).toBe(201);
    const { pathname } = new URL(started.body.data.url);
    expect((await request(app).post(`${pathname}/pay`)).status).toBe(303);
    return (await as(learner, request(app).get('/api/store/subscriptions'))).body.data[0].id;
  }

  const rows = async () => {
    const subs = (await db()('subscriptions').select('id', 'status', 'updatedAt')) as Sub[];
    const periods = (await db()('subscriptionPeriods as p')
      .leftJoin('merchantCharges as c', 'c.id', 'p.merchantChargeId')
      .select(
        'p.subscriptionId',
        'p.outcome',
        'p.periodStart',
        'p.periodEnd',
        'p.createdAt',
        'c.amount',
        'c.taxAmount',
        'c.currency',
      )) as Period[];
    return { subs, periods };
  };
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

  it('answers MRR, subscribers, trials, churn and failed payments as the rows say, after random subscribes, renewals, failures and cancels', async () => {
    const next = random(20261203);
    const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)]!;
    const ids: string[] = [];
    for (let step = 0; step < 40; step++) {
      clock.advance(Math.floor(next() * 14) * 3_600_000);
      const roll = next();
      if (ids.length < 3 || roll < 0.3) ids.push(await subscribe(pick(memberships)));
      else if (roll < 0.55)
        await request(app)
          .post(`/test-provider/subscriptions/${pick(ids)}/renew`)
          .send({ outcome: 'paid' });
      else if (roll < 0.75)
        await request(app)
          .post(`/test-provider/subscriptions/${pick(ids)}/renew`)
          .send({ outcome: 'failed' });
      else
        await as(support, request(app).post(`/api/admin/subscriptions/${pick(ids)}/cancel`)).send({
          when: roll < 0.88 ? 'now' : 'period-end',
          reason: 'figures test',
        });
    }
    const { subs, periods } = await rows();
    expect(periods.some((p) => p.outcome === 'failed')).toBe(true);
    expect(subs.some((s) => s.status === 'canceled')).toBe(true);

    const now = clock.now().getTime();
    for (const [from, to] of [
      [begin.getTime() - DAY, now],
      [begin.getTime() + 2 * DAY, now + 20 * DAY],
      [now - 3 * DAY, now + 300 * DAY],
      [begin.getTime(), begin.getTime()],
    ] as const) {
      const answer = await as(finance, request(app).get('/api/admin/finance/subscriptions')).query({
        from: day(from),
        to: day(to),
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body, `${day(from)} to ${day(to)}`).toMatchObject(
        direct(subs, periods, day(from), day(to), clock.now()),
      );
    }
    const today = await as(finance, request(app).get('/api/admin/finance/subscriptions')).query({
      from: day(begin.getTime()),
      to: day(now),
    });
    expect(today.body.activeSubscribers).toBeGreaterThan(0);
    expect(today.body.mrr.length).toBeGreaterThan(0);
  });

  it('counts a yearly subscription a twelfth a month, a trial apart, and is for finance only', async () => {
    const yearly = await subscribe(memberships[1]!);
    const trial = await subscribe(memberships[2]!);
    const mine = (await rows()).periods.filter((p) => [yearly, trial].includes(p.subscriptionId));
    expect(mine.map((p) => p.outcome).sort()).toEqual(['paid', 'trial']);
    const at = day(clock.now().getTime());
    const answer = await as(finance, request(app).get('/api/admin/finance/subscriptions')).query({ from: at, to: at });
    const { subs, periods } = await rows();
    const without = direct(
      subs.filter((s) => s.id !== yearly),
      periods,
      at,
      at,
      clock.now(),
    );
    const usd = (list: { currency: string; amount: number }[]) => list.find((m) => m.currency === 'usd')?.amount ?? 0;
    // 19900 a year: 1658.33 a month, rounded once with the others.
    expect(Math.abs(usd(answer.body.mrr) - usd(without.mrr) - 19900 / 12)).toBeLessThan(1);
    expect(answer.body.trials).toBe(without.trials);
    const refused = await as(support, request(app).get('/api/admin/finance/subscriptions')).query({ from: at, to: at });
    expect(refused.status).toBe(403);
    const backwards = await as(finance, request(app).get('/api/admin/finance/subscriptions')).query({
      from: at,
      to: '2000-01-01',
    });
    expect(backwards.status).toBe(400);
  });
});
