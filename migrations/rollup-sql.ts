/**
 * SQL for rollup tables kept by statement-level triggers (the finance rollups' later migrations): upserts into a
 * writing connection's shard row, rollups of tables whose rows each add fixed measures, and rollups of the ledger's
 * lines per day or month.
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

/** The ledger's amounts by kind, as finance sums them (refunds and disputes negative), of split lines named `l`. */
export const LEDGER_AMOUNTS: Columns = {
  lines: 'count(*)',
  sales: `coalesce(sum(l.amount) FILTER (WHERE l.kind = 'sale'), 0)`,
  refunds: `coalesce(sum(l.amount) FILTER (WHERE l.kind = 'refund'), 0)`,
  disputes: `coalesce(sum(l.amount) FILTER (WHERE l.kind IN ('dispute', 'dispute-won')), 0)`,
  total: 'sum(l.amount)',
};

/** A period of a row's creation: its UTC day, or the first day of its UTC month. */
export const UTC_DAY = (createdAt: string) => `(${createdAt} AT TIME ZONE 'UTC')::date`;
export const UTC_MONTH = (createdAt: string) => `date_trunc('month', ${createdAt} AT TIME ZONE 'UTC')::date`;

/**
 * Rollups of split lines per period (`column`: day or month, `period` of a creation time): `add(from)` upserts the
 * lines of `from` (named l) into `tables`. split_lines is append-only (its own trigger refuses updates and deletes),
 * so an insert adds; a correction made with the guard lifted counts the periods its lines were on again from the
 * ledger as it then stands. `up` creates the function `fn` and its triggers (and `alsoCreate`, more triggers) and
 * fills the tables from the lines already there.
 */
export function splitLineRollup(spec: SplitLineRollup & { alsoCreate?: string }): string {
  return `
  ${splitLineRollupFunction(spec, 'CREATE')}
  ${statementTriggers('split_lines', spec.fn)}
  ${spec.alsoCreate ? `${spec.alsoCreate}\n  ` : ''}${spec.add('split_lines AS l')}`;
}

interface SplitLineRollup {
  fn: string;
  tables: string[];
  column: string;
  period(createdAt: string): string;
  add(from: string): string;
}

/** The function of a split-line rollup alone: created, or replaced when a later migration widens what it adds. */
export function splitLineRollupFunction(
  { fn, tables, column, period, add }: SplitLineRollup,
  verb: 'CREATE' | 'CREATE OR REPLACE',
): string {
  const recount = (touched: string) => `
  ${tables.map((t) => `DELETE FROM ${t} WHERE ${column} IN (${touched});`).join('\n')}
  ${add(`split_lines AS l WHERE ${period('l.created_at')} IN (${touched})`)}`;
  const touched = (rows: string) => `SELECT ${period('created_at')} FROM ${rows}`;
  return `${verb} FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP = 'INSERT' THEN ${add('new_rows AS l')}
    ELSIF TG_OP = 'DELETE' THEN ${recount(touched('old_rows'))}
    ELSE ${recount(`${touched('old_rows')} UNION ${touched('new_rows')}`)}
    END IF;
    RETURN NULL;
  END $$;`;
}

/** A recipient's earnings apart from what is clawed back: the sum of their positive lines (named l). */
export const EARNED_AMOUNT = 'coalesce(sum(l.amount) FILTER (WHERE l.amount > 0), 0)';

/** A charge's first sale line: counts the sale once, however many recipients share it. */
const FIRST_SALE_LINE = `l.kind = 'sale' AND NOT EXISTS (SELECT 1 FROM split_lines o
  WHERE o.merchant_charge_id = l.merchant_charge_id AND o.kind = 'sale' AND o.id < l.id)`;

/** A refund's first line of the day: counts the refund once a day, as count(DISTINCT (charge, reference)) does. */
const FIRST_REFUND_LINE = `l.kind = 'refund' AND NOT EXISTS (SELECT 1 FROM split_lines o
  WHERE o.merchant_charge_id = l.merchant_charge_id AND o.kind = 'refund' AND o.reference IS NOT DISTINCT FROM l.reference
    AND (o.created_at AT TIME ZONE 'UTC')::date = (l.created_at AT TIME ZONE 'UTC')::date AND o.id < l.id)`;

/** The daily ledger rollups (finance_daily_ledger_add, 20261130010000), kept by one function. */
export const DAILY_LEDGER_TABLES = [
  'finance_daily_ledger',
  'finance_daily_ledger_products',
  'finance_daily_ledger_recipients',
];

/**
 * The three daily ledger rollups' upserts from a set of split lines (`from` names it as l), into `shard` rows; the
 * recipients' rollup with `recipientMeasures` (LEDGER_AMOUNTS, and since 20261208030000 also what they earned).
 */
export function dailyLedgerAdds(
  from: string,
  { shard, recipientMeasures = LEDGER_AMOUNTS }: { shard?: string; recipientMeasures?: Columns } = {},
): string {
  const day = UTC_DAY('l.created_at');
  const ledger = {
    ...LEDGER_AMOUNTS,
    sold_charges: `count(*) FILTER (WHERE ${FIRST_SALE_LINE})`,
    refunds_made: `count(*) FILTER (WHERE ${FIRST_REFUND_LINE})`,
  };
  const recipientKeys = { day, currency: 'l.currency', recipient_type: 'l.recipient_type', user_id: 'l.user_id' };
  return `
  ${addTo('finance_daily_ledger', { day, currency: 'l.currency' }, ledger, from, undefined, shard)}
  ${addTo('finance_daily_ledger_products', { day, currency: 'l.currency', product_id: 'l.product_id' }, LEDGER_AMOUNTS, from, undefined, shard)}
  ${addTo('finance_daily_ledger_recipients', recipientKeys, recipientMeasures, from, undefined, shard)}`;
}

/**
 * One table's rollup of the ledger's amounts (LEDGER_AMOUNTS) per `column` (the lines' UTC day or month) and `keys`
 * of the lines (named l), kept by a function named for the table: the monthly rollups by product and by recipient.
 */
export function ledgerAmountsRollup(
  table: string,
  column: 'day' | 'month',
  keys: Columns,
  options: { shard?: string; alsoCreate?: string } = {},
): string {
  const period = column === 'day' ? UTC_DAY : UTC_MONTH;
  return splitLineRollup({
    fn: `${table}_add`,
    tables: [table],
    column,
    period,
    add: (from) =>
      addTo(table, { [column]: period('l.created_at'), ...keys }, LEDGER_AMOUNTS, from, undefined, options.shard),
    alsoCreate: options.alsoCreate,
  });
}
