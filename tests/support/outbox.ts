import { expect } from 'vitest';
import type { Db } from '../../api/src/db/connection';
import { OutboxEmail } from '../../api/src/mail/models';
import { SECRET_PLACEHOLDER } from '../../api/src/mail/outbox';
import { deliveredEmails } from './app';

/**
 * The newest email to an address, and the first link in it. An email with a secret (a sign-in link) is stored
 * redacted: its working link is read from the email as the default test transport received it, once it went out.
 */
export async function lastEmailTo(db: Db, to: string): Promise<OutboxEmail & { link: URL | null }> {
  const email = await OutboxEmail.query(db).where('toAddress', to).orderBy('createdAt', 'desc').first();
  if (!email) throw new Error(`no email to ${to}`);
  let text = email.textBody ?? '';
  if (text.includes(SECRET_PLACEHOLDER)) {
    await expect.poll(() => deliveredEmails.has(email.id), { message: `the email to ${to} was never sent` }).toBe(true);
    text = deliveredEmails.get(email.id)!.text;
  }
  const match = /https?:\/\/\S+/.exec(text);
  return Object.assign(email, { link: match ? new URL(match[0]) : null });
}

export function tokenFrom(link: URL | null): { email: string; token: string } {
  if (!link) throw new Error('no link in the email');
  return { email: link.searchParams.get('email')!, token: link.searchParams.get('token')! };
}
