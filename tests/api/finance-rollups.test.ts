import fc from 'fast-check';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { forgetProgress, writeProgress } from '../../api/src/learning/queries';
import { createServices, type Services } from '../../api/src/services';
import { createCourse, createProduct, createRevenueSplit, createUser } from '../../seeds/factories';
import { testDeps } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { boughtWithTestProvider } from '../support/checkout';
import { useTestDatabase } from '../support/db';
import {
  directFinanceDashboard,
  directFinanceSummary,
  directSupportDashboard,
  ROLLUP_CHECKS,
} from '../support/direct-figures';
import type { Product, User } from '../support/models';

/**
 * The dashboard and the finance summary read daily rollups kept by triggers on the ledger's tables. After a seeded
 * random run of what moves money (sales, full and partial refunds, disputes opened, won and lost, comps, account
 * deletion, in dollars and yen, through the real services) and of what only a correction or an import does (rows
 * written on past days in bulk, purchases and charges corrected or removed, ledger lines corrected with the
 * append-only guard lifted), every rollup equals a GROUP BY of its table, and every answer equals the same figures
 * summed straight from the ledger, for several periods.
 */

const DAY_MS = 86_400_000;
/** A seed whose run has every kind of step, disputes opened before some close and purchases moved and removed. */
const SEED = 83;

/** Every run starts with something to refund, dispute and correct: a sale of each product and a past import. */
const OPENING: Step[] = [
  { kind: 'buy', product: 0, buyer: 1, quantity: 1 },
  { kind: 'buy', product: 1, buyer: 2, quantity: 2 },
  { kind: 'buy', product: 2, buyer: 3, quantity: 1 },
  { kind: 'import', daysAgo: 364, count: 3, product: 0, refundAfter: 1 },
];

/** And ends with each correction the random part may have missed: progress forgotten, a line and a purchase removed. */
const CLOSING: Step[] = [
  { kind: 'progress', learner: 2, lesson: 2, completed: true },
  { kind: 'progress', learner: 2, lesson: 0, completed: true },
  { kind: 'forget', learner: 2, lesson: 0 },
  { kind: 'correct-ledger', pick: 1, how: 'delete' },
  { kind: 'correct-purchase', pick: 0, how: 'delete' },
];

type Step =
  | { kind: 'buy'; product: number; buyer: number; quantity: 1 | 2 }
  | { kind: 'refund'; pick: number; percent: number | null }
  | { kind: 'open-dispute'; pick: number; percent: number }
  | { kind: 'close-dispute'; pick: number; won: boolean }
  | { kind: 'comp'; product: number; learner: number }
  | { kind: 'import'; daysAgo: number; count: number; product: number; refundAfter: number | null }
  | { kind: 'correct-purchase'; pick: number; how: 'move' | 'free' | 'delete' }
  | { kind: 'correct-charge'; pick: number; fee: number }
  | { kind: 'correct-ledger'; pick: number; how: 'amount' | 'delete' }
  | { kind: 'progress'; learner: number; lesson: number; completed: boolean }
  | { kind: 'forget'; learner: number; lesson: number }
  | { kind: 'old-progress'; learner: number; lesson: number; daysAgo: number }
  | { kind: 'delete-account'; buyer: number };

const pick = fc.nat(1000);
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('buy'),
      product: fc.nat(2),
      buyer: fc.nat(4),
      quantity: fc.constantFrom(1, 2),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('refund'), pick, percent: fc.option(fc.integer({ min: 5, max: 60 })) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('open-dispute'), pick, percent: fc.integer({ min: 10, max: 100 }) }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('close-dispute'), pick, won: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('comp'), product: fc.nat(2), learner: fc.nat(3) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('import'),
      daysAgo: fc.integer({ min: 1, max: 400 }),
      count: fc.integer({ min: 1, max: 3 }),
      product: fc.nat(2),
      refundAfter: fc.option(fc.integer({ min: 0, max: 40 })),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('correct-purchase'),
      pick,
      how: fc.constantFrom('move', 'free', 'delete'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('correct-charge'), pick, fee: fc.integer({ min: 1, max: 90 }) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('correct-ledger'), pick, how: fc.constantFrom('amount', 'delete') }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('progress'),
      learner: fc.nat(3),
      lesson: fc.nat(2),
      completed: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('forget'), learner: fc.nat(3), lesson: fc.nat(2) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('old-progress'),
      learner: fc.nat(3),
      lesson: fc.nat(2),
      daysAgo: fc.integer({ min: 1, max: 60 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete-account'), buyer: fc.nat(4) }) },
) as fc.Arbitrary<Step>;

const dayOf = (date: Date) => date.toISOString().slice(0, 10);
const at = <T>(list: T[], n: number): T | undefined => (list.length ? list[n % list.length] : undefined);

/**
 * Periods whose partly covered months are read as the whole month less a day outside (the fewer days): a dashboard
 * from a month's second day, a summary from a month's second day to another's last but one. Sales are imported on
 * the days they leave out, so reading those months whole without taking the days away would show.
 */
function monthEdges(now: Date) {
  const weekAgo = new Date(now.getTime() - 7 * DAY_MS);
  const secondOfMonth = Date.UTC(weekAgo.getUTCFullYear(), weekAgo.getUTCMonth(), 2);
  const today = Date.parse(dayOf(now));
  const summaryFrom = `${dayOf(new Date(secondOfMonth - 150 * DAY_MS)).slice(0, 8)}02`;
  const summaryTo = dayOf(new Date(secondOfMonth - 3 * DAY_MS));
  const daysAgo = (day: number) => Math.round((today - day) / DAY_MS);
  return {
    dashboardDays: daysAgo(secondOfMonth) + 1,
    summary: [summaryFrom, summaryTo] as const,
    leftOut: [secondOfMonth - DAY_MS, Date.parse(summaryFrom) - DAY_MS, Date.parse(summaryTo) + DAY_MS].map(daysAgo),
  };
}

describe('the daily finance rollups', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let services: Services;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let finance: SignedIn;
  let support: SignedIn;
  let products: Product[];
  let buyers: User[];
  let learners: User[];
  let lessons: string[];
  const bought: string[] = [];
  const imported: string[] = [];
  const deleted = new Set<string>();
  let sequence = 0;

  beforeAll(async () => {
    const deps = testDeps(db());
    services = createServices(deps);
    app = createApp(deps, { services }).callback();
    finance = await signedIn(db(), ['finance']);
    support = await signedIn(db(), ['support']);
    const owner = await createUser(db(), { email: 'rollup.owner@example.com' });
    const contributor = await createUser(db(), { email: 'rollup.contributor@example.com' });
    products = [
      await createProduct(db(), { name: 'Rollup Dollars', unitAmount: 4_900 }),
      await createProduct(db(), { name: 'Rollup Plain', unitAmount: 1_999 }),
      await createProduct(db(), { name: 'Rollup Yen', unitAmount: 4_000, currency: 'jpy' }),
    ];
    for (const product of [products[0]!, products[2]!]) {
      await createRevenueSplit(db(), { productId: product.id, type: 'platform', percent: 0.3 });
      await createRevenueSplit(db(), { productId: product.id, type: 'owner', percent: 0.5, userId: owner.id });
      await createRevenueSplit(db(), {
        productId: product.id,
        type: 'contributor',
        percent: 0.2,
        userId: contributor.id,
      });
    }
    buyers = [];
    for (let i = 0; i < 5; i++) buyers.push(await createUser(db(), { email: `rollup.buyer${i}@example.com` }));
    learners = [
      ...buyers.slice(0, 2),
      ...(await Promise.all([0, 1].map((i) => createUser(db(), { email: `rollup.learner${i}@example.com` })))),
    ];
    const course = await createCourse(db(), {
      title: 'Rollup Course',
      modules: [
        { title: 'M', sections: [{ title: 'S', lessons: [1, 2, 3].map((n) => ({ title: `L${n}`, body: 'x' })) }] },
      ],
    });
    lessons = course.lessons.map((l) => l.id);
  });

  /** A charge of a purchase bought for real, with what a provider's dispute event names. */
  async function chargeOf(purchaseId: string) {
    return db()('purchases as p')
      .join('merchantCharges as c', 'c.id', 'p.merchantChargeId')
      .where('p.id', purchaseId)
      .first('c.id', 'c.identifier', 'c.merchantAccountId', 'c.amount');
  }

  /** Sales written on a past day in one statement per table, as an import would: charges, purchases, sale lines. */
  async function importSales(s: Extract<Step, { kind: 'import' }>) {
    const product = products[s.product]!;
    const currency = s.product === 2 ? 'jpy' : 'usd';
    const account = await db()('merchantAccounts').where({ label: 'test' }).first('id');
    const mp =
      (await db()('merchantProducts').where({ productId: product.id }).first('id')) ??
      (
        await db()('merchantProducts')
          .insert({ merchantAccountId: account.id, identifier: `prod_import_${product.id}`, productId: product.id })
          .returning('id')
      )[0];
    const when = new Date(Date.now() - s.daysAgo * DAY_MS);
    const buyer = buyers[0]!;
    const tag = `ch_import_${++sequence}_`;
    await db().raw(
      `INSERT INTO merchant_charges (merchant_account_id, identifier, amount, fee, net, currency, user_id, merchant_product_id, created_at)
       SELECT ?, ? || i, 1000 + 37 * i, 30 + i, 1000 + 37 * i - 30 - i, ?, ?, ?, ?::timestamptz + (i * 7 || ' minutes')::interval
         FROM generate_series(1, ?) AS i`,
      [account.id, tag, currency, buyer.id, mp.id, when, s.count],
    );
    const { rows: purchases } = await db().raw(
      `INSERT INTO purchases (user_id, product_id, status, total_amount, currency, country, merchant_charge_id, created_at)
       SELECT ?, ?, 'Valid', ch.amount, ?, 'US', ch.id, ch.created_at FROM merchant_charges ch WHERE ch.identifier LIKE ? || '%'
       RETURNING id`,
      [buyer.id, product.id, currency, tag],
    );
    imported.push(...(purchases as { id: string }[]).map((p) => p.id));
    // Two recipients a charge: the platform and the buyer standing in for an owner.
    await db().raw(
      `INSERT INTO split_lines (merchant_charge_id, product_id, recipient_type, user_id, kind, amount, currency, created_at)
       SELECT ch.id, ?, r.type, CASE WHEN r.type = 'owner' THEN ?::uuid END, 'sale',
              CASE WHEN r.type = 'owner' THEN (ch.amount - ch.fee) - (ch.amount - ch.fee) * 3 / 10 ELSE (ch.amount - ch.fee) * 3 / 10 END,
              ?, ch.created_at
         FROM merchant_charges ch CROSS JOIN (VALUES ('platform'), ('owner')) AS r(type) WHERE ch.identifier LIKE ? || '%'`,
      [product.id, buyer.id, currency, tag],
    );
    if (s.refundAfter === null) return;
    await db().raw(
      `INSERT INTO split_lines (merchant_charge_id, product_id, recipient_type, user_id, kind, amount, currency, reference, created_at)
       SELECT l.merchant_charge_id, l.product_id, l.recipient_type, l.user_id, 'refund', -(l.amount / 2), l.currency,
              're_' || l.merchant_charge_id, l.created_at + (? || ' days')::interval
         FROM split_lines l JOIN merchant_charges ch ON ch.id = l.merchant_charge_id
        WHERE ch.identifier LIKE ? || '%' AND l.kind = 'sale'`,
      [s.refundAfter, tag],
    );
  }

  async function run(s: Step): Promise<void> {
    switch (s.kind) {
      case 'buy': {
        const buyer = buyers[s.buyer]!;
        if (deleted.has(buyer.id)) return;
        const product = products[s.product]!;
        bought.push(
          await boughtWithTestProvider(services, db(), { buyer, productId: product.id, quantity: s.quantity }),
        );
        return;
      }
      case 'refund': {
        const purchase = at(bought, s.pick);
        if (!purchase) return;
        const charge = await chargeOf(purchase);
        const amount = s.percent === null ? undefined : Math.max(1, Math.floor((charge.amount * s.percent) / 100));
        // A refund the rules refuse (more than is left, a disputed charge) changes nothing: the figures must agree too.
        await as(support, request(app).post(`/api/admin/purchases/${purchase}/refund`)).send({
          ...(amount ? { amount } : {}),
          reasonCode: 'customer-request',
          reason: 'Random run',
        });
        return;
      }
      case 'open-dispute': {
        const purchase = at(bought, s.pick);
        if (!purchase) return;
        const charge = await chargeOf(purchase);
        await services.lifecycle.disputeOpened(charge.merchantAccountId, {
          identifier: `dp_${charge.id}`,
          chargeIdentifier: charge.identifier,
          amount: Math.max(1, Math.floor((charge.amount * s.percent) / 100)),
          reason: 'fraudulent',
        });
        return;
      }
      case 'close-dispute': {
        const disputes = await db()('merchantDisputes as d')
          .join('merchantCharges as c', 'c.id', 'd.merchantChargeId')
          .where('d.status', 'open')
          .orderBy('d.identifier')
          .select('d.identifier', 'd.amount', 'd.merchantAccountId', 'c.identifier as chargeIdentifier');
        const dispute = at(disputes, s.pick);
        if (!dispute) return;
        await services.lifecycle.disputeClosed(dispute.merchantAccountId, {
          identifier: dispute.identifier,
          chargeIdentifier: dispute.chargeIdentifier,
          amount: dispute.amount,
          reason: 'fraudulent',
          won: s.won,
        });
        return;
      }
      case 'comp': {
        const learner = learners[s.learner]!;
        if (deleted.has(learner.id)) return;
        await as(support, request(app).post(`/api/admin/users/${learner.id}/comps`)).send({
          productId: products[s.product]!.id,
          reason: 'Random run',
        });
        return;
      }
      case 'import':
        return importSales(s);
      case 'correct-purchase': {
        const purchase = at(imported, s.pick);
        if (!purchase) return;
        if (s.how === 'delete') {
          await db()('purchases').where({ id: purchase }).delete();
          imported.splice(imported.indexOf(purchase), 1);
        } else if (s.how === 'move')
          await db()('purchases')
            .where({ id: purchase })
            .update({ createdAt: db().raw(`created_at - interval '3 days'`) });
        else await db()('purchases').where({ id: purchase }).update({ totalAmount: 0 });
        return;
      }
      case 'correct-charge': {
        const charges = await db()('merchantCharges').orderBy('identifier').select('id');
        const charge = at(charges, s.pick);
        if (charge)
          await db()('merchantCharges')
            .where({ id: charge.id })
            .update({ fee: s.fee, createdAt: db().raw(`created_at - interval '1 day'`) });
        return;
      }
      case 'correct-ledger': {
        const lines = await db()('splitLines').whereNot({ kind: 'sale' }).orderBy('id').select('id');
        const line = at(lines, s.pick);
        if (!line) return;
        await db().transaction(async (trx) => {
          await trx.raw('ALTER TABLE split_lines DISABLE TRIGGER split_lines_append_only');
          if (s.how === 'delete') await trx('splitLines').where({ id: line.id }).delete();
          else
            await trx('splitLines')
              .where({ id: line.id })
              .update({ amount: trx.raw('amount - 3') });
          await trx.raw('ALTER TABLE split_lines ENABLE TRIGGER split_lines_append_only');
        });
        return;
      }
      case 'progress': {
        const learner = learners[s.learner]!;
        if (deleted.has(learner.id)) return;
        const lessonId = lessons[s.lesson]!;
        await writeProgress(
          db(),
          { userId: learner.id, lessonId, moduleId: null, sectionId: null, lessonSlug: null },
          s.completed,
          [],
        );
        return;
      }
      case 'forget':
        return forgetProgress(db(), learners[s.learner]!.id, [lessons[s.lesson]!]);
      case 'old-progress': {
        const learner = learners[s.learner]!;
        if (deleted.has(learner.id)) return;
        const updatedAt = new Date(Date.now() - s.daysAgo * DAY_MS);
        await db()('lessonProgress')
          .insert({ userId: learner.id, lessonId: lessons[s.lesson]!, createdAt: updatedAt, updatedAt })
          .onConflict(['userId', 'lessonId'])
          .ignore();
        return;
      }
      case 'delete-account': {
        const buyer = buyers[s.buyer]!;
        if (deleted.has(buyer.id) || s.buyer === 0) return; // the first buyer stands in for imports' owner
        await services.personalData.deleteOwn(buyer.id, buyer.email, null);
        deleted.add(buyer.id);
        return;
      }
    }
  }

  async function expectRollupsExact(context: string) {
    for (const [name, { rollup, direct }] of Object.entries(ROLLUP_CHECKS)) {
      const [kept, summed] = await Promise.all([db().raw(rollup), db().raw(direct)]);
      expect(kept.rows, `${name} rollup after ${context}`).toEqual(summed.rows);
    }
  }

  async function expectAnswersExact(context: string) {
    const now = new Date();
    const today = dayOf(now);
    const edges = monthEdges(now);
    for (const days of [7, 30, 365, edges.dashboardDays]) {
      for (const currency of [undefined, 'usd', 'jpy']) {
        const answer = await as(
          finance,
          request(app)
            .get('/api/admin/dashboard')
            .query({ days, ...(currency ? { currency } : {}) }),
        );
        expect(answer.status).toBe(200);
        expect(answer.body, `finance dashboard, ${days} days, ${currency}, after ${context}`).toEqual(
          await directFinanceDashboard(db(), now, days, currency),
        );
      }
      const forSupport = await as(support, request(app).get('/api/admin/dashboard').query({ days }));
      const { openDisputes: _o, failedEmails: _f, ...counted } = forSupport.body.totals;
      expect({ ...forSupport.body, totals: counted }, `support dashboard, ${days} days, after ${context}`).toEqual(
        await directSupportDashboard(db(), now, days),
      );
    }
    const periods = [
      [today, today],
      [dayOf(new Date(now.getTime() - 30 * DAY_MS)), today],
      [dayOf(new Date(now.getTime() - 365 * DAY_MS)), today],
      [dayOf(new Date(now.getTime() - 400 * DAY_MS)), dayOf(new Date(now.getTime() - 50 * DAY_MS))],
      [dayOf(new Date(now.getTime() - 200 * DAY_MS)), dayOf(new Date(now.getTime() - 20 * DAY_MS))],
      edges.summary,
    ] as const;
    for (const [from, to] of periods)
      for (const currency of [undefined, 'usd', 'jpy']) {
        const answer = await as(
          finance,
          request(app)
            .get('/api/admin/finance/summary')
            .query({ from, to, ...(currency ? { currency } : {}) }),
        );
        expect(answer.status).toBe(200);
        expect(answer.body, `summary ${from}..${to}, ${currency}, after ${context}`).toEqual(
          await directFinanceSummary(db(), from, to, currency),
        );
      }
  }

  it('equal the ledger summed directly after a random run of sales, refunds, disputes, comps and corrections', async () => {
    const [random] = fc.sample(fc.array(step, { minLength: 30, maxLength: 40 }), { seed: SEED, numRuns: 1 });
    const leftOut = monthEdges(new Date()).leftOut.map((daysAgo, i): Step => ({
      kind: 'import',
      daysAgo,
      count: 1,
      product: i % 2,
      refundAfter: null,
    }));
    const steps = [...OPENING, ...leftOut, ...random!, ...CLOSING];
    const done: string[] = [];
    for (const [i, s] of steps.entries()) {
      await run(s);
      done.push(s.kind);
      if (i % 10 === 9) await expectRollupsExact(`step ${i + 1} (${done.join(', ')})`);
    }
    // The run covered what the rollups must follow.
    for (const kind of [
      'refund',
      'open-dispute',
      'close-dispute',
      'comp',
      'correct-ledger',
      'forget',
      'delete-account',
    ])
      expect(done, `the seeded run has a ${kind}`).toContain(kind);
    const kinds = await db()('splitLines').distinct('kind').pluck('kind');
    expect(kinds.sort()).toEqual(['dispute', 'dispute-won', 'refund', 'sale']);
    expect(await db()('purchases').where({ kind: 'comp' }).count({ n: '*' }).first()).not.toMatchObject({ n: '0' });
    await expectRollupsExact('the run');
    await expectAnswersExact('the run');
  });
});
