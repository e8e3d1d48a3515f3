import type { NewEmail } from './outbox';
import { escapeHtml } from '../shared/escape-html';

/** The longest piece of a reply an email quotes; the rest is on the lesson page. */
export const REPLY_QUOTE_LENGTH = 500;

/** Plain text cut to `max` characters at a word's end, with an ellipsis when something was cut. */
export function shortened(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const atWord = cut.lastIndexOf(' ');
  return `${(atWord > max * 0.6 ? cut.slice(0, atWord) : cut).trimEnd()}…`;
}

export interface ReplyToYourComment {
  /** The replier as the thread shows them (shared/shown-name.ts). */
  replierName: string;
  replyText: string;
  /** The start of the comment they replied to, so the reader knows which. */
  commentText: string;
  lessonTitle: string;
  courseTitle: string;
  /** The lesson page, scrolled to the reply. */
  replyUrl: string;
  /** The unsubscribe page, and the one-click address mail clients POST to (RFC 8058). */
  unsubscribe: { page: string; oneClick: string };
  settingsUrl: string;
}

/**
 * Someone replied to the reader's comment: who, the reply (plain text, shortened), on which lesson, a link that opens
 * the lesson at the reply, and how to stop these emails (one click, no sign-in; or in Settings).
 */
export function commentReplyEmail(to: string, reply: ReplyToYourComment): NewEmail {
  const quote = shortened(reply.replyText, REPLY_QUOTE_LENGTH);
  const yours = shortened(reply.commentText, 120);
  const where = `“${reply.lessonTitle}” (${reply.courseTitle})`;
  const headline = `${reply.replierName} replied to your comment on ${where}`;
  const why = 'You get this email because you commented on this lesson.';
  const stop = 'Stop emails about replies to your comments';
  const text = [
    `${headline}:`,
    quote
      .split('\n')
      .map((line) => `> ${line}`)
      .join('\n'),
    `Your comment: “${yours}”`,
    `Read the reply and answer it: ${reply.replyUrl}`,
    `${why} ${stop} (one click, no sign-in): ${reply.unsubscribe.page}\nOr choose in your settings: ${reply.settingsUrl}`,
  ].join('\n\n');
  const html =
    `<p>${escapeHtml(headline)}:</p>` +
    `<blockquote style="margin:0 0 1em;padding:0 1em;border-left:3px solid #ccc">${escapeHtml(quote)}</blockquote>` +
    `<p>Your comment: “${escapeHtml(yours)}”</p>` +
    `<p><a href="${escapeHtml(reply.replyUrl)}">Read the reply and answer it</a></p>` +
    `<p style="font-size:0.9em;color:#555">${escapeHtml(why)} <a href="${escapeHtml(reply.unsubscribe.page)}">${stop}</a>` +
    ` (one click, no sign-in), or choose in <a href="${escapeHtml(reply.settingsUrl)}">your settings</a>.</p>`;
  return {
    kind: 'comment-reply',
    to,
    subject: `${reply.replierName} replied to your comment on “${reply.lessonTitle}”`,
    text: `${text}\n`,
    html,
    listUnsubscribeUrl: reply.unsubscribe.oneClick,
  };
}

export interface CompletedCourse {
  courseTitle: string;
  learnerName: string;
  /** The certificate's public verification page, and its PDF. */
  certificateUrl: string;
  pdfUrl: string;
}

/** The learner finished a course: congratulations, and their certificate (its page to share, and the PDF). */
export function courseCompleteEmail(to: string, course: CompletedCourse): NewEmail {
  const headline = `Congratulations, ${course.learnerName}: you finished ${course.courseTitle}!`;
  const share = 'Your certificate of completion is ready. Anyone can check it at its page, so share the link freely:';
  return {
    kind: 'course-complete',
    to,
    subject: `You finished ${course.courseTitle}: your certificate is ready`,
    text: `${headline}\n\n${share}\n${course.certificateUrl}\n\nDownload it as a PDF:\n${course.pdfUrl}\n`,
    html:
      `<p><strong>${escapeHtml(headline)}</strong></p>` +
      `<p>${escapeHtml(share.replace(/:$/, '.'))}</p>` + // the links follow as buttons
      `<p><a href="${escapeHtml(course.certificateUrl)}">Your certificate</a></p>` +
      `<p><a href="${escapeHtml(course.pdfUrl)}">Download it as a PDF</a></p>`,
  };
}
