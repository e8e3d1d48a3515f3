import type { Actor } from '../audit/record';
import type { Db } from '../db/connection';
import { AppError } from '../shared/errors';
import type { OutboxEmail } from './models';
import { whyNotResendable, type Outbox } from './outbox';
import type { PersonEmail, PersonEmailsPage } from './schemas';

const COLUMNS = [
  'id',
  'toAddress',
  'subject',
  'kind',
  'status',
  'attempts',
  'lastError',
  'sentAt',
  'createdAt',
  'resentFromId',
  'textBody',
  'htmlBody',
  'secret',
] as const;

type ListedEmail = Pick<OutboxEmail, (typeof COLUMNS)[number]>;

function present(row: ListedEmail): PersonEmail {
  const why = whyNotResendable(row);
  return {
    id: row.id,
    toAddress: row.toAddress,
    subject: row.subject,
    kind: row.kind,
    status: row.status,
    attempts: row.attempts,
    lastError: row.lastError,
    sentAt: row.sentAt,
    createdAt: row.createdAt,
    resentFromId: row.resentFromId,
    resendable: why === null,
    whyNot: why,
  };
}

/**
 * The emails a person was sent, for their page in the console (support reads them there: what, when and how it went,
 * never the bodies), and Resend on each: a copy to their current address, once per click (outbox.resend).
 * Their emails are those to their address now and to the addresses they had before support changed it.
 */
export function personEmails({ db, outbox }: { db: Db; outbox: Pick<Outbox, 'resend' | 'flushInBackground'> }) {
  async function addressesOf(userId: string): Promise<{ current: string; all: string[] }> {
    const user = await db('users').where({ id: userId }).first('email');
    if (!user) throw new AppError('not-found', `No users record with id ${userId}.`);
    const former = (await db('auditLogs')
      .where({ resource: 'users', recordId: userId, action: 'user.email-changed' })
      .select(db.raw(`before->>'email' AS email`))) as { email: string | null }[];
    const addresses = [user.email as string, ...former.flatMap((r) => (r.email ? [r.email] : []))];
    // As written and lower-cased: the outbox's index on to_address is used, whatever case an address was stored in.
    return { current: user.email, all: [...new Set(addresses.flatMap((a) => [a, a.toLowerCase()]))] };
  }

  return {
    async list(userId: string, { page, perPage }: { page: number; perPage: number }): Promise<PersonEmailsPage> {
      const { all } = await addressesOf(userId);
      const query = db('outboxEmails').whereIn('toAddress', all);
      const [rows, counted] = await Promise.all([
        query
          .clone()
          .select(...COLUMNS)
          .orderBy([
            { column: 'createdAt', order: 'desc' },
            { column: 'id', order: 'desc' },
          ])
          .offset((page - 1) * perPage)
          .limit(perPage),
        query.clone().count({ n: '*' }),
      ]);
      return { data: (rows as ListedEmail[]).map(present), total: Number(counted[0]!.n), page, perPage };
    },

    /** A copy of one of the person's emails to their current address; another person's email is not found here. */
    async resend(
      userId: string,
      emailId: string,
      request: { key: string; actor: Actor; requestId: string | null },
    ): Promise<{ email: PersonEmail; created: boolean }> {
      const { current, all } = await addressesOf(userId);
      const theirs = await db('outboxEmails').where({ id: emailId }).whereIn('toAddress', all).first('id');
      if (!theirs) throw new AppError('not-found', `No email ${emailId} was sent to this person.`);
      const { email, created } = await outbox.resend(emailId, { ...request, to: current });
      if (created) outbox.flushInBackground();
      return { email: present(email), created };
    },
  };
}

export type PersonEmails = ReturnType<typeof personEmails>;
