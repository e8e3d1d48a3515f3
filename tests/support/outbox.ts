import type { Db } from '../../api/src/db/connection';
import { OutboxEmail } from '../../api/src/mail/models';

/** The newest email to an address, and the sign-in link in it. */
export async function lastEmailTo(db: Db, to: string): Promise<OutboxEmail & { link: URL | null }> {
  const email = await OutboxEmail.query(db).where('toAddress', to).orderBy('createdAt', 'desc').first();
  if (!email) throw new Error(`no email to ${to}`);
  const match = /https?:\/\/\S+/.exec(email.textBody);
  return Object.assign(email, { link: match ? new URL(match[0]) : null });
}

export function tokenFrom(link: URL | null): { email: string; token: string } {
  if (!link) throw new Error('no link in the email');
  return { email: link.searchParams.get('email')!, token: link.searchParams.get('token')! };
}
