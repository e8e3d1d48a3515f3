import type { Knex } from 'knex';
import { endSignIns } from '../identity/sign-in/sign-out-everywhere';
import { deletedAddress } from '../shared/deleted-account';
import { escapeHtml } from '../shared/escape-html';

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
    'releaseEmails',
    'teamSeatRevocations',
    'staffNotes',
  ]) {
    await trx(table).where({ userId }).delete();
  }
  return { commentsRemoved: removed, commentsKeptAsPlaceholders: kept };
}

/** What stands for a deleted person's address in emails to others ("… is giving you", "… now belongs to …"). */
export const DELETED_ACCOUNT_TEXT = '[deleted account]';

/** A PostgreSQL regular expression matching the text literally. */
const literal = (text: string) => text.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');

/**
 * The address, whole, in any case (matched with the `i` flag): not the tail of a longer address (`jo.pat@…` for
 * `pat@…`, also with its apostrophe escaped) nor the head of a longer domain. In HTML also as escapeHtml writes it.
 */
function addressPattern(email: string, html: boolean): string {
  const forms = html ? [email, escapeHtml(email)] : [email];
  const unique = [...new Set(forms)].map(literal).join('|');
  return `(?<![A-Za-z0-9._%+'-]|&#39;)(?:${unique})(?![A-Za-z0-9_-]|\\.[A-Za-z0-9])`;
}

/** The person's address leaves every email's subject and bodies, those to other people included. */
async function scrubAddress(trx: Knex.Transaction, email: string): Promise<void> {
  const text = addressPattern(email, false);
  const html = addressPattern(email, true);
  const replaced = (column: string, pattern: string) =>
    trx.raw(`regexp_replace(??, ?, ?, 'gi')`, [column, pattern, DELETED_ACCOUNT_TEXT]);
  await trx('outboxEmails')
    .where((q) =>
      q.whereRaw(`subject ~* ?`, [text]).orWhereRaw(`text_body ~* ?`, [text]).orWhereRaw(`html_body ~* ?`, [html]),
    )
    .update({
      subject: replaced('subject', text),
      textBody: replaced('text_body', text),
      htmlBody: replaced('html_body', html),
    });
}

/**
 * Emails to the address: one not sent yet is canceled (failed, its body dropped, so neither the sender nor the
 * console's retry sends it); every one keeps its subject, kind and dates for the outbox's history, addressed to the
 * placeholder. Emails to other people keep their bodies, with the address replaced (the console's outbox shows
 * them). Waitlist places go.
 */
export async function eraseContact(trx: Knex.Transaction, email: string, placeholder: string) {
  await scrubAddress(trx, email);
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
