import type { Knex } from 'knex';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { inlineBindings } from '../../api/src/db/inline-bindings';
import { useTestDatabase } from '../support/db';

/** Runs `fn` with Node's local time zone set to `zone`, then puts the previous one back. */
async function inTimeZone<T>(zone: string, fn: () => Promise<T>): Promise<T> {
  const before = process.env.TZ;
  process.env.TZ = zone;
  try {
    return await fn();
  } finally {
    if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  }
}

/** Values written into a query for COPY: each must be read exactly as its parameter is. */
describe('a query with its values written in', () => {
  const database = useTestDatabase();
  const db = () => database().db;

  /** A statement's rows, run as COPY would get it: by the driver as it is (knex would number its question marks). */
  async function run(sql: string, values?: unknown[]): Promise<Record<string, unknown>[]> {
    const client = new pg.Client(database().url);
    await client.connect();
    try {
      // Another zone than Node's (UTC here, New York in a test): nothing may depend on the two agreeing.
      await client.query(`SET TIME ZONE 'Asia/Kolkata'`);
      return (await client.query(sql, values)).rows;
    } finally {
      await client.end();
    }
  }

  /** The value as PostgreSQL reads it, through a parameter and written in, both printed as text. */
  async function bothWays(type: string, value: Knex.Value): Promise<[unknown, unknown]> {
    const statement = db().raw(`SELECT (?::${type})::text AS v`, [value]).toSQL();
    const parameterised = await run(statement.toNative().sql, [value]);
    const written = await run(inlineBindings(statement));
    return [parameterised[0]!.v, written[0]!.v];
  }

  it.each([
    ['text', "it's a 'quote'"],
    ['text', 'C:\\path\\with\\backslashes \\x41 \\n'],
    ['text', "a ? in text, a \\' and a ''"],
    ['text', 'Zoë — 日本 😀'],
    ['text', ''],
    ['text[]', ['a,b', 'c"d', "e'f", 'g\\h', '{i}', '', 'NULL', null]],
    ['int[]', [1, -2, 3]],
    ['boolean', true],
    ['boolean', false],
    ['int', -42],
    ['bigint', 9007199254740991],
    ['float8', 0.1],
    ['numeric', 1.2345],
    ['jsonb', { a: "it's", b: ['x\\y', null], c: { d: 1.5 } }],
    ['bytea', Buffer.from([0, 1, 0x27, 0x5c, 0xff])],
    ['text', null],
    ['uuid', '00000000-0000-4000-8000-000000000001'],
  ])('%s %j is read as its parameter is', async (type, value) => {
    const [parameterised, written] = await bothWays(type, value as Knex.Value);
    expect(written).toEqual(parameterised);
  });

  it('keeps two instants of the hour clocks go back apart, whatever Node’s time zone', async () => {
    // 2026-11-01 in New York: 01:30 happens twice, at 05:30Z (EDT) and at 06:30Z (EST).
    const first = new Date('2026-11-01T05:30:00.000Z');
    const second = new Date('2026-11-01T06:30:00.000Z');
    await inTimeZone('America/New_York', async () => {
      // knex's own toQuery writes both as the same local wall-clock text: why it is not used.
      const knexText = (d: Date) => db().raw('SELECT ?', [d]).toQuery();
      expect(knexText(first)).toBe(knexText(second));
      const literals = [first, second].map((instant) => inlineBindings(db().raw('?', [instant]).toSQL()));
      expect(literals[0]).not.toBe(literals[1]);
      const rows = await run(`SELECT (${literals[0]})::timestamptz AS first, (${literals[1]})::timestamptz AS second`);
      expect(rows[0]).toEqual({ first, second });
      for (const type of ['timestamptz', 'date', 'timestamp']) {
        const [parameterised, written] = await bothWays(type, second);
        expect(written, type).toEqual(parameterised);
      }
    });
  });

  it('leaves an escaped question mark as an operator and fills each placeholder in order', async () => {
    const statement = db()
      .raw(`SELECT ?::jsonb \\? ? AS has, ? AS second`, [{ key: 1 }, 'key', 'two'])
      .toSQL();
    const written = inlineBindings(statement);
    expect(written).toBe(`SELECT '{"key":1}'::jsonb ? 'key' AS has, 'two' AS second`);
    expect((await run(written))[0]).toEqual({ has: true, second: 'two' });
  });

  it('refuses a statement whose placeholders and values do not pair up', () => {
    expect(() => inlineBindings({ sql: 'SELECT ?, ?', bindings: [1] })).toThrow('a placeholder without its value');
    expect(() => inlineBindings({ sql: 'SELECT ?', bindings: [1, 2] })).toThrow('a value without its placeholder');
  });
});
