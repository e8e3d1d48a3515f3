import { Transform, type TransformCallback } from 'node:stream';

/**
 * PostgreSQL's COPY … TO STDOUT in its text format, read as rows of PostgreSQL's own text: a tab between fields, a
 * line feed after each row, `\N` for NULL, and a backslash before a tab, a line break or a backslash inside a value.
 * Each whole row becomes one CSV line through `line`; the end of a chunk waits for the next, so no character of
 * UTF-8 is cut in two. No per-row promise, no row object kept: a chunk in, its lines out.
 */

const LF = 0x0a;
const ESCAPED: Readonly<Record<string, string>> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };
const ESCAPE = /\\(?:([0-7]{1,3})|x([0-9a-fA-F]{1,2})|(.))/gs;

/** A field as its text: PostgreSQL's escapes undone (COPY writes only the few above, the rest is read as the docs say). */
function unescaped(field: string): string {
  return field.replace(ESCAPE, (_, octal?: string, hex?: string, char?: string) =>
    octal
      ? String.fromCharCode(parseInt(octal, 8))
      : hex
        ? String.fromCharCode(parseInt(hex, 16))
        : (ESCAPED[char!] ?? char!),
  );
}

/** The fields of the row in text[start, end): null for `\N`, the value's text otherwise. */
function fieldsOf(text: string, start: number, end: number, into: (string | null)[]): (string | null)[] {
  let n = 0;
  let from = start;
  for (;;) {
    let to = text.indexOf('\t', from);
    if (to < 0 || to > end) to = end;
    const field = text.slice(from, to);
    into[n++] = field === '\\N' ? null : field.includes('\\') ? unescaped(field) : field;
    if (to === end) break;
    from = to + 1;
  }
  into.length = n;
  return into;
}

export class CopyTextRows extends Transform {
  /** The start of a row not yet whole, kept for the next chunk. */
  #carry: Buffer | null = null;
  /** One array reused for every row's fields: `line` reads it and lets it go. */
  readonly #fields: (string | null)[] = [];

  /** `head` goes out at once, before any row; `line` makes a row's CSV line (CRLF-terminated) from its fields. */
  constructor(
    head: string,
    private readonly line: (fields: readonly (string | null)[]) => string,
  ) {
    // Room for a few chunks, so the socket has something to send while PostgreSQL writes the next rows.
    super({ readableHighWaterMark: 1024 * 1024 });
    this.push(head);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    const input = this.#carry ? Buffer.concat([this.#carry, chunk]) : chunk;
    const last = input.lastIndexOf(LF);
    if (last < 0) {
      this.#carry = Buffer.from(input);
      return callback();
    }
    this.#carry = last + 1 < input.length ? Buffer.from(input.subarray(last + 1)) : null;
    const text = input.toString('utf8', 0, last + 1);
    let out = '';
    try {
      for (let start = 0; start < text.length;) {
        const end = text.indexOf('\n', start);
        out += this.line(fieldsOf(text, start, end, this.#fields));
        start = end + 1;
      }
    } catch (error) {
      return callback(error as Error);
    }
    callback(null, out);
  }

  override _flush(callback: TransformCallback) {
    // COPY ends every row with a line feed: anything left is a row cut short.
    callback(this.#carry ? new Error('the rows from the database ended inside a row') : null);
  }
}
