import { Transform, type TransformCallback } from 'node:stream';

/**
 * PostgreSQL's COPY … (FORMAT csv) output made into the exports' CSV (api/src/http/csv.ts, byte for byte), as bytes,
 * without parsing a value: PostgreSQL already quotes a cell holding a comma, a quote or a line break and doubles its
 * quotes. What is left to do, cell by cell in one pass: a text cell that starts a formula gets its apostrophe, one
 * holding a semicolon or a tab or starting or ending with a space gets the quotes PostgreSQL did not give it, an empty
 * text (which COPY quotes, to tell it from NULL) becomes an empty cell, and each record ends with CRLF rather than LF.
 * Numbers (PostgreSQL's own digits) pass untouched. Only whole records go out: the end of a chunk waits for the next.
 */

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;
const TAB = 0x09;
const SPACE = 0x20;
const SEMICOLON = 0x3b;
const APOSTROPHE = 0x27;

/** = + - @, a tab or a carriage return: what makes a cell a formula (after any spaces). */
const FORMULA_START = new Uint8Array(256);
for (const c of [0x3d, 0x2b, 0x2d, 0x40, TAB, CR]) FORMULA_START[c] = 1;

/** Whether the cell in [from, to) starts a formula once its leading spaces are skipped. */
function startsFormula(bytes: Buffer, from: number, to: number): boolean {
  let k = from;
  while (k < to && bytes[k] === SPACE) k++;
  return k < to && FORMULA_START[bytes[k]!] === 1;
}

export class CopyCsvCells extends Transform {
  /** The start of a record not yet whole, kept for the next chunk. */
  #carry: Buffer | null = null;

  /** `numbers[i]`: column i holds numbers, written as they come. `head` goes out at once, before any record. */
  constructor(
    private readonly numbers: readonly boolean[],
    head: string,
  ) {
    super();
    this.push(head);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    const input = this.#carry ? Buffer.concat([this.#carry, chunk]) : chunk;
    const { output, used } = this.#records(input);
    this.#carry = used < input.length ? Buffer.from(input.subarray(used)) : null;
    callback(null, output.length ? output : undefined);
  }

  override _flush(callback: TransformCallback) {
    // COPY ends every record with a line feed: anything left is a record cut short.
    callback(this.#carry ? new Error('the CSV from the database ended inside a record') : null);
  }

  /** The whole records at the start of `input` rewritten, and how many bytes of `input` they took. */
  #records(input: Buffer): { output: Buffer; used: number } {
    const n = input.length;
    // At most three bytes are added to a cell (two quotes, an apostrophe) and one to a record end.
    const out = Buffer.allocUnsafe(3 * n + 16);
    let o = 0; // bytes written
    let run = 0; // start of the input not yet copied: unchanged bytes are copied a run at a time
    let committed = 0; // output bytes of whole records
    let used = 0; // input bytes of whole records
    let column = 0;
    let i = 0;
    const copyTo = (end: number) => {
      o += input.copy(out, o, run, end);
      run = end;
    };
    while (i < n) {
      const text = !this.numbers[column];
      if (input[i] === QUOTE) {
        // Quoted by PostgreSQL (a comma, a quote or a line break inside): quoted here too.
        let j = i + 1;
        for (;;) {
          while (j < n && input[j] !== QUOTE) j++;
          if (j + 1 < n && input[j + 1] === QUOTE) j += 2;
          else break;
        }
        if (j + 1 >= n) break; // the closing quote, or what follows it, is in the next chunk
        if (j === i + 1) {
          copyTo(i); // an empty text: an empty cell
          run = j + 1;
        } else if (text && startsFormula(input, i + 1, j)) {
          copyTo(i + 1);
          out[o++] = APOSTROPHE;
        }
        i = j + 1;
      } else {
        let j = i;
        let quote = false;
        for (let c = input[j]; j < n && c !== COMMA && c !== LF; c = input[++j])
          if (c === SEMICOLON || c === TAB) quote = true;
        if (j >= n) break;
        if (text && j > i) {
          const formula = startsFormula(input, i, j);
          quote ||= (!formula && input[i] === SPACE) || input[j - 1] === SPACE;
          if (quote || formula) {
            copyTo(i);
            if (quote) out[o++] = QUOTE;
            if (formula) out[o++] = APOSTROPHE;
            copyTo(j);
            if (quote) out[o++] = QUOTE;
          }
        }
        i = j;
      }
      if (input[i] === COMMA) {
        column++;
        i++;
      } else {
        copyTo(i); // the record's LF goes out as CRLF
        out[o++] = CR;
        column = 0;
        used = ++i;
        copyTo(i);
        committed = o;
      }
    }
    return { output: out.subarray(0, committed), used };
  }
}
