import type { Cue } from './models';

/** The largest caption file kept (the database's check says the same). */
export const MAX_VTT_BYTES = 1024 * 1024;

/** Why a caption file is not WebVTT, and on which line (1-based; 0 when it is about the whole file). */
export class WebVttError extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(line ? `line ${line}: ${reason}` : reason);
    this.name = 'WebVttError';
  }
}

export interface ParsedVtt {
  /** The cues in file order, times in seconds, text without markup (what a transcript shows). */
  cues: Cue[];
}

// hh:mm:ss.ttt or mm:ss.ttt (hours any number of digits; minutes and seconds 00–59).
const TIMESTAMP = /^(?:(\d{2,}):)?([0-5]\d):([0-5]\d)\.(\d{3})$/;
const ARROW = '-->';

function seconds(stamp: string): number | null {
  const match = TIMESTAMP.exec(stamp);
  if (!match) return null;
  const [, hours = '0', minutes, secs, millis] = match;
  return Number(hours) * 3600 + Number(minutes) * 60 + Number(secs) + Number(millis) / 1000;
}

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&nbsp;': ' ',
  '&lrm;': '',
  '&rlm;': '',
  '&quot;': '"',
  '&apos;': "'",
};

/** A cue's payload as plain text: voice, class and timestamp tags dropped, entities decoded, lines joined. */
function plainText(lines: string[]): string {
  return lines
    .map((line) =>
      line
        .replace(/<[^>]*>/g, '')
        .replace(/&(?:amp|lt|gt|nbsp|lrm|rlm|quot|apos);/g, (entity) => ENTITIES[entity] ?? entity)
        .trim(),
    )
    .filter(Boolean)
    .join(' ');
}

/**
 * Reads a WebVTT file (https://www.w3.org/TR/webvtt1/) strictly enough that every browser shows all of it: the
 * `WEBVTT` signature, blocks separated by blank lines, NOTE/STYLE/REGION blocks skipped, each cue an optional
 * identifier, a `start --> end [settings]` line whose end comes after its start, and its text. Throws a WebVttError
 * naming the line where it broke; a file without a single cue is refused too.
 */
export function parseWebVtt(text: string): ParsedVtt {
  if (Buffer.byteLength(text, 'utf8') > MAX_VTT_BYTES) {
    throw new WebVttError(0, `the file is larger than ${MAX_VTT_BYTES / 1024 / 1024} MB`);
  }
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  if (!/^WEBVTT(?:[ \t].*)?$/.test(lines[0] ?? '')) {
    throw new WebVttError(1, 'a WebVTT file starts with the line "WEBVTT"');
  }
  const cues: Cue[] = [];
  let index = 1;
  // The header: anything up to the first blank line.
  while (index < lines.length && lines[index] !== '') {
    if (lines[index]!.includes(ARROW)) {
      throw new WebVttError(index + 1, 'leave a blank line between "WEBVTT" and the first cue');
    }
    index++;
  }
  while (index < lines.length) {
    while (index < lines.length && lines[index]!.trim() === '') index++;
    if (index >= lines.length) break;
    const blockStart = index;
    const block: string[] = [];
    while (index < lines.length && lines[index]!.trim() !== '') block.push(lines[index++]!);
    const first = block[0]!;
    if (/^(NOTE|STYLE|REGION)(?:[ \t]|$)/.test(first) && !first.includes(ARROW)) continue;

    const timingAt = first.includes(ARROW) ? 0 : 1;
    const timing = block[timingAt];
    const lineNumber = blockStart + timingAt + 1;
    if (timing === undefined || !timing.includes(ARROW)) {
      throw new WebVttError(blockStart + 1, `expected a cue timing such as "00:00:01.000 --> 00:00:04.000"`);
    }
    const [startText = '', rest = ''] = timing.split(ARROW).map((part) => part.trim());
    const endText = rest.split(/[ \t]+/)[0] ?? '';
    const start = seconds(startText);
    const end = seconds(endText);
    if (start === null) throw new WebVttError(lineNumber, `"${startText}" is not a time like 00:01.000`);
    if (end === null) throw new WebVttError(lineNumber, `"${endText}" is not a time like 00:04.000`);
    if (end <= start) throw new WebVttError(lineNumber, `the cue ends (${endText}) before it starts (${startText})`);
    const payload = block.slice(timingAt + 1);
    const nested = payload.findIndex((line) => line.includes(ARROW));
    if (nested >= 0) {
      throw new WebVttError(lineNumber + 1 + nested, 'a cue timing inside the text: put a blank line before it');
    }
    cues.push({ start, end, text: plainText(payload) });
  }
  if (!cues.length) throw new WebVttError(0, 'the file has no cues');
  return { cues };
}

/** The cues a caption file holds, for the console's summary: 0 when it no longer reads as WebVTT. */
export function cueCount(vtt: string): number {
  try {
    return parseWebVtt(vtt).cues.length;
  } catch {
    return 0;
  }
}
