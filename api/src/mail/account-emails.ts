import type { NewEmail } from './outbox';
import { escapeHtml } from '../shared/escape-html';

function notice(kind: string, to: string, subject: string, paragraphs: string[]): NewEmail {
  return {
    kind,
    to,
    subject,
    text: `${paragraphs.join('\n\n')}\n`,
    html: paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join(''),
  };
}

/**
 * Support changed the account's email: both addresses are told, the old one so that a change the person did not ask
 * for is noticed where they still read their mail. Neither carries a sign-in link (nothing to steal).
 */
export function emailChangedEmails({
  from,
  to,
  signInUrl,
}: {
  from: string;
  to: string;
  signInUrl: string;
}): NewEmail[] {
  const unexpected = 'If you did not ask for this, reply to this email or contact our support team right away.';
  return [
    notice('email-changed-old-address', from, 'Your account’s email address was changed', [
      `Our support team changed the email address of your account from ${from} to ${to}.`,
      `From now on, sign in with ${to}. You were signed out everywhere; sign-in links sent to ${from} no longer work.`,
      unexpected,
    ]),
    notice('email-changed-new-address', to, 'This is now your account’s email address', [
      `Our support team changed the email address of your account from ${from} to ${to}.`,
      `Your purchases and progress are unchanged. Sign in with this address: ${signInUrl}`,
      unexpected,
    ]),
  ];
}
