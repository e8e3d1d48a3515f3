import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { prepared } from './prepared';

/**
 * Many rows of a table written by one statement whose text does not depend on how many there are: the rows travel as
 * one jsonb parameter, read back with the table's own row type (`jsonb_populate_recordset`), so PostgreSQL parses and
 * plans the same text for a batch of one as for a batch of fifty (and, prepared by name, once per connection).
 */

type Row = Record<string, unknown>;

export interface RowsInsert {
  table: string;
  rows: Row[];
  /** Columns the rows carry as JSON text (as knex takes jsonb): sent as the JSON they hold. */
  json?: string[];
  /** Columns computed in SQL, beside the row's own: `e.v` is the row's JSON (with its `extras`, snake_cased). */
  computed?: Record<string, string>;
  /** Keys the rows carry for `computed` only: not columns. */
  extras?: string[];
  /** What follows the SELECT: ON CONFLICT, RETURNING. */
  suffix?: string;
}

/**
 * A column's name as PostgreSQL spells it (the connection's identifier mapping: `createdAt` → `created_at`), worked
 * out once per name and connection config: every key of every row of a batch asks, and knex's formatting is what it costs.
 */
const spelled = new WeakMap<object, Map<string, string>>();
function columnName(db: Knex | Knex.Transaction, name: string): string {
  // A transaction's client is its own object, sharing its connection's config (and so its identifier mapping).
  const config = (db.client as { config: object }).config;
  let names = spelled.get(config);
  if (!names) spelled.set(config, (names = new Map()));
  let column = names.get(name);
  if (column === undefined) names.set(name, (column = db.raw('??', [name]).toQuery().slice(1, -1)));
  return column;
}

/**
 * The INSERT of `rows` as one statement part (for a WITH), its text fixed by the table and the columns the rows carry
 * (rows carrying other columns go in a part of their own: a column a row omits keeps its default).
 */
export function rowsInsert(db: Knex | Knex.Transaction, spec: RowsInsert): Knex.Raw {
  const json = new Set(spec.json ?? []);
  const extras = new Set(spec.extras ?? []);
  const columns = [...new Set(spec.rows.flatMap((row) => Object.keys(row)))].filter((c) => !extras.has(c)).sort();
  const computed = Object.entries(spec.computed ?? {});
  const values = spec.rows.map((row) =>
    Object.fromEntries(
      Object.entries(row).map(([key, value]) => [
        columnName(db, key),
        json.has(key) && typeof value === 'string' ? JSON.parse(value) : value,
      ]),
    ),
  );
  const names = [...columns, ...computed.map(([column]) => column)].map(() => '??').join(', ');
  const picked = columns.map(() => 'r.??').join(', ');
  // Rows read by one call for the whole set; a row read per element (a function scanned again for each, its row type
  // copied each time) only where a computed column reads the element's own JSON.
  const perElement = computed.some(([, expression]) => expression.includes('e.v'));
  const source = perElement
    ? ' FROM jsonb_array_elements(?::jsonb) AS e(v) CROSS JOIN LATERAL jsonb_populate_record(NULL::??, e.v) AS r'
    : ' FROM jsonb_populate_recordset(NULL::??, ?::jsonb) AS r';
  const sql =
    `INSERT INTO ?? (${names}) SELECT ${[picked, ...computed.map(([, expression]) => expression)].filter(Boolean).join(', ')}` +
    source +
    (spec.suffix ? ` ${spec.suffix}` : '');
  const rowsJson = JSON.stringify(values);
  const from = perElement ? [rowsJson, spec.table] : [spec.table, rowsJson];
  return db.raw(sql, [spec.table, ...columns, ...computed.map(([column]) => column), ...columns, ...from]);
}

/** Rows grouped by the columns they carry, one `rowsInsert` spec a group. */
export function byColumns(spec: RowsInsert): RowsInsert[] {
  const groups = new Map<string, Row[]>();
  for (const row of spec.rows) {
    const key = Object.keys(row).sort().join(',');
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return [...groups.values()].map((rows) => ({ ...spec, rows }));
}

/** Statement parts sent as one statement (a WITH), prepared under a name its text gives. */
export async function sendTogether(
  trx: Knex.Transaction,
  label: string,
  parts: [string, Knex.QueryBuilder | Knex.Raw][],
): Promise<void> {
  if (parts.length === 0) return;
  const write = parts
    .reduce<Knex.QueryBuilder | null>((q, [name, part]) => (q ? q.with(name, part) : trx.with(name, part)), null)!
    .select(trx.raw('1 AS sent'));
  const text = write.toSQL().sql;
  const digest = createHash('sha1').update(text).digest('hex').slice(0, 16);
  await write.options(prepared(trx, `${label}-${digest}`));
}
