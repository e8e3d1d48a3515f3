import type { Transporter } from 'nodemailer';
import addressparser from 'nodemailer/lib/addressparser';
import type { Config } from '../config';
import type { Logger } from '../logger';

/** A file sent with an email (a calendar invite): text content, stored with the email in the outbox. */
export interface EmailAttachment {
  filename: string;
  contentType: string;
  content: string;
}

export interface OutgoingEmail {
  to: string;
  /** The sender's display name (the school's); the address is always MAIL_FROM's. Absent: MAIL_FROM's own name. */
  fromName?: string | null;
  /** Where replies go (the school's support address), when there is one. */
  replyTo?: string | null;
  subject: string;
  text: string;
  html?: string | null;
  attachments?: EmailAttachment[] | null;
  /**
   * Where a mail client unsubscribes the reader with one click (RFC 8058): sent as List-Unsubscribe with
   * List-Unsubscribe-Post, so the client POSTs there (no sign-in, no page) when the reader chooses Unsubscribe.
   */
  listUnsubscribeUrl?: string | null;
}

/** The RFC 8058 headers of an email that has a one-click unsubscribe address. */
export function unsubscribeHeaders(email: Pick<OutgoingEmail, 'listUnsubscribeUrl'>): Record<string, string> {
  if (!email.listUnsubscribeUrl) return {};
  return {
    'List-Unsubscribe': `<${email.listUnsubscribeUrl}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
}

export interface MailTransport {
  name: 'smtp' | 'log';
  /** The longest one send may take before it gives up; a run of the send job is allowed twice that. */
  timeoutSeconds: number;
  /** `id` names the outbox row the email came from (in the log, and for tests that read what went out). */
  send(email: OutgoingEmail & { id?: string }): Promise<void>;
}

const LINK = /https?:\/\/[^\s<>"]+/g;

/** MAIL_FROM (`Courses <no-reply@example.com>`, or a bare address) as its display name and its address. */
function senderOf(mailFrom: string): { name: string; address: string } {
  const [first] = addressparser(mailFrom, { flatten: true });
  return { name: first?.name ?? '', address: first?.address || mailFrom.trim() };
}

/** SMTP when SMTP_URL is set; otherwise emails go to the server log, links and all, for local use. */
export function createTransport(
  config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM'> & Partial<Pick<Config, 'NODE_ENV' | 'SMTP_TIMEOUT_MS'>>,
  logger: Logger,
): MailTransport {
  // In production a log is not a private channel: links are logged without their tokens.
  const shown = (link: string) =>
    config.NODE_ENV === 'production' ? link.replace(/(token=)[^&\s]+/g, '$1[hidden]') : link;
  if (config.SMTP_URL) {
    // Each step (connect, greeting, every reply) gives up after SMTP_TIMEOUT_MS, not nodemailer's 10 minutes.
    const stepMs = config.SMTP_TIMEOUT_MS ?? 20_000;
    const options = { url: config.SMTP_URL, connectionTimeout: stepMs, greetingTimeout: stepMs, socketTimeout: stepMs };
    // Loaded with the first email, not at start: nodemailer is many modules a starting server does not need yet.
    let smtp: Promise<Transporter> | undefined;
    const transporter = () =>
      (smtp ??= import('nodemailer').then(({ default: nodemailer }) =>
        nodemailer.createTransport(options, { from: config.MAIL_FROM }),
      ));
    const sender = senderOf(config.MAIL_FROM);
    const domain = sender.address.split('@')[1] || 'localhost';
    return {
      name: 'smtp',
      timeoutSeconds: Math.ceil((3 * stepMs) / 1000),
      async send(email) {
        await (
          await transporter()
        ).sendMail({
          // An address object: nodemailer quotes the name, or encodes it (RFC 2047) when it is not ASCII.
          from: { name: email.fromName ?? sender.name, address: sender.address },
          replyTo: email.replyTo ?? undefined,
          to: email.to,
          subject: email.subject,
          text: email.text,
          html: email.html ?? undefined,
          attachments: email.attachments?.map(({ filename, contentType, content }) => ({
            filename,
            contentType,
            content,
          })),
          // The same id on every attempt: a relay that got an attempt whose answer we never saw drops the copy.
          messageId: email.id ? `<${email.id}@${domain}>` : undefined,
          headers: unsubscribeHeaders(email),
        });
      },
    };
  }
  return {
    name: 'log',
    timeoutSeconds: 5,
    // Attachments stay out of the log: an invite carries a join link meant for the buyer only.
    async send(email) {
      const links = (email.text.match(LINK) ?? []).map(shown);
      logger.info(
        { email: { id: email.id, to: email.to, subject: email.subject, links } },
        `email to ${email.to}: ${email.subject}`,
      );
    },
  };
}
