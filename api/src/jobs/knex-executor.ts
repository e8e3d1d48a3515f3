import type { Knex } from 'knex';

/** What pg-boss runs its SQL through when it is handed a connection rather than opening its own pool. */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[]; rowCount?: number }>;
}

/**
 * pg-boss's SQL, run on a knex pool or inside a knex transaction (so a job is added in the same transaction as the
 * rows it is about). pg-boss numbers its parameters ($1, $2, ...) and may use one twice; knex binds `?` in order, so
 * each `$n` becomes a `?` with its value repeated, and any literal `?` is escaped. Rows keep PostgreSQL's names.
 */
/**
 * A value as knex binds it. pg-boss hands a failed run's error over as a plain object (serialize-error), in which a
 * driver error's unset fields are `undefined`: knex refuses any undefined binding, deep inside objects too, so plain
 * objects go as the JSON PostgreSQL would be sent anyway (undefined fields left out).
 */
function bindable(value: unknown): unknown {
  if (value === undefined) return null;
  const plainObject = value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype;
  return plainObject ? JSON.stringify(value) : value;
}

/** One of pg-boss's statements as knex's, not sent yet. */
export function knexStatement(db: Knex | Knex.Transaction, text: string, values?: unknown[]): Knex.Raw {
  let sql = text;
  const bindings: unknown[] = [];
  if (values?.length) {
    sql = text.replaceAll('?', '\\?').replace(/\$(\d+)/g, (_, n: string) => {
      bindings.push(bindable(values[Number(n) - 1]));
      return '?';
    });
  }
  return db.raw(sql, bindings as Knex.RawBinding[]).queryContext({ keepNames: true });
}

export function knexExecutor(db: Knex | Knex.Transaction): SqlExecutor {
  return {
    executeSql: async (text, values) => knexStatement(db, text, values),
  };
}
