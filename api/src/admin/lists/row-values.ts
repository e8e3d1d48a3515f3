import { snakeCaseMappers } from 'objection';
import pg from 'pg';
import type { CopyField } from '../../db/copy-csv';
import type { Row } from '../resource';

/**
 * A list's row, from PostgreSQL's text of its fields, as the list's JSON shows it: each field's value as the driver
 * parses it (its own parser for the type), a model's JSON column parsed from a text as the model does, then as
 * JSON has it (an instant as its ISO text, a number that JSON cannot hold as null, a list or an object as its JSON
 * copy). The fields a lookup joined stay as the driver parses them. Decided once per column, not per row, with no
 * model built: the bytes are those of the model's JSON, which tests/api/list-export-bytes.test.ts holds.
 */

const { parse: camelCased } = snakeCaseMappers();
const TIMESTAMPTZ = 1184;
/** An instant in UTC as PostgreSQL prints it in a UTC session: `2026-11-28 15:04:05.123456+00`. */
const UTC_INSTANT = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(\.\d{1,6})?\+00$/;

type Decode = (text: string) => unknown;

/** JSON's form of a value (what `JSON.parse(JSON.stringify(value))` gives), cheaply for the common kinds. */
function asJson(value: unknown): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  return JSON.parse(JSON.stringify(value)) as unknown;
}

/**
 * An instant's ISO text straight from PostgreSQL's, as the driver's Date would give it (its milliseconds are
 * `1000 × the fraction`, cut: the same arithmetic); any other shape goes through the driver's parser.
 */
function isoInstant(parse: Decode): Decode {
  return (text) => {
    const match = UTC_INSTANT.exec(text);
    if (!match) return asJson(parse(text));
    const ms = match[3] ? Math.trunc(1000 * parseFloat(match[3])) : 0;
    return `${match[1]}T${match[2]}.${String(ms).padStart(3, '0')}Z`;
  };
}

/** A model's JSON column arrives as text from some drivers: parsed when it is JSON, as the model does. */
function jsonColumn(parse: Decode): Decode {
  return (text) => {
    const value = parse(text);
    if (typeof value !== 'string') return asJson(value);
    try {
      return asJson(JSON.parse(value));
    } catch {
      return value;
    }
  };
}

/** PostgreSQL's text kept as it is (text, uuid, an enum: what the driver does not parse). */
const AS_TEXT = pg.types.getTypeParser(pg.types.builtins.TEXT, 'text');
/** Types the driver parses into a number or a boolean that JSON holds as it is. */
const PLAIN = new Set<number>([pg.types.builtins.INT2, pg.types.builtins.INT4, pg.types.builtins.BOOL]);

/** The field's decoder, or null when its text is its value. */
function decoderOf(field: CopyField, key: string, jsonAttributes: readonly string[], looked: ReadonlySet<string>) {
  const parse = pg.types.getTypeParser(field.dataTypeID, 'text') as Decode;
  if (parse === AS_TEXT && !jsonAttributes.includes(key)) return null;
  if (looked.has(key)) return parse;
  if (jsonAttributes.includes(key)) return jsonColumn(parse);
  if (field.dataTypeID === TIMESTAMPTZ) return isoInstant(parse);
  if (PLAIN.has(field.dataTypeID)) return parse;
  return (text: string) => asJson(parse(text));
}

/** Builds each row's object from its fields' text (null for NULL), keyed as the list's JSON keys them. */
export function rowValues(
  fields: readonly CopyField[],
  { jsonAttributes, looked }: { jsonAttributes: readonly string[]; looked: readonly string[] },
): (values: readonly (string | null)[]) => Row {
  const keys = fields.map((f) => Object.keys(camelCased({ [f.name]: null }) as Row)[0]!);
  const joined = new Set(looked);
  const decoders = fields.map((f, i) => decoderOf(f, keys[i]!, jsonAttributes, joined));
  // Every row a copy of one object with all its keys: each row then has the same shape, and filling it is quick.
  const template: Row = Object.fromEntries(keys.map((key) => [key, null]));
  return (values) => {
    const row = { ...template };
    for (let i = 0; i < keys.length; i++) {
      const text = values[i];
      const decode = decoders[i];
      row[keys[i]!] = text == null ? null : decode ? decode(text) : text;
    }
    return row;
  };
}
