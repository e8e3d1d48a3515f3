import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../api/src/db/connection';
import { testApp } from '../support/app';
import { as, signedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';
import { planInBrief, sortPlans } from '../bench/sort-plans';

/**
 * Every order and filter the console offers is read from an index (docs/architecture.md §6): the lists' real
 * queries, planned with sequential scans ruled out so the planner's taste for reading a small table whole does not
 * hide a missing index. A sortable field added without its index fails here.
 */
describe('console list plans', () => {
  const database = useTestDatabase();
  let db: Db;

  beforeAll(async () => {
    // One connection, so the setting holds for every statement.
    db = createDb(database().url, { max: 1 });
    await db.raw('SET enable_seqscan = off');
  });
  afterAll(async () => {
    await db.destroy();
  });

  it('serves every offered sort and filter of a large table from an index', async () => {
    const plans = await sortPlans(db);
    // Every resource's every sortable field is planned (purchases by date, amount, status and id).
    expect(plans.filter((p) => p.resource === 'purchases' && !p.filter).map((p) => p.sort)).toEqual([
      'id DESC',
      'createdAt DESC',
      'totalAmount DESC',
      'status DESC',
    ]);
    const sorted = plans
      .filter((p) => !p.usesIndex && !p.small)
      .map((p) => `${p.resource} ${p.sort}${p.filter ? ` where ${p.filter}` : ''}: ${planInBrief(p.plan)}`);
    expect(sorted).toEqual([]);
  });

  it('notices a sort that lost its index', async () => {
    await db.transaction(async (trx) => {
      await trx.raw('DROP INDEX purchases_total_amount_id');
      const plans = await sortPlans(trx);
      const byAmount = plans.find((p) => p.resource === 'purchases' && p.sort === 'totalAmount DESC' && !p.filter);
      expect(byAmount?.usesIndex).toBe(false);
      expect(planInBrief(byAmount!.plan)).toMatch(/Sort/);
      await trx.rollback();
    });
  });

  it('refuses a sort no index serves, with the stable code, and names the sorts there are', async () => {
    const app = testApp(database().db);
    const staff = await signedIn(database().db, ['support']);
    const refused = await as(
      staff,
      request(app)
        .get('/api/admin/purchases')
        .query({ sort: JSON.stringify(['refundedAmount', 'DESC']) }),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('validation-failed');
    expect(refused.body.message).toMatch(/cannot sort purchases by "refundedAmount"; sortable: id, createdAt/);
  });
});
