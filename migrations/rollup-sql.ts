/**
 * SQL for rollup tables kept by statement-level triggers (the finance rollups' later migrations): upserts into a
 * writing connection's shard row, and rollups of tables whose rows each add fixed measures.
 */

/**
 * Creating a rollup's triggers locks its source table against writes until the migration's backfill commits. Rather
 * than queue behind a long transaction (and every write of the table queue behind the migration), the migration gives
 * up after a few seconds, to be run again in a quieter moment (docs/operations.md §5).
 */
export const FAIL_FAST_ON_LOCKS = `SET LOCAL lock_timeout = '5s'`;

const SHARDS = 8;
/**
 * The writing connection's shard row: fulfilments committing at once each lock their own, summed on read. The rollups
 * made before rollup_shard() existed (20261201010100) used it, and that migration rewrote them.
 */
const CONNECTION_SHARD = `(pg_backend_pid() % ${SHARDS})::smallint`;
/** The lowest shard no other open transaction holds, kept to the transaction's end: what rollups use since. */
export const TRANSACTION_SHARD = 'rollup_shard()';

export type Columns = Record<string, string>;

/** A rollup table's upsert: each key's measures added to a shard row (by default the writing connection's). */
export function addTo(
  table: string,
  keys: Columns,
  measures: Columns,
  from: string,
  having?: string,
  shard: string = CONNECTION_SHARD,
): string {
  const k = Object.keys(keys);
  const m = Object.keys(measures);
  return `INSERT INTO ${table} AS r (${[...k, 'shard', ...m].join(', ')})
    SELECT ${[...Object.values(keys), shard, ...Object.values(measures)].join(', ')}
      FROM ${from} GROUP BY ${k.map((_, i) => i + 1).join(', ')} ${having ? `HAVING ${having}` : ''}
    ON CONFLICT (${[...k, 'shard'].join(', ')})
    DO UPDATE SET ${m.map((c) => `${c} = r.${c} + excluded.${c}`).join(', ')};`;
}

/** AFTER INSERT, UPDATE and DELETE statement triggers with their transition tables (new_rows, old_rows). */
export function statementTriggers(source: string, fn: string): string {
  return `
    CREATE TRIGGER ${fn}_inserted AFTER INSERT ON ${source} REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION ${fn}();
    CREATE TRIGGER ${fn}_updated AFTER UPDATE ON ${source} REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION ${fn}();
    CREATE TRIGGER ${fn}_deleted AFTER DELETE ON ${source} REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION ${fn}();`;
}

/**
 * A rollup of a table whose rows each add fixed measures: an insert adds the new rows, a delete subtracts the old,
 * an update both; keys whose measures do not change write nothing. `up` creates its function and triggers and fills
 * the table from the rows already there.
 */
export function deltaRollup(source: string, table: string, keys: Columns, measures: Columns) {
  const rowsOf = (rel: string, sign: number) =>
    `SELECT ${Object.entries(keys)
      .map(([k, e]) => `${e} AS ${k}`)
      .join(', ')}, ${Object.entries(measures)
      .map(([m, e]) => `${sign} * (${e})::bigint AS ${m}`)
      .join(', ')} FROM ${rel}`;
  const keyCols = Object.fromEntries(Object.keys(keys).map((k) => [k, k]));
  const sums = Object.fromEntries(Object.keys(measures).map((m) => [m, `sum(${m})`]));
  const changed = Object.keys(measures)
    .map((m) => `sum(${m}) <> 0`)
    .join(' OR ');
  const apply = (rows: string) => addTo(table, keyCols, sums, `(${rows}) AS d`, changed);
  const fn = `${table}_add`;
  return {
    up: `
      CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN ${apply(rowsOf('new_rows', 1))}
        ELSIF TG_OP = 'DELETE' THEN ${apply(rowsOf('old_rows', -1))}
        ELSE ${apply(`${rowsOf('new_rows', 1)} UNION ALL ${rowsOf('old_rows', -1)}`)}
        END IF;
        RETURN NULL;
      END $$;
      ${statementTriggers(source, fn)}
      ${apply(rowsOf(source, 1))}`,
    down: `DROP FUNCTION ${fn}() CASCADE;`,
  };
}
