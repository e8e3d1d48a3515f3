import { randomFillSync } from 'node:crypto';

/**
 * A new row's id ordered by its time of making (a UUID of version 7, RFC 9562: 48 bits of Unix milliseconds, then 74
 * random bits), for the rows written most, which are inserted in bulk by fulfilment: in every index keyed by the id
 * (the primary key, and the foreign keys of rows that name it) rows made together land on the same last pages, not
 * each on a random leaf page (a page read, dirtied and, first after a checkpoint, written whole to the write-ahead
 * log). Unique and unguessable as a random id is; it shows when it was made.
 */
const POOLED_IDS = 256;
/** Random bytes for many ids at once (a system call each was most of an id's cost), each 16 used by one id only. */
const pool = new Uint8Array(16 * POOLED_IDS);
let used = POOLED_IDS;

function randomBytes16(): Uint8Array {
  if (used === POOLED_IDS) {
    randomFillSync(pool);
    used = 0;
  }
  return pool.slice(16 * used, 16 * ++used);
}

export function timeOrderedId(now = Date.now()): string {
  const bytes = randomBytes16();
  let time = now;
  for (let i = 5; i >= 0; i--) {
    bytes[i] = time % 256;
    time = Math.floor(time / 256);
  }
  bytes[6] = 0x70 | (bytes[6]! & 0x0f);
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = Buffer.from(bytes).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
