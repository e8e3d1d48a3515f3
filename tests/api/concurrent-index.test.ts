import { describe, expect, it } from 'vitest';
import { createIndexConcurrently } from '../../migrations/concurrent-index';
import { useTestDatabase } from '../support/db';

describe('index migrations built concurrently (docs/operations.md §5)', () => {
  const database = useTestDatabase();
  const db = () => database().db;

  const validity = async (name: string) =>
    (
      await db().raw<{ rows: { valid: boolean }[] }>(
        `SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = ?`,
        [name],
      )
    ).rows.map((r) => r.valid);

  it('builds again an index a cut-short build left invalid, where IF NOT EXISTS would skip it', async () => {
    await db().raw('CREATE TABLE index_trial (n int)');
    await db()('index_trial').insert([{ n: 1 }, { n: 1 }, { n: 2 }]);
    // A concurrent build that fails (duplicates under a unique index) leaves its index behind, invalid.
    await expect(db().raw('CREATE UNIQUE INDEX CONCURRENTLY index_trial_n ON index_trial (n)')).rejects.toThrow(
      /could not create unique index/,
    );
    expect(await validity('index_trial_n')).toEqual([false]);
    await db().raw('CREATE INDEX CONCURRENTLY IF NOT EXISTS index_trial_n ON index_trial (n)');
    expect(await validity('index_trial_n')).toEqual([false]);

    await createIndexConcurrently(db(), 'index_trial_n', 'index_trial (n)');
    expect(await validity('index_trial_n')).toEqual([true]);

    // Run again (a migration started twice), it keeps the valid one.
    const before = await db().raw<{ rows: { oid: number }[] }>(`SELECT 'index_trial_n'::regclass::oid AS oid`);
    await createIndexConcurrently(db(), 'index_trial_n', 'index_trial (n)');
    const after = await db().raw<{ rows: { oid: number }[] }>(`SELECT 'index_trial_n'::regclass::oid AS oid`);
    expect(after.rows[0]?.oid).toBe(before.rows[0]?.oid);
    expect(await validity('index_trial_n')).toEqual([true]);
  });
});
