import type { Knex } from 'knex';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Db } from '../../db/connection';
import { AppError } from '../../shared/errors';
import type { Outbox } from '../../mail/outbox';
import { signInEmail } from '../../mail/templates';
import { ACCOUNT_BLOCKED_MESSAGE, isUserBlocked } from '../staff/blocks';
import type { User } from '../models';
import { networkOf, type RateLimiter } from '../rate-limit';
import { safeRedirect } from '../../shared/safe-redirect';
import { hashSecret, newSecret } from '../secrets';
import type { NewSession, Sessions } from './sessions';
import { findOrCreateUserByEmail } from '../profile/users';

export const SIGN_IN_LINK_MINUTES = 15;
/**
 * A receipt's link into the course: a receipt is read later than a sign-in email (the next morning, after a
 * weekend), so it lasts a week; it is still used once, by the Continue button's POST.
 */
export const RECEIPT_SIGN_IN_DAYS = 7;
/**
 * Sign-in emails are limited per address from one client network (what a stranger can use up of someone else's
 * address, leaving the owner theirs on their own network), per address from anywhere (a ceiling on one inbox: six
 * networks' worth), and per network (one client asking for many addresses).
 */
export const SIGN_IN_LIMITS = {
  perEmailPerNetwork: { max: 5, windowSeconds: 15 * 60 },
  perEmail: { max: 30, windowSeconds: 15 * 60 },
  perIp: { max: 30, windowSeconds: 15 * 60 },
};

interface Deps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'publicUrl'>;
  outbox: Outbox;
  limiter: RateLimiter;
  sessions: Sessions;
}

/** The link in the email opens a page with a Continue button; only that button's POST uses the token. */
export function signInLink(publicUrl: string, email: string, token: string): string {
  const url = new URL('/login/continue', publicUrl);
  url.searchParams.set('email', email);
  url.searchParams.set('token', token);
  return url.toString();
}

/**
 * A single-use sign-in token for `email`, stored hashed, that lasts `lifetimeMs` from `now` and finishes on
 * `redirectTo` (made safe here); answers the link, whose token the email that carries it keeps as its secret. Written
 * on the caller's connection, so a receipt's link exists exactly when its purchase does.
 */
export async function issueSignInLink(trx: Knex | Knex.Transaction, input: SignInLinkInput): Promise<string> {
  const { link, insert } = signInLinkWrite(trx, input);
  await insert;
  return link;
}

type SignInLinkInput = { publicUrl: string; email: string; redirectTo: string | null; now: Date; lifetimeMs: number };

/**
 * `issueSignInLink`'s link and the insert that stores its token (and its row), for the caller to send with its other
 * writes.
 */
export function signInLinkWrite(
  trx: Knex | Knex.Transaction,
  input: SignInLinkInput,
): { link: string; insert: Knex.QueryBuilder; row: Record<string, unknown> } {
  const token = newSecret();
  // As the Continue button sends it back (EmailAddress lower-cases): an account's address may have capitals.
  const email = input.email.toLowerCase();
  const row = {
    token: hashSecret(token),
    identifier: email,
    // Both from the service's clock: an expired link's message says how long it lasted.
    createdAt: input.now,
    expires: new Date(input.now.getTime() + input.lifetimeMs),
    redirectTo: input.redirectTo === null ? null : safeRedirect(input.redirectTo),
  };
  return { link: signInLink(input.publicUrl, email, token), insert: trx('verificationTokens').insert(row), row };
}

/** "15 minutes", "7 days": how long a link lasted, for the message of one that expired. */
function lifetimeText(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 120) return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} hours`;
  return `${Math.round(hours / 24)} days`;
}

export function emailSignIn({ db, clock, config, outbox, limiter, sessions }: Deps) {
  /** A single-use token for `email`, stored hashed; returns the link. */
  async function issueToken(trx: Db, email: string, redirectTo: string | null): Promise<string> {
    const lifetimeMs = SIGN_IN_LINK_MINUTES * 60 * 1000;
    return issueSignInLink(trx, { publicUrl: config.publicUrl, email, redirectTo, now: clock.now(), lifetimeMs });
  }

  return {
    async requestLink(input: { email: string; redirectTo?: string; ip: string }): Promise<void> {
      const network = networkOf(input.ip);
      await limiter.hit(
        { bucket: `sign-in:ip:${network}`, ...SIGN_IN_LIMITS.perIp },
        'sign-in requests from your network',
      );
      // The ceiling counts only what passed the per-network limit: each network adds at most its own five.
      await limiter.hit(
        { bucket: `sign-in:email-network:${input.email}:${network}`, ...SIGN_IN_LIMITS.perEmailPerNetwork },
        'sign-in emails for this address from your network',
      );
      await limiter.hit(
        { bucket: `sign-in:email:${input.email}`, ...SIGN_IN_LIMITS.perEmail },
        'sign-in emails for this address',
      );
      await db.transaction(async (trx) => {
        const link = await issueToken(trx, input.email, safeRedirect(input.redirectTo, '/'));
        await outbox.enqueue(trx, signInEmail(input.email, link, SIGN_IN_LINK_MINUTES));
      });
      outbox.flushInBackground();
    },

    /** For operations (the CLI): a link without an email. */
    async createLink(email: string, redirectTo = '/'): Promise<string> {
      return issueToken(db, email, safeRedirect(redirectTo));
    },

    /**
     * Uses the token once: it is deleted whether it is fresh or expired. A fresh one signs the person in
     * (creating the account on first sign-in) with a new session.
     */
    async consume(input: {
      email: string;
      token: string;
      userAgent: string | null;
    }): Promise<{ user: User; session: NewSession; redirectTo: string }> {
      const outcome = await db.transaction(async (trx) => {
        const [row] = await trx('verificationTokens')
          .where({ token: hashSecret(input.token), identifier: input.email })
          .delete()
          .returning(['expires', 'redirectTo', 'createdAt']);
        if (!row) return { kind: 'invalid' as const };
        const lasted = new Date(row.expires).getTime() - new Date(row.createdAt).getTime();
        if (new Date(row.expires) <= clock.now()) return { kind: 'expired' as const, lasted };
        const user = await findOrCreateUserByEmail(trx, input.email, { verified: true });
        // Share-locked: a block committing meanwhile either ends this session with the others or is seen here.
        if (await isUserBlocked(trx, user.id, true)) return { kind: 'blocked' as const };
        const session = await sessions.create(trx, user.id, input.userAgent, 'email');
        return { kind: 'signed-in' as const, user, session, redirectTo: safeRedirect(row.redirectTo) };
      });
      if (outcome.kind === 'invalid') {
        throw new AppError(
          'sign-in-link-invalid',
          'This sign-in link is not valid or was already used. Ask for a new one.',
        );
      }
      if (outcome.kind === 'blocked') throw new AppError('account-blocked', ACCOUNT_BLOCKED_MESSAGE);
      if (outcome.kind === 'expired') {
        throw new AppError(
          'sign-in-link-expired',
          // A sign-in email's link lasts minutes, a receipt's days: say which this one was.
          `This sign-in link expired (it lasted ${lifetimeText(outcome.lasted)}). Ask for a new one.`,
        );
      }
      return outcome;
    },
  };
}

export type EmailSignIn = ReturnType<typeof emailSignIn>;
