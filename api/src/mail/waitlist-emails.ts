import type { NewEmail } from './outbox';
import { formatEmailDate } from './templates';
import { escapeHtml } from '../shared/escape-html';
import { plural } from '../shared/words';

/** What had kept the product closed; its opening email says what changed. */
export type OpenedFrom = 'sold-out' | 'not-open' | 'closed' | 'not-on-sale' | 'unavailable';

export interface OpenedProduct {
  name: string;
  /** Where to buy it. */
  pageUrl: string;
  /** Seats still for sale when the email was written; null when the product is not limited. */
  seatsLeft: number | null;
  /** When enrollment closes again, if it does. */
  closesAt: Date | null;
}

/**
 * "It is open": to someone on a product's waitlist, once per opening. Says what opened, what to do now (the product
 * page, seats going first come first served), that they stay on the list, and how to leave it. The leave link's token
 * is the email's secret (stored hashed with the entry; the outbox keeps it out of the stored bodies).
 */
export function waitlistOpenEmail(
  to: string,
  { product, from, joinedAt, leaveUrl }: { product: OpenedProduct; from: OpenedFrom; joinedAt: Date; leaveUrl: string },
): NewEmail {
  const { name, pageUrl, seatsLeft, closesAt } = product;
  const headline =
    from === 'sold-out'
      ? `Seats are available again for ${name}`
      : from === 'not-open' || from === 'closed'
        ? `Enrollment for ${name} is open`
        : `${name} is on sale now`;
  const hurry = [
    seatsLeft !== null ? `${plural(seatsLeft, 'seat is', 'seats are')} left, first come, first served.` : '',
    closesAt ? `Enrollment closes ${formatEmailDate(closesAt)}.` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const why = `You get this email because you joined the waitlist for ${name} on ${formatEmailDate(joinedAt)}.`;
  const stay = 'You stay on the waitlist: if it closes again, we write once more when it reopens.';
  const text = [
    `${headline}.`,
    `To buy it, open the course page: ${pageUrl}`,
    hurry,
    why,
    stay,
    `Leave the waitlist (no more emails about ${name}): ${leaveUrl}`,
  ]
    .filter(Boolean)
    .join('\n\n');
  const html =
    `<p><strong>${escapeHtml(headline)}.</strong></p>` +
    `<p><a href="${escapeHtml(pageUrl)}">Open the course page to buy it</a></p>` +
    (hurry ? `<p>${escapeHtml(hurry)}</p>` : '') +
    `<p>${escapeHtml(why)} ${escapeHtml(stay)}</p>` +
    `<p><a href="${escapeHtml(leaveUrl)}">Leave the waitlist</a> (no more emails about ${escapeHtml(name)}).</p>`;
  return { kind: 'waitlist-open', to, subject: `${headline}`, text: `${text}\n`, html };
}
