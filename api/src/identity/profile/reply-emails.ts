import { createHmac } from 'node:crypto';
import type { Knex } from 'knex';
import type { Db } from '../../db/connection';
import { AppError } from '../../shared/errors';
import { isUuid } from '../../shared/uuid';
import { sameSecret } from '../secrets';

/**
 * Emails about replies to a person's comments: on unless they turned them off, in Settings or with an email's
 * unsubscribe link. Kept in their global preferences as `emails: { replies: false }` (absent: on).
 */
export async function wantsReplyEmails(db: Knex | Knex.Transaction, userId: string): Promise<boolean> {
  const row = await db('userPrefs').where({ userId, type: 'global' }).whereNull('resourceId').first('fields');
  const emails: unknown = row?.fields?.emails;
  return !(emails && typeof emails === 'object' && (emails as { replies?: unknown }).replies === false);
}

/** What the links sign: the person and what the link turns off (a link for one kind of email says nothing of another). */
const PURPOSE = 'unsubscribe:replies';

/**
 * The unsubscribe link of reply emails: `<person's id>.<HMAC of it>`, so it works without signing in, for as long as
 * the key lasts, and turns off nothing but these emails (worst case, someone who sees the link stops them). Opening
 * the page changes nothing (mail scanners open links); its button, or a mail client's one-click POST (RFC 8058), does.
 */
export function replyEmailOptOut({ db, key, publicUrl }: { db: Db; key: () => Promise<Buffer>; publicUrl: string }) {
  const sign = async (userId: string) =>
    createHmac('sha256', await key())
      .update(`${PURPOSE}:${userId.toLowerCase()}`)
      .digest('base64url');

  return {
    /** The email's two addresses: the page its link opens, and the one a mail client POSTs to (List-Unsubscribe). */
    async links(userId: string): Promise<{ page: string; oneClick: string }> {
      const token = `${userId}.${await sign(userId)}`;
      return {
        page: new URL(`/unsubscribe?token=${token}`, publicUrl).toString(),
        oneClick: new URL(`/api/store/unsubscribe/replies?token=${token}`, publicUrl).toString(),
      };
    },

    /** Turns reply emails off for the link's person (the other preferences kept, in one statement); again is the same. */
    async unsubscribe(token: string): Promise<{ replies: false }> {
      const [userId = '', signature = ''] = token.split('.');
      if (!isUuid(userId) || !sameSecret(signature, await sign(userId)))
        throw new AppError('unsubscribe-link-invalid', 'This unsubscribe link is not valid: copy the whole link.');
      const exists = await db('users').where({ id: userId }).first('id');
      if (!exists) throw new AppError('unsubscribe-link-invalid', 'This unsubscribe link is no longer valid.');
      // A deleted account gets no emails and keeps no preferences: the same answer, nothing written. Its row is
      // share-locked, so a deletion committing meanwhile is waited for and then seen.
      await db.raw(
        `INSERT INTO user_prefs (user_id, type, resource_id, fields)
         SELECT id, 'global', NULL, '{"emails": {"replies": false}}'::jsonb
           FROM users WHERE id = ? AND deleted_at IS NULL FOR SHARE
         ON CONFLICT (user_id, type, resource_id) DO UPDATE SET fields = user_prefs.fields || jsonb_build_object(
           'emails',
           CASE WHEN jsonb_typeof(user_prefs.fields->'emails') = 'object' THEN user_prefs.fields->'emails' ELSE '{}' END
             || '{"replies": false}'::jsonb)`,
        [userId],
      );
      return { replies: false };
    },
  };
}

export type ReplyEmailOptOut = ReturnType<typeof replyEmailOptOut>;
