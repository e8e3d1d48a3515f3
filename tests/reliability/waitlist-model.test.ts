import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WAITLIST_OPENING } from '../../api/src/catalog/waitlist/waitlist';
import type { Product } from '../../api/src/catalog/models';
import type { Db } from '../../api/src/db/connection';
import { createServices, type Services } from '../../api/src/services';
import { AppError } from '../../api/src/shared/errors';
import { createProduct, createPurchase, createUser } from '../../seeds/factories';
import { testDeps } from '../support/app';
import { manualClock } from '../support/clock';
import { createTestDatabase } from '../support/db';

/**
 * A model-based test of waitlists (issue 17): random sequences of what happens to a product and the people waiting
 * for it (join, leave, seats sold, refunded, capacity raised or lowered, enrollment closed, a window opening by time,
 * sweeps racing, opening jobs run late or from two replicas) on the real services and PostgreSQL. After every step:
 *
 *  1. each waiting person is emailed at most once per opening of the product;
 *  2. nobody is emailed in a step while the product cannot be bought;
 *  3. only people on the list are emailed;
 *  4. once sweeps and jobs ran with the product open, everyone waiting has been emailed for the current opening
 *     (and an opening job run late, with the product closed again meanwhile, emails nobody);
 *  5. joining is refused exactly while the product can be bought.
 *
 * `npm run test:reliability` runs WAITLIST_RUNS (default 20) sequences of up to WAITLIST_STEPS (40) steps.
 */

const RUNS = Number(process.env.WAITLIST_RUNS ?? 20);
const STEPS = Number(process.env.WAITLIST_STEPS ?? 40);
const PEOPLE = 4;
const HOUR = 60 * 60 * 1000;

interface Model {
  capacity: number;
  sold: number;
  /** An enrollment window that closed ('closed'), one opening later by time ('later'), or none ('open'). */
  window: 'open' | 'closed' | 'later';
  waiting: Set<number>;
  /** Per person, the openings (the database's counter when the email appeared) they were emailed for. */
  emailed: Map<number, number[]>;
  /** Emails seen so far, by id. */
  seen: Set<string>;
}

interface World {
  services: Services;
  replica: Services;
  db: Db;
  clock: ReturnType<typeof manualClock>;
  product: Product;
  productId: string;
  productName: string;
  opensAt: Date;
  emails: string[];
  /** Purchases that hold a seat, newest last. */
  seats: string[];
}

const open = (m: Model) => m.window === 'open' && m.sold < m.capacity;

/** Emails that appeared since the last look, each with its person; checks the invariants that concern them. */
async function observe(m: Model, w: World, openDuringStep: boolean): Promise<void> {
  const rows: { id: string; toAddress: string }[] = await w
    .db('outboxEmails')
    .where({ kind: 'waitlist-open' })
    .where('subject', 'like', `%${w.productName}%`)
    .select('id', 'toAddress');
  const fresh = rows.filter((r) => !m.seen.has(r.id));
  if (!fresh.length) return;
  expect(openDuringStep, 'an email went out while the product could not be bought').toBe(true);
  const { opening } = await w.db('waitlistProducts').where({ productId: w.productId }).first('opening');
  for (const row of fresh) {
    m.seen.add(row.id);
    const person = w.emails.indexOf(row.toAddress);
    expect(person, `an email to someone unknown: ${row.toAddress}`).toBeGreaterThanOrEqual(0);
    expect(m.waiting.has(person), `an email to someone not on the list: ${row.toAddress}`).toBe(true);
    const openings = m.emailed.get(person) ?? [];
    expect(openings, `${row.toAddress} emailed twice in opening ${opening}`).not.toContain(opening);
    m.emailed.set(person, [...openings, opening]);
  }
}

type Step = fc.AsyncCommand<Model, World>;

function step(name: string, act: (m: Model, w: World) => Promise<void>, sends = false): Step {
  return {
    check: () => true,
    async run(m, w) {
      const openBefore = open(m);
      await act(m, w);
      await observe(m, w, sends && openBefore && open(m));
    },
    toString: () => name,
  };
}

const join = (person: number) =>
  step(`join(${person})`, async (m, w) => {
    try {
      await w.services.waitlist.join({ productId: w.productId, email: w.emails[person]!, ip: null });
      expect(open(m), 'a join was taken while the product could be bought').toBe(false);
      m.waiting.add(person);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'product-on-sale') throw error;
      expect(open(m), 'a join was refused while the product could not be bought').toBe(true);
    }
  });

const leave = (person: number) =>
  step(`leave(${person})`, async (m, w) => {
    await w.db('waitlistEntries').where({ productId: w.productId, email: w.emails[person] }).delete();
    m.waiting.delete(person);
  });

const sell = step('sell a seat', async (m, w) => {
  if (!open(m)) return; // the checkout refuses
  const purchase = await createPurchase(w.db, { user: await createUser(w.db), product: w.product });
  w.seats.push(purchase.id);
  m.sold += 1;
});

const refund = step('refund a seat', async (m, w) => {
  const id = w.seats.pop();
  if (!id) return;
  await w.db('purchases').where({ id }).update({ status: 'Refunded' });
  m.sold -= 1;
});

const capacity = (delta: number) =>
  step(`capacity ${delta > 0 ? '+' : ''}${delta}`, async (m, w) => {
    const next = Math.max(0, m.capacity + delta);
    await w.db('products').where({ id: w.productId }).update({ quantityAvailable: next });
    m.capacity = next;
  });

const closeEnrollment = step('enrollment closes', async (m, w) => {
  const now = w.clock.now().getTime();
  await w
    .db('products')
    .where({ id: w.productId })
    .update({ enrollmentOpensAt: new Date(now - 2 * HOUR), enrollmentClosesAt: new Date(now - HOUR) });
  m.window = 'closed';
});

const opensLater = step('enrollment will open in an hour', async (m, w) => {
  w.opensAt = new Date(w.clock.now().getTime() + HOUR);
  await w.db('products').where({ id: w.productId }).update({ enrollmentOpensAt: w.opensAt, enrollmentClosesAt: null });
  m.window = 'later';
});

const timePasses = step('an hour passes', async (m, w) => {
  w.clock.advance(HOUR + 1000);
  if (m.window === 'later' && w.clock.now() >= w.opensAt) m.window = 'open';
});

const reopen = step('staff open enrollment', async (m, w) => {
  await w.db('products').where({ id: w.productId }).update({ enrollmentOpensAt: null, enrollmentClosesAt: null });
  m.window = 'open';
});

/** `sweeps` sweeps at once (over two replicas), and the opening jobs run (or left for later). */
const sweep = (sweeps: number, runJobs: boolean) =>
  step(
    `sweep ×${sweeps}${runJobs ? ' + jobs' : ''}`,
    async (m, w) => {
      const replicas = [w.services, w.replica];
      await Promise.all(Array.from({ length: sweeps }, (_, i) => replicas[i % 2]!.waitlist.sweep()));
      if (!runJobs) return;
      await Promise.all(replicas.map((s) => s.jobs.runDue(WAITLIST_OPENING)));
      if (open(m)) {
        const behind = await w
          .db('waitlistEntries as e')
          .join('waitlistProducts as p', 'p.productId', 'e.productId')
          .where('e.productId', w.productId)
          .whereRaw('e.notified_opening < p.opening')
          .select('e.email');
        expect(behind, 'people still waiting for an email of an open product').toEqual([]);
      }
    },
    true,
  );

/** The opening jobs queued so far, run by both replicas (no sweep first: a job may find the product closed again). */
const runJobs = step(
  'opening jobs run',
  async (_m, w) => {
    await Promise.all([w.services, w.replica].map((s) => s.jobs.runDue(WAITLIST_OPENING)));
  },
  true,
);

const person = fc.integer({ min: 0, max: PEOPLE - 1 });
/** Weighted by repetition: people join often, the product opens and closes often, sweeps and jobs interleave. */
const commands = [
  person.map(join),
  person.map(join),
  person.map(join),
  person.map(leave),
  fc.constant(sell),
  fc.constant(sell),
  fc.constant(refund),
  fc.constantFrom(1, 2).map(capacity),
  fc.constantFrom(1, 2).map(capacity),
  fc.constant(capacity(-1)),
  fc.constant(closeEnrollment),
  fc.constant(opensLater),
  fc.constant(timePasses),
  fc.constant(reopen),
  fc.integer({ min: 1, max: 3 }).map((n) => sweep(n, false)),
  fc.integer({ min: 1, max: 3 }).map((n) => sweep(n, false)),
  fc.integer({ min: 1, max: 3 }).map((n) => sweep(n, true)),
  fc.integer({ min: 1, max: 3 }).map((n) => sweep(n, true)),
  fc.constant(runJobs),
  fc.constant(runJobs),
];

describe('waitlists, model-based (fast-check commands on the real services and PostgreSQL)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.release();
  });

  it(
    `emails each waiting person at most once per opening, and nobody while closed, over ${RUNS} sequences`,
    async () => {
      let run = 0;
      let steps = 0;
      let emails = 0;
      await fc.assert(
        fc.asyncProperty(fc.commands(commands, { maxCommands: STEPS, size: 'max' }), async (cmds) => {
          const db = database.db;
          const clock = manualClock(new Date(Date.now() + run * 1000 * HOUR));
          const services = createServices(testDeps(db, { clock }));
          const replica = createServices(testDeps(db, { clock }));
          const productName = `Modelled ${++run} ${Math.random().toString(36).slice(2, 8)}`;
          const product = await createProduct(db, { name: productName, quantityAvailable: 1 });
          const first = await createPurchase(db, { user: await createUser(db), product });
          const world: World = {
            services,
            replica,
            db,
            clock,
            product,
            productId: product.id,
            productName,
            opensAt: new Date(0),
            emails: Array.from({ length: PEOPLE }, (_, i) => `p${i}-${product.id.slice(0, 8)}@example.com`),
            seats: [first.id],
          };
          const model: Model = {
            capacity: 1,
            sold: 1,
            window: 'open',
            waiting: new Set(),
            emailed: new Map(),
            seen: new Set(),
          };
          await fc.asyncModelRun(() => ({ model, real: world }), [...cmds]);
          steps += [...cmds].length;
          emails += model.seen.size;
        }),
        { numRuns: RUNS },
      );
      console.log(`waitlist model: ${run} sequences, ${steps} steps, ${emails} emails`);
    },
    60_000 + RUNS * STEPS * 2000,
  );
});
