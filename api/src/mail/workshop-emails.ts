import type { NewEmail } from './outbox';
import type { EmailAttachment } from './transport';
import { escapeHtml } from '../shared/escape-html';
import { canonicalTimeZone } from '../shared/time-zone';
import type { WorkshopReceipt } from './templates';

/** "Tuesday, December 1, 2026 at 18:00 (Europe/Berlin)": the session's time where the workshop is organised. */
export function sessionTime(date: Date, timeZone: string): string {
  const local = new Intl.DateTimeFormat('en-US', {
    dateStyle: 'full',
    timeStyle: 'short',
    hourCycle: 'h23',
    timeZone,
  }).format(date);
  return `${local} (${timeZone})`;
}

export interface ReminderSession {
  title: string;
  startsAt: Date;
  timeZone: string;
  joinUrl: string | null;
}

/**
 * A reminder a day or an hour before a workshop session, to each holder, with the join link (or where it will be)
 * and the session's calendar invite attached.
 */
export function workshopReminderEmail(
  to: string,
  {
    productName,
    session,
    kind,
    pageUrl,
    invite,
  }: {
    productName: string;
    session: ReminderSession;
    kind: 'day' | 'hour';
    pageUrl: string;
    invite: EmailAttachment;
  },
): NewEmail {
  const soon = kind === 'hour' ? 'starts within the hour' : 'starts within a day';
  const when = sessionTime(session.startsAt, session.timeZone);
  const utc = sessionTime(session.startsAt, 'UTC');
  const join = session.joinUrl
    ? { text: `Join here: ${session.joinUrl}`, html: `<a href="${escapeHtml(session.joinUrl)}">Join the session</a>` }
    : {
        text: `The join link will be on My learning before the session: ${pageUrl}`,
        html: `The join link will be on <a href="${escapeHtml(pageUrl)}">My learning</a> before the session.`,
      };
  return {
    kind: `workshop-reminder-${kind}`,
    to,
    subject: `Reminder: ${productName} — ${session.title} ${soon}`,
    text: `${productName}: ${session.title} ${soon}.\n\nWhen: ${when}, ${utc}.\n\n${join.text}\n\nThe calendar invite is attached.\n`,
    html:
      `<p>${escapeHtml(`${productName}: ${session.title}`)} ${soon}.</p>` +
      `<p>When: ${escapeHtml(when)}, ${escapeHtml(utc)}.</p>` +
      `<p>${join.html}</p><p>The calendar invite is attached.</p>`,
    attachments: [invite],
  };
}

interface ReceiptSession {
  title: string;
  startsAt: Date;
  endsAt: Date;
  joinUrl: string | null;
}

/** "Tuesday, December 8, 2026 at 6:30 PM GMT+5:30 to 8:30 PM GMT+5:30 (Asia/Kolkata)": a session in `zone`. */
function sessionSpan(startsAt: Date, endsAt: Date, zone: string): string {
  const at = (date: Date, full: boolean) =>
    new Intl.DateTimeFormat('en-US', {
      ...(full && { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' }),
      hour: 'numeric',
      minute: '2-digit',
      timeZone: zone,
      timeZoneName: 'short',
    })
      .format(date)
      .replace(/[\u2009\u202f]/g, ' '); // ICU's narrow spaces before "PM": plain ones read the same in every client
  const span = `${at(startsAt, true)} to ${at(endsAt, false)}`;
  return zone === 'UTC' ? span : `${span} (${zone})`;
}

/**
 * A workshop receipt's schedule: each session in the buyer's zone (their settings' zone as they chose it, else UTC),
 * the zone named, with its join link when the organisers set one (the buyer holds the workshop now). The calendar
 * file is attached.
 */
export function workshopReceiptSchedule(
  sessions: readonly ReceiptSession[],
  readerZone: string | null,
  pageUrl: string,
): WorkshopReceipt {
  // The name as the buyer chose it (Asia/Kolkata), not the runtime's canonical spelling (Asia/Calcutta).
  const zone = readerZone && canonicalTimeZone(readerZone) ? readerZone : 'UTC';
  const lines = sessions.map((s) => ({ when: sessionSpan(s.startsAt, s.endsAt, zone), ...s }));
  const none = `The sessions are being scheduled: they will be on My learning (${pageUrl}), and we remind you a day and an hour before each.`;
  const text = lines.length
    ? `The workshop’s sessions (times in ${zone}):\n` +
      lines.map((l) => `- ${l.title}: ${l.when}${l.joinUrl ? `\n  Join: ${l.joinUrl}` : ''}`).join('\n') +
      '\nThe calendar file with every session is attached.'
    : none;
  const html = lines.length
    ? `<p>The workshop’s sessions (times in ${escapeHtml(zone)}):</p><ul>` +
      lines
        .map(
          (l) =>
            `<li>${escapeHtml(l.title)}: ${escapeHtml(l.when)}` +
            (l.joinUrl ? ` — <a href="${escapeHtml(l.joinUrl)}">join link</a>` : '') +
            '</li>',
        )
        .join('') +
      '</ul><p>The calendar file with every session is attached.</p>'
    : `<p>${escapeHtml(none)}</p>`;
  return { text, html };
}
