import * as oauth from 'oauth4webapi';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Db } from '../../db/connection';
import { AppError } from '../../shared/errors';
import type { Account, OAuthState, User } from '../models';
import { safeRedirect } from '../../shared/safe-redirect';
import { hashSecret, sameSecret } from '../secrets';
import type { NewSession, Sessions } from './sessions';
import { findOrCreateUserByEmail } from '../profile/users';

const STATE_TTL_MS = 10 * 60 * 1000;
export const GITHUB_PROVIDER = 'github';

export type GitHubConfig = Pick<
  Config,
  | 'GITHUB_CLIENT_ID'
  | 'GITHUB_CLIENT_SECRET'
  | 'GITHUB_AUTHORIZE_URL'
  | 'GITHUB_TOKEN_URL'
  | 'GITHUB_API_URL'
  | 'publicUrl'
>;

/** Why a GitHub sign-in failed, as a code the login page explains. */
export class GitHubSignInError extends Error {
  constructor(
    readonly reason: 'state-invalid' | 'denied' | 'exchange-failed' | 'no-verified-email' | 'account-blocked',
  ) {
    super(reason);
  }
}

interface GitHubUser {
  id: number;
  login: string;
  name: string | null;
  avatar_url: string | null;
}

interface GitHubEmail {
  email: string;
  primary: boolean;
  verified: boolean;
}

/**
 * Sign in with GitHub: authorization code with state and PKCE (S256). Accounts are linked by a verified
 * email. GitHub's access token serves the two profile calls of the sign-in and is then forgotten: nothing here
 * calls GitHub for the person later, so it is never stored (the database refuses it: accounts_keep_no_tokens).
 */
export function githubSignIn({
  db,
  clock,
  config,
  sessions,
}: {
  db: Db;
  clock: Clock;
  config: GitHubConfig;
  sessions: Sessions;
}) {
  const enabled = Boolean(config.GITHUB_CLIENT_ID && config.GITHUB_CLIENT_SECRET);
  const as: oauth.AuthorizationServer = {
    issuer: new URL(config.GITHUB_AUTHORIZE_URL).origin,
    authorization_endpoint: config.GITHUB_AUTHORIZE_URL,
    token_endpoint: config.GITHUB_TOKEN_URL,
  };
  const client: oauth.Client = { client_id: config.GITHUB_CLIENT_ID ?? '' };
  const redirectUri = new URL('/api/store/auth/github/callback', config.publicUrl).toString();
  // The provider's URLs are configuration; plain http is allowed only where an operator points them at one.
  const insecure = [config.GITHUB_AUTHORIZE_URL, config.GITHUB_TOKEN_URL].some((u) => u.startsWith('http:'));
  const requestOptions = insecure ? { [oauth.allowInsecureRequests]: true } : {};

  function assertEnabled(): void {
    if (!enabled)
      throw new AppError('oauth-provider-not-configured', 'Sign-in with GitHub is not set up on this site.');
  }

  async function githubApi<T>(accessToken: string, path: string): Promise<T> {
    const response = await fetch(new URL(path.replace(/^\//, ''), config.GITHUB_API_URL.replace(/\/?$/, '/')), {
      headers: {
        Authorization: `Bearer ${accessToken}`,
        Accept: 'application/vnd.github+json',
        'User-Agent': 'learning-platform',
      },
    });
    if (!response.ok) throw new GitHubSignInError('exchange-failed');
    return (await response.json()) as T;
  }

  return {
    enabled,

    /**
     * The GitHub authorize URL to send the browser to, and the state, which the caller also binds to the browser
     * (a cookie): the callback must come back to the browser that started, or an attacker could sign a victim
     * into the attacker's account. The PKCE verifier stays server-side.
     */
    async start(redirectTo: unknown): Promise<{ url: string; state: string }> {
      assertEnabled();
      const codeVerifier = oauth.generateRandomCodeVerifier();
      const state = oauth.generateRandomState();
      await db('oauthStates').insert({
        stateHash: hashSecret(state),
        provider: GITHUB_PROVIDER,
        codeVerifier,
        redirectTo: safeRedirect(redirectTo),
        expires: new Date(clock.now().getTime() + STATE_TTL_MS),
      });
      const url = new URL(config.GITHUB_AUTHORIZE_URL);
      url.searchParams.set('client_id', client.client_id);
      url.searchParams.set('redirect_uri', redirectUri);
      url.searchParams.set('scope', 'read:user user:email');
      url.searchParams.set('state', state);
      url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(codeVerifier));
      url.searchParams.set('code_challenge_method', 'S256');
      return { url: url.toString(), state };
    },

    /** Handles GitHub's redirect back: checks state once, exchanges the code with the verifier, signs in. */
    async callback(
      query: URLSearchParams,
      browserState: string | undefined,
      userAgent: string | null,
    ): Promise<{ user: User; session: NewSession; redirectTo: string }> {
      assertEnabled();
      const state = query.get('state') ?? '';
      if (!browserState || !sameSecret(browserState, state)) throw new GitHubSignInError('state-invalid');
      const [saved]: (OAuthState | undefined)[] = await db('oauthStates')
        .delete()
        .where({ stateHash: hashSecret(state), provider: GITHUB_PROVIDER })
        .returning('*');
      if (!saved || saved.expires <= clock.now()) throw new GitHubSignInError('state-invalid');

      let accessToken: string;
      let tokens: oauth.TokenEndpointResponse;
      try {
        const params = oauth.validateAuthResponse(as, client, query, state);
        const response = await oauth.authorizationCodeGrantRequest(
          as,
          client,
          oauth.ClientSecretPost(config.GITHUB_CLIENT_SECRET ?? ''),
          params,
          redirectUri,
          saved.codeVerifier,
          requestOptions,
        );
        tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
        accessToken = tokens.access_token;
      } catch (error) {
        if (error instanceof oauth.AuthorizationResponseError && error.error === 'access_denied')
          throw new GitHubSignInError('denied');
        throw new GitHubSignInError('exchange-failed');
      }

      const profile = await githubApi<GitHubUser>(accessToken, '/user');
      const emails = await githubApi<GitHubEmail[]>(accessToken, '/user/emails');
      const verified = emails.filter((e) => e.verified).sort((a, b) => Number(b.primary) - Number(a.primary));

      return db.transaction(async (trx) => {
        // Share-locked: an email change unlinking it meanwhile either ends this session with the others or is seen
        // here (the link is gone, and the person is found by GitHub's verified address instead).
        const linked: Pick<Account, 'id' | 'userId'> | undefined = await trx('accounts')
          .where({ provider: GITHUB_PROVIDER, providerAccountId: String(profile.id) })
          .forShare()
          .first('id', 'userId');
        let userId = linked?.userId;
        if (!userId) {
          const email = verified[0]?.email;
          if (!email) throw new GitHubSignInError('no-verified-email');
          userId = (
            await findOrCreateUserByEmail(trx, email.toLowerCase(), {
              verified: true,
              name: profile.name ?? profile.login,
              image: profile.avatar_url,
            })
          ).id;
        }
        // What was granted, for the console; not the tokens.
        const tokenFields = { tokenType: tokens.token_type, scope: tokens.scope ?? null };
        if (linked) await trx('accounts').where({ id: linked.id }).update(tokenFields);
        else
          await trx('accounts').insert({
            userId,
            type: 'oauth',
            provider: GITHUB_PROVIDER,
            providerAccountId: String(profile.id),
            ...tokenFields,
          });
        const user: User | undefined = await trx('users').where({ id: userId }).forShare().first();
        if (!user) throw new GitHubSignInError('exchange-failed');
        // Share-locked: a block committing meanwhile either ends this session with the others or is seen here.
        if (user.blockedAt) throw new GitHubSignInError('account-blocked');
        const session = await sessions.create(trx, userId, userAgent, 'github');
        return { user, session, redirectTo: saved.redirectTo ?? '/' };
      });
    },
  };
}

export type GitHubSignIn = ReturnType<typeof githubSignIn>;
