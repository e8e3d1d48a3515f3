import { beforeAll, describe, expect, it } from 'vitest';
import { MigrationDirectory } from '../../api/src/db/migrations';
import { createServices, type Services } from '../../api/src/services';
import { createCourse, createProduct, createRevenueSplit, createUser } from '../../seeds/factories';
import { testDeps } from '../support/app';
import { boughtWithTestProvider } from '../support/checkout';
import { useTestDatabase } from '../support/db';

/**
 * Every table the triggers of the rollup migrations (20261130010000–20261130010300, 20261201040000, 20261202020000,
 * 20261208030200)
 * keep.
 */
const ROLLUPS = [
  'finance_daily_charges',
  'finance_daily_purchases',
  'finance_daily_purchase_totals',
  'finance_monthly_purchases',
  'finance_daily_ledger',
  'finance_daily_ledger_products',
  'finance_daily_ledger_recipients',
  'finance_monthly_ledger_products',
  'finance_monthly_ledger_recipients',
  'finance_hourly_recipient_earnings',
  'learner_last_active',
  'tax_daily_documents',
];

describe('rollups stay true to their tables (docs/domain.md §9)', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let services: Services;
  let lessons: string[];

  beforeAll(async () => {
    services = createServices(testDeps(db()));
    const course = await createCourse(db(), {
      title: 'Upkeep Course',
      modules: [
        { title: 'M', sections: [{ title: 'S', lessons: [1, 2].map((n) => ({ title: `L${n}`, body: 'x' })) }] },
      ],
    });
    lessons = course.lessons.map((l) => l.id);
  });

  const rowsOf = async (table: string) => Number((await db()(table).count({ n: '*' }).first())!.n);

  it('are emptied when the tables they count are truncated, and count again from there', async () => {
    const product = await createProduct(db(), { name: 'Upkeep', unitAmount: 2_500 });
    const buyer = await createUser(db(), { email: 'upkeep.buyer@example.com' });
    // An author's share: the rollups by recipient count a person's lines.
    const author = await createUser(db(), { email: 'upkeep.author@example.com' });
    await createRevenueSplit(db(), { productId: product.id, type: 'owner', percent: 0.7, userId: author.id });
    await boughtWithTestProvider(services, db(), { productId: product.id, buyer });
    await db()('lessonProgress').insert({ userId: buyer.id, lessonId: lessons[0]! });
    for (const table of ROLLUPS) expect(await rowsOf(table), table).toBeGreaterThan(0);

    await db().raw('TRUNCATE merchant_charges, purchases, split_lines, lesson_progress CASCADE');
    for (const table of ROLLUPS) expect(await rowsOf(table), table).toBe(0);

    await boughtWithTestProvider(services, db(), { productId: product.id, buyer });
    const charges = await db()('financeDailyCharges').sum({ n: 'charges' }).sum({ gross: 'gross' }).first();
    expect({ n: Number(charges!.n), gross: Number(charges!.gross) }).toEqual({ n: 1, gross: 2_500 });
  });

  it('never moves a learner’s last activity back past a write committed while their progress was reset', async () => {
    const learner = await createUser(db(), { email: 'upkeep.learner@example.com' });
    const older = new Date('2026-11-01T10:00:00Z');
    const newer = new Date('2026-11-20T10:00:00Z');
    await db()('lessonProgress').insert({ userId: learner.id, lessonId: lessons[0]!, updatedAt: older });

    // A newer write, not yet committed, while the learner's old progress is reset in another transaction.
    const writer = await db().transaction();
    await writer('lessonProgress').insert({ userId: learner.id, lessonId: lessons[1]!, updatedAt: newer });
    const reset = db().transaction(async (trx) => {
      await trx('lessonProgress').where({ userId: learner.id, lessonId: lessons[0]! }).delete();
    });
    // The reset is waiting on the learner's row, which the writer holds.
    await expect
      .poll(async () =>
        Number(
          (
            await db().raw<{ rows: { n: string }[] }>(
              `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
            )
          ).rows[0]!.n,
        ),
      )
      .toBe(1);
    await writer.commit();
    await reset;

    const kept = await db()('learnerLastActive').where({ userId: learner.id }).first();
    expect(kept?.lastActiveAt).toEqual(newer);
  });

  it('are set up by a migration that gives up rather than queue every write behind a long transaction', async () => {
    const migration = {
      migrationSource: new MigrationDirectory(),
      name: '20261130010000_create_finance_daily_rollups.ts',
    };
    await db().migrate.down(migration);
    // A transaction that wrote a charge and stays open holds a lock the migration's triggers need.
    const open = await db().transaction();
    await open.raw('UPDATE merchant_charges SET amount = amount WHERE id IN (SELECT id FROM merchant_charges LIMIT 1)');
    const started = Date.now();
    await expect(db().migrate.up(migration)).rejects.toThrow(/lock timeout/);
    expect(Date.now() - started).toBeLessThan(30_000);
    await open.rollback();

    await db().migrate.up(migration);
    const charges = await db()('financeDailyCharges').sum({ n: 'charges' }).first();
    expect(Number(charges!.n)).toBe(Number((await db()('merchantCharges').count({ n: '*' }).first())!.n));
  });
});
