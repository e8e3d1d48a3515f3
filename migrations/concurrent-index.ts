import type { Knex } from 'knex';

/**
 * Indexes built CONCURRENTLY (outside a transaction) so their tables stay writable. A build cut short (cancelled, a
 * timeout, a lost connection) leaves its index behind marked invalid: never used by a query, yet `IF NOT EXISTS`
 * would skip it on the next run. So an invalid leftover is dropped and built again, and the migration fails unless
 * the index it leaves is valid.
 */

/** Whether the index exists and whether it is usable (null: no such index). */
async function indexValidity(knex: Knex, name: string): Promise<boolean | null> {
  const { rows } = await knex.raw<{ rows: { valid: boolean }[] }>(
    `SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      WHERE c.relname = ? AND c.relnamespace = current_schema()::regnamespace`,
    [name],
  );
  return rows[0]?.valid ?? null;
}

/** Builds `name ON definition` concurrently, first dropping an invalid one a cut-short build left. */
export async function createIndexConcurrently(knex: Knex, name: string, definition: string): Promise<void> {
  if ((await indexValidity(knex, name)) === false) await knex.raw(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
  await knex.raw(`CREATE INDEX CONCURRENTLY IF NOT EXISTS ${name} ON ${definition}`);
  if ((await indexValidity(knex, name)) !== true)
    throw new Error(
      `Index ${name} was not built valid (a concurrent build cut short?): run the migration again, which rebuilds it.`,
    );
}

/** Drops an index concurrently, if it is there. */
export async function dropIndexConcurrently(knex: Knex, name: string): Promise<void> {
  await knex.raw(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
}
