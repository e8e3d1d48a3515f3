import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../support/db';

/**
 * The finance rollups' shard rows: each transaction that writes them takes the lowest shard no other open
 * transaction holds, and keeps it to its end, so sales committing at once never wait on each other's rollup rows.
 */
describe('rollup shards', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const shardIn = async (trx: Knex.Transaction) =>
    ((await trx.raw('SELECT rollup_shard() AS shard')).rows[0] as { shard: number }).shard;

  it('gives transactions open at once shards of their own, each kept to its end, and a later one the first', async () => {
    const first = await db().transaction();
    const second = await db().transaction();
    try {
      expect(await shardIn(first)).toBe(0);
      expect(await shardIn(second)).toBe(1);
      expect(await shardIn(first)).toBe(0);
      await first.commit();
      expect(await shardIn(second)).toBe(1);
      const third = await db().transaction();
      expect(await shardIn(third)).toBe(0);
      await third.rollback();
    } finally {
      if (!first.isCompleted()) await first.rollback();
      await second.rollback();
    }
  });
  it('has every rollup function choose its shard per transaction, none by the connection', async () => {
    const { rows } = await db().raw(
      `SELECT p.proname AS name, strpos(p.prosrc, 'rollup_shard()') > 0 AS per_transaction
         FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = current_schema() AND p.proname <> 'rollup_shard'
          AND (strpos(p.prosrc, 'rollup_shard()') > 0 OR strpos(p.prosrc, 'pg_backend_pid()') > 0)`,
    );
    const functions = rows as { name: string; per_transaction: boolean }[];
    expect(functions.map((f) => f.name)).toEqual(
      expect.arrayContaining(['finance_monthly_ledger_recipients_add', 'learner_last_active_days_move']),
    );
    expect(functions.filter((f) => !f.per_transaction).map((f) => f.name)).toEqual([]);
  });
});
