import { timeOrderedId } from '../db/time-ordered-id';
import { isDeletedAddress } from '../shared/deleted-account';
import type { OutboxEmail } from './models';
import type { OutgoingEmail } from './transport';

/** Attempts an email gets: the first and five retries, EMAIL_RETRY_SECONDS apart and doubling (with jitter). */
export const MAX_ATTEMPTS = 6;
export const SEND_EMAIL = 'send-email';
/** The minute's sweep that gives an unsent email with no job left a new one. */
export const REQUEUE_EMAILS = 'requeue-emails';

/** What an email's stored bodies say where its secret goes; the sender puts the secret back as it sends. */
export const SECRET_PLACEHOLDER = '[redacted]';

export interface NewEmail extends OutgoingEmail {
  kind: string;
  /**
   * A bearer secret the email carries (a sign-in link's token). The bodies are stored with `[redacted]` in its place,
   * the secret beside them until the email is sent: the statement that marks it sent drops it.
   */
  secret?: string;
  /** The console request that made it (one email per key: a double click sends one). */
  resendKey?: string;
}

/**
 * The row for an email. Its secret is kept apart from the bodies (never in them, so nothing redacts them later)
 * and in the row, not in memory: an email still unsent when the process stops goes out after the restart.
 */
export function emailRow(email: NewEmail) {
  const hide = (text: string) => (email.secret ? text.replaceAll(email.secret, SECRET_PLACEHOLDER) : text);
  return {
    id: timeOrderedId(),
    toAddress: email.to,
    fromName: email.fromName ?? null,
    replyTo: email.replyTo ?? null,
    subject: hide(email.subject),
    textBody: hide(email.text),
    htmlBody: email.html ? hide(email.html) : null,
    secret: email.secret || null,
    kind: email.kind,
    // jsonb: knex would write a bare array as a PostgreSQL array.
    attachments: email.attachments?.length ? JSON.stringify(email.attachments) : null,
    resendKey: email.resendKey ?? null,
    listUnsubscribeUrl: email.listUnsubscribeUrl ?? null,
    // A deleted account's address receives nothing (a reply to a comment it left, a refund settled later): the row
    // records that an email was due, without its body, so no run sends it.
    ...(isDeletedAddress(email.to) && {
      textBody: null,
      htmlBody: null,
      secret: null,
      attachments: null,
      listUnsubscribeUrl: null,
      status: 'failed',
      lastError: 'Not sent: the account was deleted.',
    }),
  };
}

/** Why an email cannot be resent as a copy (see `resend`), or null. */
export function whyNotResendable(
  email: Pick<OutboxEmail, 'textBody' | 'htmlBody' | 'secret'> & { kind?: string },
): string | null {
  if (email.textBody === null) return 'Its body was dropped after the retention period, so it cannot be sent again.';
  if (email.secret || email.textBody.includes(SECRET_PLACEHOLDER) || email.htmlBody?.includes(SECRET_PLACEHOLDER))
    return email.kind === 'receipt'
      ? 'Its sign-in link works once, so it is never sent twice: send the receipt again from its purchase’s page (Send receipt again), with a new link.'
      : 'It carried a one-time sign-in link, which is never sent twice: the person can ask for a new sign-in link.';
  return null;
}
