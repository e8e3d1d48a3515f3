import type { Knex } from 'knex';
import { readCaches, type ReadCaches } from '../../cache/read-cache';
import type { Clock } from '../../clock';
import type { Db } from '../../db/connection';
import { Session, User } from '../models';
import { hashSecret, newSecret } from '../secrets';
import { prepared } from '../../db/prepared';

/** How someone signed in: a link by email, or GitHub (an approved device is recorded as 'device'). */
export type SignInMethod = 'email' | 'github';

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** last_seen_at is a hint for the console, not worth a write on every request. */
const SEEN_RESOLUTION_MS = 10 * 60 * 1000;

/** The session's columns, as the model names them. */
const SESSION_COLUMNS = [
  'id',
  'sessionToken',
  'userId',
  'expires',
  'createdAt',
  'csrfToken',
  'lastSeenAt',
  'userAgent',
] as const;

/**
 * The user's columns, read beside the session's in one plain join on every signed-in request (an Objection graph
 * join did the same at three times the CPU). Prefixed so they cannot meet the session's own (userId, userAgent).
 */
const USER_COLUMNS = [
  'id',
  'name',
  'email',
  'emailVerified',
  'image',
  'roles',
  'fields',
  'bio',
  'avatarKey',
  'blockedAt',
  'blockedReason',
  'blockedById',
  'deletedAt',
  'createdAt',
  'updatedAt',
] as const;
const asMember = (column: string) => `member${column[0]!.toUpperCase()}${column.slice(1)}`;
const snakeCase = (column: string) => column.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/**
 * The session a hash names, with its user, as fixed text: it runs on every signed-in request (with the read cache
 * off, or on a miss), so it is written once here rather than built by the query builder each time, its columns
 * named as the models name them. Prepared by name: parsed and planned once per connection.
 */
const SESSION_BY_HASH = `SELECT ${[
  ...SESSION_COLUMNS.map((column) => `s.${snakeCase(column)} AS "${column}"`),
  ...USER_COLUMNS.map((column) => `u.${snakeCase(column)} AS "${asMember(column)}"`),
].join(', ')}
  FROM sessions s JOIN users u ON u.id = s.user_id
 WHERE s.session_token = ? LIMIT 1`;

export interface NewSession {
  token: string;
  csrfToken: string;
  expires: Date;
}

/** Without `caches` (tools, tests that only mint sessions) every resolve reads the database. */
export function sessions({
  db,
  clock,
  caches = readCaches({ ttlMs: 0, clock }),
}: {
  db: Db;
  clock: Clock;
  caches?: ReadCaches;
}) {
  const sessionByHash = caches.cached(async (hash: string): Promise<{ session: Session; user: User } | null> => {
    // One query: the session and its user together.
    const { rows } = await db.raw(SESSION_BY_HASH, [hash]).options(prepared(db, 'session-by-hash'));
    const row = rows[0] as Record<string, unknown> | undefined;
    // A blocked or deleted person's sessions were ended with the block or the deletion; one that slipped through is
    // no session either.
    if (!row || row[asMember('blockedAt')] || row[asMember('deletedAt')]) return null;
    const user = User.fromDatabaseJson(
      Object.fromEntries(USER_COLUMNS.map((column) => [column, row[asMember(column)]])),
    );
    const session = Session.fromDatabaseJson(
      Object.fromEntries(SESSION_COLUMNS.map((column) => [column, row[column]])),
    );
    const now = clock.now();
    if (
      session.expires > now &&
      (!session.lastSeenAt || now.getTime() - session.lastSeenAt.getTime() > SEEN_RESOLUTION_MS)
    ) {
      await db('sessions').where({ id: session.id }).update({ lastSeenAt: now });
    }
    return { session, user };
  });

  return {
    /**
     * A fresh session (30 days, absolute); the cookie carries `token`, the database only its hash. The sign-in is
     * recorded too, for the person's timeline in the console (the session row goes at sign-out).
     */
    async create(
      trx: Knex | Knex.Transaction,
      userId: string,
      userAgent: string | null,
      method: SignInMethod,
    ): Promise<NewSession> {
      const token = newSecret();
      const csrfToken = newSecret();
      const expires = new Date(clock.now().getTime() + SESSION_TTL_MS);
      await trx('sessions').insert({
        sessionToken: hashSecret(token),
        csrfToken,
        userId,
        expires,
        userAgent: userAgent?.slice(0, 500) ?? null,
      });
      await trx('signIns').insert({ userId, method, userAgent: userAgent?.slice(0, 500) ?? null });
      return { token, csrfToken, expires };
    },

    /**
     * The session a cookie names, with its user, or null. Kept in the read cache (READ_CACHE_MS) so a signed-in
     * page costs no query of its own: signing out here forgets it at once, the console's user and role changes
     * clear the caches, and a change made by another process shows within the cache's lifetime.
     */
    async resolve(token: string): Promise<{ session: Session; user: User } | null> {
      const hash = hashSecret(token);
      const found = await sessionByHash(hash);
      if (!found) return null;
      if (found.session.expires <= clock.now()) {
        sessionByHash.forget(hash);
        await db('sessions').where({ id: found.session.id }).delete();
        return null;
      }
      return found;
    },

    async destroy(session: Pick<Session, 'id' | 'sessionToken'>): Promise<void> {
      sessionByHash.forget(session.sessionToken);
      await db('sessions').where({ id: session.id }).delete();
    },

    /** Forgets cached sessions by their stored hashes, after the caller deleted them (sign out everywhere). */
    forget(hashes: readonly string[]): void {
      for (const hash of hashes) sessionByHash.forget(hash);
    },

    /** How many live sessions a person has besides `exceptId` (the one asking). */
    async countOthers(userId: string, exceptId: string | null): Promise<number> {
      const query = db('sessions').where({ userId }).where('expires', '>', clock.now());
      if (exceptId) query.whereNot('id', exceptId);
      const { count } = (await query.count({ count: '*' }).first()) as { count: number };
      return count;
    },
  };
}

export type Sessions = ReturnType<typeof sessions>;
