import type { Knex } from 'knex';

// The SQL behind reply emails (reply-emails.ts holds the rules). Each function is one statement.

/** A reply with what its email says: the comment it answers, both authors, and the lesson it is under. */
export interface ReplyRow {
  id: string;
  text: string;
  hiddenAt: Date | null;
  replierId: string;
  replierName: string | null;
  lessonId: string;
  lessonTitle: string | null;
  lessonSlug: string | null;
  parentText: string;
  parentHiddenAt: Date | null;
  recipientId: string;
  recipientEmail: string;
  /** The comment's author deleted their account (their comment kept as a placeholder). */
  recipientDeletedAt: Date | null;
}

/** The reply, locked so its email is decided once; undefined when it (or the comment it answers) was deleted. */
export async function lockedReply(trx: Knex.Transaction, replyId: string): Promise<ReplyRow | undefined> {
  return trx('comments as r')
    .join('comments as p', 'p.id', 'r.parentId')
    .join('users as ru', 'ru.id', 'r.userId')
    .join('users as pu', 'pu.id', 'p.userId')
    .leftJoin('contentResources as l', 'l.id', trx.raw(`(r.context->>'resourceId')::uuid`))
    .where('r.id', replyId)
    .forUpdate('r')
    .first(
      'r.id',
      'r.text',
      'r.hiddenAt',
      'r.userId as replierId',
      'ru.name as replierName',
      trx.raw(`r.context->>'resourceId' AS lesson_id`),
      trx.raw(`l.fields->>'title' AS lesson_title`),
      trx.raw(`l.fields->>'slug' AS lesson_slug`),
      'p.text as parentText',
      'p.hiddenAt as parentHiddenAt',
      'p.userId as recipientId',
      'pu.email as recipientEmail',
      'pu.deletedAt as recipientDeletedAt',
    );
}

/** The countries of the person's Restricted purchases (each opens its courses from there only). */
export async function restrictedCountries(trx: Knex.Transaction, userId: string): Promise<string[]> {
  const rows: { country: string }[] = await trx('purchases')
    .where({ userId, status: 'Restricted' })
    .whereNotNull('country')
    .distinct('country');
  return rows.map((r) => r.country);
}

/** Whether the reply's email was decided already (by an earlier run of its job). */
export async function decided(trx: Knex.Transaction, replyId: string): Promise<boolean> {
  return Boolean(await trx('commentReplyEmails').where({ replyId }).first('replyId'));
}

export type ReplyOutcome = 'sent' | 'hidden' | 'opted-out' | 'not-open' | 'account-deleted';

/** Records how a reply's email was decided (the primary key keeps one decision per reply). */
export async function recordOutcome(
  trx: Knex.Transaction,
  replyId: string,
  outcome: ReplyOutcome,
  outboxEmailId: string | null = null,
): Promise<void> {
  await trx('commentReplyEmails').insert({ replyId, outcome, outboxEmailId });
}
