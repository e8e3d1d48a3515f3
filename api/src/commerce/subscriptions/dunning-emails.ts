import type { NewEmail } from '../../mail/outbox';
import { formatEmailDate } from '../../mail/templates';
import { escapeHtml } from '../../shared/escape-html';
import { formatMoney } from '../../shared/money';

/** What lapsed or failed: a membership, or a course's payment plan. */
type Kind = 'membership' | 'payment plan';

export interface FailedRenewal {
  membership: string;
  kind: Kind;
  amount: number;
  currency: string;
  /** When access ends unless a payment succeeds (the grace's end). */
  accessUntil: Date;
  /** The learner's time zone, where they have one: the end is told as their clock reads it (UTC otherwise). */
  timeZone: string | null;
  /** The Billing page, where the card is updated. */
  billingUrl: string;
}

/** A renewal could not be paid: how much, until when the courses stay open, and where to fix the card. */
export function renewalFailedEmail(to: string, failed: FailedRenewal): NewEmail {
  const amount = formatMoney(failed.amount, failed.currency);
  // An instant, with its hour and zone: midnight in Auckland is still the day before in Los Angeles and in UTC.
  const until = formatEmailDate(new Date(failed.accessUntil), failed.timeZone);
  const headline = `We could not take ${amount} for your ${failed.membership} ${failed.kind}.`;
  const keep = `Your courses stay open until ${until}; we will try the payment again before then.`;
  return {
    kind: 'subscription-payment-failed',
    to,
    subject: `Your payment for ${failed.membership} failed`,
    text: `${headline}\n\n${keep}\n\nUpdate your card: ${failed.billingUrl}\n`,
    html:
      `<p>${escapeHtml(headline)}</p><p>${escapeHtml(keep)}</p>` +
      `<p><a href="${escapeHtml(failed.billingUrl)}">Update your card</a></p>`,
  };
}

/** The grace ended unpaid: the membership lapsed, nothing of the learner's is lost, and how to come back. */
export function membershipLapsedEmail(
  to: string,
  lapsed: { membership: string; kind: Kind; billingUrl: string },
): NewEmail {
  const headline = `Your ${lapsed.membership} ${lapsed.kind} has lapsed: its payment was not made.`;
  const kept = 'Your progress, bookmarks and certificates are kept.';
  const back = 'Update your card and the payment is taken again: your courses open the moment it succeeds.';
  return {
    kind: 'subscription-lapsed',
    to,
    subject: `Your ${lapsed.membership} ${lapsed.kind} has lapsed`,
    text: `${headline}\n\n${kept}\n\n${back}\n${lapsed.billingUrl}\n`,
    html:
      `<p>${escapeHtml(headline)}</p><p>${escapeHtml(kept)}</p>` +
      `<p>${escapeHtml(back)}</p><p><a href="${escapeHtml(lapsed.billingUrl)}">Come back</a></p>`,
  };
}
