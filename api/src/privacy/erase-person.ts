import type { Knex } from 'knex';
import { endSignIns } from '../identity/sign-in/sign-out-everywhere';
import { deletedAddress } from '../shared/deleted-account';

/** Shown in place of a deleted person's comment that others answered. */
export const REMOVED_COMMENT_TEXT = 'This comment was removed when its author deleted their account.';

/**
 * Every way in ends: sessions, device tokens and approved device codes (as a block ends them), sign-in links to the
 * address, the GitHub link (so a GitHub sign-in with the old address makes a fresh account), views as the person,
 * and the record of past sign-ins. Answers the ended sessions' hashes, for the cache to forget after commit.
 */
export async function endAccess(trx: Knex.Transaction, userId: string, email: string) {
  const signedOut = await endSignIns(trx, userId, null);
  await trx('deviceVerifications').where({ verifiedByUserId: userId }).delete();
  await trx('verificationTokens').whereRaw('lower(identifier) = lower(?)', [email]).delete();
  await trx('accounts').where({ userId }).delete();
  await trx('viewAsSessions').where({ learnerUserId: userId }).delete();
  await trx('signIns').where({ userId }).delete();
  return signedOut;
}

/**
 * Learning leaves with the person: progress, video positions, bookmarks, preferences, certificates, reminders and
 * notes about them. Comments: a reply, or a comment nobody else answered, is removed; a comment others answered
 * keeps its place with its text replaced (and no author name), so the replies still read as answers to something.
 */
export async function eraseLearning(trx: Knex.Transaction, userId: string) {
  let removed = await trx('comments').where({ userId }).whereNotNull('parentId').delete();
  removed += await trx('comments as c')
    .where('c.userId', userId)
    .whereNull('c.parentId')
    .whereNotExists((q) => q.from('comments as r').whereRaw('r.parent_id = c.id'))
    .delete();
  const kept = await trx('comments').where({ userId }).update({ text: REMOVED_COMMENT_TEXT, editedAt: null });
  for (const table of [
    'lessonProgress',
    'videoPositions',
    'bookmarks',
    'userPrefs',
    'certificates',
    'workshopReminders',
    'teamSeatRevocations',
    'staffNotes',
  ]) {
    await trx(table).where({ userId }).delete();
  }
  return { commentsRemoved: removed, commentsKeptAsPlaceholders: kept };
}

/**
 * Emails to the address: one not sent yet is canceled (failed, its body dropped, so neither the sender nor the
 * console's retry sends it); every one keeps its subject, kind and dates for the outbox's history, addressed to the
 * placeholder. Waitlist places go.
 */
export async function eraseContact(trx: Knex.Transaction, email: string, placeholder: string) {
  const canceled = await trx('outboxEmails')
    .whereRaw('lower(to_address) = lower(?)', [email])
    .where({ status: 'pending' })
    .update({ status: 'failed', lastError: 'Canceled: the account was deleted.' });
  await trx('outboxEmails').whereRaw('lower(to_address) = lower(?)', [email]).update({
    toAddress: placeholder,
    textBody: null,
    htmlBody: null,
    attachments: null,
    secret: null,
    listUnsubscribeUrl: null,
  });
  const waitlist = await trx('waitlistEntries').whereRaw('lower(email) = lower(?)', [email]).delete();
  return { emailsCanceled: canceled, waitlistEntriesRemoved: waitlist };
}

/** The account's row stays (purchases, charges and the ledger name it), erased: the database checks what is left. */
export async function eraseAccountRow(trx: Knex.Transaction, userId: string, deletedAt: Date): Promise<void> {
  await trx('users')
    .where({ id: userId })
    .update({
      email: deletedAddress(userId),
      name: null,
      image: null,
      avatarKey: null,
      bio: null,
      emailVerified: null,
      fields: JSON.stringify({}),
      roles: ['learner'],
      blockedAt: null,
      blockedReason: null,
      blockedById: null,
      deletedAt,
    });
}
