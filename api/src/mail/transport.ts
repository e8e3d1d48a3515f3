import nodemailer from 'nodemailer';
import type { Config } from '../config';
import type { Logger } from '../logger';

export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  html?: string | null;
}

export interface MailTransport {
  name: 'smtp' | 'log';
  /** `id` names the outbox row the email came from (in the log, and for tests that read what went out). */
  send(email: OutgoingEmail & { id?: string }): Promise<void>;
}

const LINK = /https?:\/\/[^\s<>"]+/g;

/** SMTP when SMTP_URL is set; otherwise emails go to the server log, links and all, for local use. */
export function createTransport(
  config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM'> & Partial<Pick<Config, 'NODE_ENV'>>,
  logger: Logger,
): MailTransport {
  // In production a log is not a private channel: links are logged without their tokens.
  const shown = (link: string) =>
    config.NODE_ENV === 'production' ? link.replace(/(token=)[^&\s]+/g, '$1[hidden]') : link;
  if (config.SMTP_URL) {
    const smtp = nodemailer.createTransport(config.SMTP_URL, { from: config.MAIL_FROM });
    return {
      name: 'smtp',
      async send(email) {
        await smtp.sendMail({ to: email.to, subject: email.subject, text: email.text, html: email.html ?? undefined });
      },
    };
  }
  return {
    name: 'log',
    async send(email) {
      const links = (email.text.match(LINK) ?? []).map(shown);
      logger.info(
        { email: { id: email.id, to: email.to, subject: email.subject, links } },
        `email to ${email.to}: ${email.subject}`,
      );
    },
  };
}
