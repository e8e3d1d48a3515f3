import type { Knex } from 'knex';
import pg from 'pg';

/**
 * A query with its values written in, for a statement that takes no parameters (COPY): each value becomes the
 * literal of exactly the text the driver would send as its parameter, untyped as that parameter is, so PostgreSQL
 * reads the same value of the same type and the query matches the rows its parameterised twin does. knex's own
 * toQuery() does not: it writes an instant as Node's local wall-clock time with no offset, another instant when
 * PostgreSQL's session has another time zone (and one text for two instants in the hour clocks go back).
 */

/** The driver's conversion of a value to a parameter's text (pg's utils.prepareValue; not in its types). */
const { prepareValue } = (pg as unknown as { utils: { prepareValue(value: unknown): string | Buffer | null } }).utils;

/** A value as the literal of its parameter's text: NULL, bytes in bytea's hex form, anything else quoted. */
function literal(value: unknown): string {
  // An instant is written as the driver writes it, ISO 8601 with its offset: the same instant whatever Node's TZ.
  const text = prepareValue(value);
  if (text === null) return 'NULL';
  return pg.escapeLiteral(Buffer.isBuffer(text) ? `\\x${text.toString('hex')}` : text);
}

/**
 * The statement from toSQL() with its values in place of its placeholders, read as knex reads them when it numbers
 * them for the driver (a `?` after an odd number of backslashes is a question mark, not a placeholder).
 */
export function inlineBindings({ sql, bindings }: Pick<Knex.Sql, 'sql' | 'bindings'>): string {
  let next = 0;
  const written = sql.replace(/(\\*)(\?)/g, (_, escapes: string) => {
    if (escapes.length % 2) return '?';
    if (next >= bindings.length) throw new Error('a placeholder without its value');
    return literal(bindings[next++]);
  });
  if (next !== bindings.length) throw new Error('a value without its placeholder');
  return written;
}
