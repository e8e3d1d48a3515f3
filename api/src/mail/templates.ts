import { canonicalTimeZone } from '../shared/time-zone';
import type { NewEmail } from './outbox';
import { escapeHtml } from '../shared/escape-html';

/**
 * A date as an email's reader reads it: in their own time zone when their settings name one, else in UTC, and the
 * zone is always written out ("Thursday, December 3, 2026 at 3:04 PM GMT+1 (Europe/Berlin)"), never raw ISO.
 */
export function formatEmailDate(date: Date, timeZone: string | null = null): string {
  const zone = (timeZone && canonicalTimeZone(timeZone)) ?? 'UTC';
  const text = new Intl.DateTimeFormat('en-US', {
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: zone,
    timeZoneName: 'short',
  }).format(date);
  return zone === 'UTC' ? text : `${text} (${zone})`;
}

/** The receipt's way into what was bought (see commerce/checkout/lead-in.ts). */
export interface ReceiptLeadIn {
  /** A sign-in link that works once, finishing on the course (or, for a team's buyer, the team page). */
  signInUrl: string;
  /** How long the link lasts. */
  days: number;
  /** A team purchase: the link its buyer shares with the people they bought seats for. */
  inviteUrl?: string;
}

/** A workshop's receipt: its schedule, written for the buyer (workshop-emails.ts), and "workshop" for "course". */
export interface WorkshopReceipt {
  text: string;
  html: string;
}

/**
 * The receipt. Its first link signs the buyer in and leads into what they bought, guest or not: no second email to
 * ask for. The link's token is the email's secret (kept out of the outbox's bodies). A team purchase opens no course
 * by itself (docs/domain.md §7): its receipt says so, and gives the buyer's "take your seat" step and the invite link.
 */
export function receiptEmail(
  to: string,
  productName: string,
  amount: string,
  invoiceUrl: string,
  team: { seats: number; alreadyOwned?: boolean; gift?: boolean; ownsCourse?: boolean } | null = null,
  leadIn: ReceiptLeadIn | null = null,
  workshop: WorkshopReceipt | null = null,
): NewEmail {
  const bought = team?.gift
    ? `${productName} as a gift`
    : team
      ? `${team.seats} ${team.seats === 1 ? 'seat' : 'seats'} of ${productName}`
      : productName;
  const purchasesUrl = new URL('/purchases', invoiceUrl).toString();
  const lasts = leadIn ? `It signs you in as ${to}, works once and lasts ${leadIn.days} days.` : '';
  const steps: { text: string; url: string; label: string }[] = [];
  if (team?.alreadyOwned) {
    // Checkout does not tell a guest that an address owns a course: the buyer hears it here, with the way back.
    steps.push({
      text: `${to} already had ${productName}, so this payment bought a seat to give away instead of a second copy for you. If you did not mean to buy it again, reply to this email or contact our support team and we refund it in full.`,
      url: purchasesUrl,
      label: 'My purchases',
    });
  }
  if (team?.gift) {
    steps.push({
      text: `Send this claim link to the person you are giving ${productName} to: they sign in with their own email address and it is theirs. It works for one person; until they use it, it is on your gift's page in My purchases.`,
      url: leadIn?.inviteUrl ?? purchasesUrl,
      label: leadIn?.inviteUrl ? 'The gift’s claim link' : 'My purchases',
    });
    if (leadIn)
      steps.push({
        text: `Your gift’s page says when it is claimed. ${lasts}`,
        url: leadIn.signInUrl,
        label: 'Your gift',
      });
  } else if (team) {
    steps.push(
      // An owner buying for their team has the course already: every seat is one to give away.
      team.ownsCourse && !team.alreadyOwned
        ? {
            text: `You already have the course, so every seat is one to give away. Your team page shows who took one. ${lasts}`,
            url: leadIn?.signInUrl ?? purchasesUrl,
            label: leadIn ? 'Go to your team' : 'My purchases',
          }
        : {
            text: `A team purchase opens the course for whoever takes a seat, you included. To take your own seat, ${leadIn ? `open your team page with this link. ${lasts}` : 'sign in, open My purchases and choose Manage team.'}`,
            url: leadIn?.signInUrl ?? purchasesUrl,
            label: leadIn ? 'Take your seat' : 'My purchases',
          },
    );
    if (leadIn?.inviteUrl) {
      steps.push({
        text: 'Share this invite link with the people you bought seats for: each of them takes a seat with it.',
        url: leadIn.inviteUrl,
        label: 'Your team’s invite link',
      });
    }
  } else if (leadIn && workshop) {
    steps.push({
      text: `Your workshop: this link opens My learning, with each session’s join link and the calendar file. ${lasts}`,
      url: leadIn.signInUrl,
      label: 'Go to your workshop',
    });
  } else if (leadIn) {
    steps.push({
      text: `Start learning: this link opens the course. ${lasts}`,
      url: leadIn.signInUrl,
      label: 'Start the course',
    });
  }
  const schedule = team ? null : workshop;
  const later = leadIn ? `\nLater on, sign in with ${to} at ${new URL('/login', invoiceUrl).toString()}\n` : '';
  return {
    kind: 'receipt',
    secret: leadIn ? (new URL(leadIn.signInUrl).searchParams.get('token') ?? undefined) : undefined,
    to,
    subject: `Your receipt for ${productName}`,
    text:
      `Thank you for buying ${bought} (${amount}).\n\n` +
      (schedule ? `${schedule.text}\n\n` : '') +
      steps.map((step) => `${step.text}\n${step.url}\n\n`).join('') +
      `Your invoice: ${invoiceUrl}\n${later}`,
    html:
      `<p>Thank you for buying ${escapeHtml(bought)} (${escapeHtml(amount)}).</p>` +
      (schedule?.html ?? '') +
      steps
        .map(
          (step) =>
            `<p>${escapeHtml(step.text)}</p><p><a href="${escapeHtml(step.url)}">${escapeHtml(step.label)}</a></p>`,
        )
        .join('') +
      `<p><a href="${escapeHtml(invoiceUrl)}">Your invoice</a></p>` +
      (leadIn ? `<p>Later on, sign in with ${escapeHtml(to)} on our site.</p>` : ''),
  };
}

/** A payment that could not become a purchase (sold out meanwhile, say) is refunded in full, with an apology. */
export function unfulfillableRefundEmail(
  to: string,
  productName: string,
  amount: string,
  why: { soldOut: true } | { soldOut: false; reason: string },
): NewEmail {
  const { soldOut } = why;
  const what = soldOut
    ? `The last seat of ${productName} went while you were paying.`
    : `We could not complete your purchase of ${productName}: ${why.soldOut ? '' : why.reason}`;
  const text = `${what} We refunded the full ${amount}; it reaches your card in a few days. We are sorry.`;
  return {
    kind: soldOut ? 'sold-out-refund' : 'unfulfillable-refund',
    to,
    subject: soldOut ? `Sorry: ${productName} sold out` : `Sorry: your purchase of ${productName} was refunded`,
    text: `${text}\n`,
    html: `<p>${escapeHtml(text)}</p>`,
  };
}

export function refundEmail(to: string, productName: string, amount: string, full: boolean): NewEmail {
  const what = full
    ? `We refunded your purchase of ${productName} in full (${amount}).`
    : `We refunded ${amount} of your purchase of ${productName}.`;
  return {
    kind: 'refund',
    to,
    subject: `Refund for ${productName}`,
    text: `${what} It reaches your card in a few days.\n`,
    html: `<p>${escapeHtml(what)} It reaches your card in a few days.</p>`,
  };
}

export function transferOfferEmail(
  to: string,
  fromEmail: string,
  productName: string,
  url: string,
  expiresAt: Date,
  /** The recipient's time zone, when their settings name one. */
  timeZone: string | null = null,
): NewEmail {
  const until = formatEmailDate(expiresAt, timeZone);
  return {
    kind: 'transfer-offer',
    to,
    subject: `${fromEmail} is giving you ${productName}`,
    text: `${fromEmail} wants to give you their purchase of ${productName}.\n\nSign in with this email address and accept it here:\n${url}\n\nThe offer is open until ${until}.\n`,
    html: `<p>${escapeHtml(fromEmail)} wants to give you their purchase of ${escapeHtml(productName)}.</p><p><a href="${escapeHtml(url)}">Sign in with this email address and accept it</a>.</p><p>The offer is open until ${escapeHtml(until)}.</p>`,
  };
}

export function transferCompletedEmail(to: string, recipientEmail: string, productName: string): NewEmail {
  return {
    kind: 'transfer-completed',
    to,
    subject: `${productName} now belongs to ${recipientEmail}`,
    text: `${recipientEmail} accepted your purchase of ${productName}. It, and its invoice, are theirs now.\n`,
    html: `<p>${escapeHtml(recipientEmail)} accepted your purchase of ${escapeHtml(productName)}. It, and its invoice, are theirs now.</p>`,
  };
}

export function purchaseReceivedEmail(to: string, productName: string, url: string): NewEmail {
  return {
    kind: 'purchase-received',
    to,
    subject: `${productName} is yours`,
    text: `Our support team moved a purchase of ${productName} to this email address. Sign in with it to start:\n${url}\n`,
    html: `<p>Our support team moved a purchase of ${escapeHtml(productName)} to this email address.</p><p><a href="${escapeHtml(url)}">Sign in with it to start</a></p>`,
  };
}

/**
 * A member removed from a team, or a gift taken back: told plainly who did it (the owner or buyer, or our support
 * team for them), from which course, that their progress stays, and what to do if it is a mistake.
 */
export function teamSeatRevokedEmail(
  to: string,
  productName: string,
  removal: { ownerEmail: string; bySupport: boolean; gift?: boolean },
): NewEmail {
  const { ownerEmail, gift = false } = removal;
  const owner = gift ? `the person who gave it to you (${ownerEmail})` : `the team's owner (${ownerEmail})`;
  const who = removal.bySupport ? `our support team, for ${owner}` : owner;
  const text = gift
    ? `The gift of ${productName} was taken back by ${who}, so the course is no longer open to you. Your progress is kept: if you are given it again, or buy the course, you continue where you left off. If this is a mistake, ask ${ownerEmail}.`
    : `Your seat in ${productName} was removed by ${who}, so the course is no longer open to you. Your progress is kept: if you get a seat again, or buy the course, you continue where you left off. If this is a mistake, ask ${ownerEmail} to let you back in from their team page.`;
  return {
    kind: 'team-seat-revoked',
    to,
    subject: gift ? `Your gift of ${productName} was taken back` : `Your seat in ${productName} was removed`,
    text: `${text}\n`,
    html: `<p>${escapeHtml(text)}</p>`,
  };
}

/**
 * A course staff gave someone (a comp): the same way in as a receipt's, a sign-in link that lands on the course and
 * works once (its token is the email's secret), without a price or an invoice, since nothing was paid.
 */
export function courseGivenEmail(to: string, productName: string, leadIn: ReceiptLeadIn): NewEmail {
  const lasts = `It signs you in as ${to}, works once and lasts ${leadIn.days} days.`;
  const later = new URL('/login', leadIn.signInUrl).toString();
  return {
    kind: 'course-given',
    secret: new URL(leadIn.signInUrl).searchParams.get('token') ?? undefined,
    to,
    subject: `${productName} is yours`,
    text: `Our team gave you ${productName}: there is nothing to pay.\n\nStart learning: this link opens the course. ${lasts}\n${leadIn.signInUrl}\n\nLater on, sign in with ${to} at ${later}\n`,
    html: `<p>Our team gave you ${escapeHtml(productName)}: there is nothing to pay.</p><p>Start learning: this link opens the course. ${escapeHtml(lasts)}</p><p><a href="${escapeHtml(leadIn.signInUrl)}">Start the course</a></p><p>Later on, sign in with ${escapeHtml(to)} on our site.</p>`,
  };
}

/** A member who took a seat: the link opens the course itself (not its sales page). */
export function teamWelcomeEmail(to: string, productName: string, courseUrl: string): NewEmail {
  return {
    kind: 'team-welcome',
    to,
    subject: `Welcome to ${productName}`,
    text: `You have a seat in ${productName}. Start the course here (signed in as ${to}):\n${courseUrl}\n`,
    html: `<p>You have a seat in ${escapeHtml(productName)}.</p><p><a href="${escapeHtml(courseUrl)}">Start the course</a> (signed in as ${escapeHtml(to)})</p>`,
  };
}

/** The link's token signs in whoever holds it: it is the email's secret, never kept in the outbox's bodies. */
export function signInEmail(to: string, url: string, minutes: number): NewEmail {
  return {
    kind: 'sign-in',
    secret: new URL(url).searchParams.get('token') ?? undefined,
    to,
    subject: 'Your sign-in link',
    text: `Sign in by opening this link:\n\n${url}\n\nIt works once and expires in ${minutes} minutes. If you did not ask for it, ignore this email.`,
    html: `<p>Sign in by opening this link:</p><p><a href="${escapeHtml(url)}">Sign in</a></p><p>It works once and expires in ${minutes} minutes. If you did not ask for it, ignore this email.</p>`,
  };
}
