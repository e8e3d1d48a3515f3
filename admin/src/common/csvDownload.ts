/**
 * Downloads a streamed CSV export with progress: the API announces its data rows in X-Total-Rows, then streams
 * RFC 4180 records (CRLF-terminated, a header row first); the body is read chunk by chunk, counting records, and
 * saved as a file once complete.
 */

export interface CsvProgress {
  /** Data rows received so far (the header row excluded). */
  rows: number;
  /** Data rows announced by the API; null when it did not say. */
  total: number | null;
  /** The announced total is the database's estimate (a list of more than ten thousand rows). */
  estimated: boolean;
  bytes: number;
}

export interface CsvFile {
  filename: string;
  rows: number;
  total: number | null;
  blob: Blob;
}

/** The API refused the export: its message (if it gave one), its status, and the fields it is about (`from`, `to`). */
export class ExportRefused extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly errors: Record<string, string>,
  ) {
    super(message);
    this.name = 'ExportRefused';
  }
}

const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;

/**
 * Counts CRLF-terminated records across chunks. A CRLF inside a quoted field is data, not a record's end; a doubled
 * quote ("") toggles the quoted state twice, so it needs no special case. A last record without its CRLF counts too.
 */
export function csvRecordCounter() {
  let quoted = false;
  let afterCr = false;
  let open = false;
  let records = 0;
  return {
    feed(chunk: Uint8Array): number {
      for (let i = 0; i < chunk.length; i++) {
        const byte = chunk[i]!;
        if (byte === LF && afterCr && !quoted) {
          records++;
          open = false;
          afterCr = false;
          continue;
        }
        if (byte === QUOTE) quoted = !quoted;
        afterCr = byte === CR;
        open = true;
      }
      return records;
    },
    /** Records once the stream has ended. */
    end(): number {
      return records + (open ? 1 : 0);
    },
  };
}

/** The filename of `Content-Disposition: attachment; filename="charges-2026-01-01-2026-01-31.csv"`. */
export function filenameOf(disposition: string | null): string | null {
  const match = disposition ? /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition) : null;
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]!.trim());
  } catch {
    return match[1]!.trim();
  }
}

async function refusal(response: Response): Promise<ExportRefused> {
  let body: { message?: string; errors?: Record<string, string> } = {};
  try {
    body = (await response.json()) as typeof body;
  } catch {
    // not JSON: the status says enough
  }
  return new ExportRefused(body.message ?? '', response.status, body.errors ?? {});
}

/** How often progress is reported while the rows stream (a re-render per chunk would be wasted work). */
const PROGRESS_EVERY_MS = 100;

/**
 * Fetches a CSV export with the session cookie (a GET needs no CSRF header), reporting progress as records arrive.
 * Rejects with ExportRefused when the API refuses, and with the AbortError when `signal` aborts.
 */
export async function fetchCsv(
  url: string,
  options: { signal: AbortSignal; fallbackName: string; onProgress(progress: CsvProgress): void },
): Promise<CsvFile> {
  const response = await fetch(url, {
    credentials: 'include',
    signal: options.signal,
    headers: { Accept: 'text/csv' },
  });
  if (!response.ok) throw await refusal(response);

  const announced = response.headers.get('X-Total-Rows');
  const total = announced !== null && /^\d+$/.test(announced.trim()) ? Number(announced) : null;
  const estimated = response.headers.get('X-Total-Estimated') === 'true';
  const filename = filenameOf(response.headers.get('Content-Disposition')) ?? options.fallbackName;
  const counter = csvRecordCounter();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  let reported = 0;

  const reader = response.body?.getReader();
  if (reader) {
    options.signal.addEventListener('abort', () => void reader.cancel().catch(() => undefined), { once: true });
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      options.signal.throwIfAborted();
      chunks.push(value);
      bytes += value.byteLength;
      const records = counter.feed(value);
      if (performance.now() - reported >= PROGRESS_EVERY_MS) {
        reported = performance.now();
        options.onProgress({ rows: Math.max(records - 1, 0), total, estimated, bytes });
      }
    }
  } else {
    // No streaming body (very old browsers): all at once.
    const whole = new Uint8Array(await response.arrayBuffer());
    chunks.push(whole);
    bytes = whole.byteLength;
    counter.feed(whole);
  }
  options.signal.throwIfAborted();

  const rows = Math.max(counter.end() - 1, 0);
  options.onProgress({ rows, total, estimated, bytes });
  return { filename, rows, total, blob: new Blob(chunks as BlobPart[], { type: 'text/csv;charset=utf-8' }) };
}

/** Saves a file the way a download link does: an object URL on a temporary `<a download>`. */
export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click is handled; the URL is kept a little longer for slow machines.
  window.setTimeout(() => URL.revokeObjectURL(url), 30_000);
}
