import { performance } from 'node:perf_hooks';
import type { Db } from '../../api/src/db/connection';

/**
 * Before rows timed one request at a time: the tables just written vacuumed (autovacuum would otherwise come to them
 * within its minute, among the samples), every write flushed by a checkpoint, and autovacuum's work under way done; a
 * p95 of 20 is their second slowest, so two stalls decide it. A school's database at rest is in that state; one that
 * has just taken ten thousand lessons in a minute is not.
 */
export async function databaseAtRest(db: Db, written: string[]): Promise<void> {
  for (const table of written) await db.raw('VACUUM ANALYZE ??', [table]);
  await db.raw('CHECKPOINT');
  const deadline = performance.now() + 120_000;
  const vacuuming = async () =>
    (await db.raw(`SELECT 1 FROM pg_stat_activity WHERE backend_type = 'autovacuum worker'`)).rows.length > 0;
  while ((await vacuuming()) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 200));
}
