import type { NewEmail } from './outbox';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The receipt. A team purchase opens no course by itself (DOMAIN §7): its receipt says so and where the buyer
 * takes their own seat and finds the invite link.
 */
export function receiptEmail(
  to: string,
  productName: string,
  amount: string,
  invoiceUrl: string,
  team: { seats: number } | null = null,
): NewEmail {
  const bought = team ? `${team.seats} ${team.seats === 1 ? 'seat' : 'seats'} of ${productName}` : productName;
  const next = team
    ? 'A team purchase opens the course for whoever takes a seat, you included: sign in, open My purchases and choose Manage team to take your own seat and share the invite link.'
    : null;
  const purchasesUrl = new URL('/purchases', invoiceUrl).toString();
  return {
    kind: 'receipt',
    to,
    subject: `Your receipt for ${productName}`,
    text: `Thank you for buying ${bought} (${amount}).\n\n${next ? `${next}\n${purchasesUrl}\n\n` : ''}Your invoice: ${invoiceUrl}\n`,
    html:
      `<p>Thank you for buying ${escapeHtml(bought)} (${escapeHtml(amount)}).</p>` +
      (next ? `<p>${escapeHtml(next)}</p><p><a href="${escapeHtml(purchasesUrl)}">My purchases</a></p>` : '') +
      `<p><a href="${escapeHtml(invoiceUrl)}">Your invoice</a></p>`,
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
): NewEmail {
  const until = expiresAt.toUTCString();
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

/** A member the team's owner removed: told plainly, with what to do if it is a mistake. */
export function teamSeatRevokedEmail(to: string, productName: string, ownerEmail: string): NewEmail {
  const text = `Your seat in ${productName} was removed by the team's owner (${ownerEmail}), so the course is no longer open to you. Your progress is kept: if you get a seat again, or buy the course, you continue where you left off. If this is a mistake, ask ${ownerEmail} to let you back in from their team page.`;
  return {
    kind: 'team-seat-revoked',
    to,
    subject: `Your seat in ${productName} was removed`,
    text: `${text}\n`,
    html: `<p>${escapeHtml(text)}</p>`,
  };
}

export function teamWelcomeEmail(to: string, productName: string, courseUrl: string): NewEmail {
  return {
    kind: 'team-welcome',
    to,
    subject: `Welcome to ${productName}`,
    text: `You have a seat in ${productName}. Start here:\n${courseUrl}\n`,
    html: `<p>You have a seat in ${escapeHtml(productName)}.</p><p><a href="${escapeHtml(courseUrl)}">Start here</a></p>`,
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
