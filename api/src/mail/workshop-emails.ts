import type { NewEmail } from './outbox';
import type { EmailAttachment } from './transport';
import { escapeHtml } from '../shared/escape-html';

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
