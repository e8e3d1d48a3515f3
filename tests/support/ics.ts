import { expect } from 'vitest';

type IcsEvent = Record<string, string>;

/** The VEVENTs of an .ics file, each as its properties (parameters dropped), after unfolding (RFC 5545 §3.1). */
export function parseIcs(text: string): { calendar: Record<string, string>; events: IcsEvent[] } {
  expect(text).toMatch(/^BEGIN:VCALENDAR\r\n/);
  expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
  const lines = text
    .replace(/\r\n[ \t]/g, '')
    .split('\r\n')
    .filter(Boolean);
  for (const line of text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
  const calendar: Record<string, string> = {};
  const events: IcsEvent[] = [];
  let event: IcsEvent | null = null;
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).split(';')[0]!;
    const value = line.slice(colon + 1);
    if (name === 'BEGIN' && value === 'VEVENT') event = {};
    else if (name === 'END' && value === 'VEVENT') {
      events.push(event!);
      event = null;
    } else if (event) event[name] = value;
    else calendar[name] = value;
  }
  return { calendar, events };
}
