import { readFile } from 'node:fs/promises';

export interface ExportTiming {
  rows: number;
  rowsPerSecond: number;
  /** From sending the request to the first byte of the body. */
  firstByteMs: number;
  /** The server process's resident memory before, and its peak while the export ran (sampled from /proc). */
  rssBeforeMb: number;
  rssPeakMb: number;
  ok: boolean;
}

const MB = 1024 * 1024;

function readRss(pid: number): Promise<number> {
  return readFile(`/proc/${pid}/status`, 'utf8').then((s) => Number(/VmRSS:\s+(\d+)/.exec(s)?.[1] ?? 0) * 1024);
}

/** Downloads a CSV to its end, counting its lines (less the header), timing its first byte and the whole. */
export async function timeExport(
  url: string,
  headers: Record<string, string>,
  serverPid: number,
): Promise<ExportTiming> {
  const rssBefore = await readRss(serverPid);
  let rssPeak = rssBefore;
  const sampler = setInterval(() => void readRss(serverPid).then((rss) => (rssPeak = Math.max(rssPeak, rss))), 20);
  const started = performance.now();
  let firstByte = 0;
  let lines = 0;
  try {
    const response = await fetch(url, { headers });
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      if (!firstByte) firstByte = performance.now() - started;
      for (const byte of chunk) if (byte === 10) lines++;
    }
    const seconds = (performance.now() - started) / 1000;
    const rows = Math.max(0, lines - 1);
    return {
      rows,
      rowsPerSecond: rows / seconds,
      firstByteMs: Math.round(firstByte),
      rssBeforeMb: Math.round(rssBefore / MB),
      rssPeakMb: Math.round(rssPeak / MB),
      ok: response.ok,
    };
  } finally {
    clearInterval(sampler);
  }
}
