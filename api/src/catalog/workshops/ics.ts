/**
 * Calendar invites for workshop sessions (RFC 5545). Each session is one VEVENT whose UID is derived from the
 * session's id, so a calendar that imports a later copy (after a time change) replaces the event rather than adding
 * a second one; SEQUENCE grows with every edit (the row's change count), which tells the calendar the newer copy wins.
 */

export interface InviteSession {
  id: string;
  title: string;
  startsAt: Date;
  endsAt: Date;
  timeZone: string;
  joinUrl: string | null;
  /** Counts the session's changes (a database trigger adds one on each). */
  sequence: number;
}

export const ICS_CONTENT_TYPE = 'text/calendar; charset=utf-8';

/** 20261201T170000Z: UTC, as DTSTART/DTEND/DTSTAMP take it. */
const utcStamp = (date: Date) =>
  date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** TEXT values escape backslash, semicolon, comma and newlines (RFC 5545 §3.3.11). */
const escapeText = (text: string) =>
  text.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');

/** Lines longer than 75 octets are folded: CRLF and one space, never inside a UTF-8 character (§3.1). */
function fold(line: string): string {
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char);
    if (octets + size > (parts.length ? 74 : 75)) {
      parts.push(current);
      current = '';
      octets = 0;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

/** The stable UID of a session's event, the same in every invite and reminder. */
export const sessionUid = (sessionId: string, publicUrl: string) =>
  `workshop-session-${sessionId}@${new URL(publicUrl).hostname}`;

/**
 * A VCALENDAR with one VEVENT per session. `productName` names the workshop; `pageUrl` is where the event points when
 * the session has no join link yet.
 */
export function workshopCalendar({
  sessions,
  productName,
  pageUrl,
  publicUrl,
  now,
}: {
  sessions: readonly InviteSession[];
  productName: string;
  pageUrl: string;
  publicUrl: string;
  now: Date;
}): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Learning platform//Workshops//EN', 'CALSCALE:GREGORIAN'];
  lines.push('METHOD:PUBLISH');
  for (const session of sessions) {
    const url = session.joinUrl ?? pageUrl;
    const description = [
      `${productName}: ${session.title}`,
      `Time zone of the workshop: ${session.timeZone}`,
      session.joinUrl ? `Join: ${session.joinUrl}` : `The join link will be on ${pageUrl} before the session.`,
    ].join('\n');
    lines.push(
      'BEGIN:VEVENT',
      `UID:${sessionUid(session.id, publicUrl)}`,
      `DTSTAMP:${utcStamp(now)}`,
      `DTSTART:${utcStamp(session.startsAt)}`,
      `DTEND:${utcStamp(session.endsAt)}`,
      `SEQUENCE:${session.sequence}`,
      `SUMMARY:${escapeText(`${productName}: ${session.title}`)}`,
      `DESCRIPTION:${escapeText(description)}`,
      `URL:${url}`,
      `LOCATION:${escapeText(url)}`,
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return `${lines.map(fold).join('\r\n')}\r\n`;
}
