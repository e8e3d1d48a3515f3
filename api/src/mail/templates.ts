import type { NewEmail } from './outbox';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function receiptEmail(to: string, productName: string, amount: string, invoiceUrl: string): NewEmail {
  return {
    kind: 'receipt',
    to,
    subject: `Your receipt for ${productName}`,
    text: `Thank you for buying ${productName} (${amount}).\n\nYour invoice: ${invoiceUrl}\n`,
    html: `<p>Thank you for buying ${escapeHtml(productName)} (${escapeHtml(amount)}).</p><p><a href="${escapeHtml(invoiceUrl)}">Your invoice</a></p>`,
  };
}

export function soldOutRefundEmail(to: string, productName: string, amount: string): NewEmail {
  return {
    kind: 'sold-out-refund',
    to,
    subject: `Sorry: ${productName} sold out`,
    text: `The last seat of ${productName} went while you were paying. We refunded the full ${amount}; it reaches your card in a few days. We are sorry.\n`,
    html: `<p>The last seat of ${escapeHtml(productName)} went while you were paying. We refunded the full ${escapeHtml(amount)}; it reaches your card in a few days. We are sorry.</p>`,
  };
}

export function refundEmail(to: string, productName: string, amount: string, full: boolean): NewEmail {
  const what = full ? `We refunded your purchase of ${productName} in full (${amount}).` : `We refunded ${amount} of your purchase of ${productName}.`;
  return {
    kind: 'refund',
    to,
    subject: `Refund for ${productName}`,
    text: `${what} It reaches your card in a few days.\n`,
    html: `<p>${escapeHtml(what)} It reaches your card in a few days.</p>`,
  };
}

export function signInEmail(to: string, url: string, minutes: number): NewEmail {
  return {
    kind: 'sign-in',
    to,
    subject: 'Your sign-in link',
    text: `Sign in by opening this link:\n\n${url}\n\nIt works once and expires in ${minutes} minutes. If you did not ask for it, ignore this email.`,
    html: `<p>Sign in by opening this link:</p><p><a href="${escapeHtml(url)}">Sign in</a></p><p>It works once and expires in ${minutes} minutes. If you did not ask for it, ignore this email.</p>`,
  };
}
