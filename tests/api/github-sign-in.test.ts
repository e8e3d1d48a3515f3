import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Account, User } from '../support/models';
import { createUser } from '../../seeds/factories';
import { testApp, testConfig } from '../support/app';
import { as, signedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';
import { startGitHubStandIn, type GitHubPerson } from '../support/github-stand-in';
import { tablesHolding } from '../support/secrets';

describe('sign in with GitHub (authorization code + state + PKCE)', () => {
  const database = useTestDatabase();
  let github: Awaited<ReturnType<typeof startGitHubStandIn>>;
  beforeAll(async () => {
    github = await startGitHubStandIn('gh-client', 'gh-secret');
  });
  afterAll(() => github.close());

  const app = () => testApp(database().db, { config: testConfig(github.env) });
  const person = (id: number, emails: GitHubPerson['emails']): GitHubPerson => ({
    id,
    login: `octo${id}`,
    name: `Octo ${id}`,
    emails,
  });

  /** The state cookie the start set, as the browser sends it back to the callback. */
  const stateCookie = (start: request.Response) =>
    (start.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('lp_oauth_state='))!.split(';')[0]!;

  /** The browser's round trip: our start → GitHub authorize → our callback, with the cookie the start set. */
  async function signInWith(who: GitHubPerson, redirectTo = '/devices') {
    const start = await request(app()).get('/api/store/auth/github').query({ redirectTo });
    expect(start.status).toBe(302);
    const authorize = new URL(start.headers.location!);
    const code = github.authorize(authorize, who);
    const callback = await request(app())
      .get('/api/store/auth/github/callback')
      .set('Cookie', stateCookie(start))
      .query({ code, state: authorize.searchParams.get('state') });
    return { authorize, callback, cookie: stateCookie(start) };
  }

  it('sends the browser to GitHub with state and an S256 challenge', async () => {
    const start = await request(app()).get('/api/store/auth/github');
    const url = new URL(start.headers.location!);
    expect(url.origin + url.pathname).toBe(github.env.GITHUB_AUTHORIZE_URL);
    expect(url.searchParams.get('client_id')).toBe('gh-client');
    expect(url.searchParams.get('redirect_uri')).toBe('http://localhost:3000/api/store/auth/github/callback');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('state')?.length).toBeGreaterThanOrEqual(32);
  });

  it("creates the account on first sign-in, signs in, and stores none of GitHub's tokens", async () => {
    const issuedBefore = github.issued.length;
    const { callback } = await signInWith(
      person(101, [
        { email: 'octo-secondary@example.com', primary: false, verified: true },
        { email: 'Octo@Example.com', primary: true, verified: true },
      ]),
    );
    expect(callback.status).toBe(302);
    expect(callback.headers.location).toBe('/devices');
    const cookies = (callback.headers['set-cookie'] as unknown as string[]).map((c) => c.split(';')[0]).join('; ');
    const me = await request(app()).get('/api/store/me').set('Cookie', cookies);
    expect(me.body.user).toMatchObject({ email: 'octo@example.com', name: 'Octo 101' });

    const account = await Account.query(database().db).findOne({ provider: 'github', providerAccountId: '101' });
    // GitHub's tokens served the sign-in's profile calls and nothing after: used, never stored.
    expect(account).toMatchObject({
      accessToken: null,
      refreshToken: null,
      expiresAt: null,
      tokenType: 'bearer',
      scope: 'read:user,user:email',
    });
    const tokens = github.issued.slice(issuedBefore);
    expect(tokens).toHaveLength(2); // access and refresh
    for (const token of tokens) expect(await tablesHolding(database().db, token), token).toEqual([]);
    expect(github.received.at(-1)?.code_verifier).toBeDefined();

    const admin = await signedIn(database().db, ['admin']);
    const listed = await as(
      admin,
      request(app())
        .get('/api/admin/accounts')
        .query({ filter: JSON.stringify({ userId: account!.userId }) }),
    );
    expect(listed.status).toBe(200);
    expect(listed.body).toHaveLength(1);
    expect(JSON.stringify(listed.body)).not.toContain('gho_');
    expect(listed.body[0]).not.toHaveProperty('accessToken');
  });

  it('links to an existing account by verified email, and reuses the link next time', async () => {
    const existing = await createUser(database().db, { email: 'linked@example.com' });
    await signInWith(person(202, [{ email: 'linked@example.com', primary: true, verified: true }]));
    const account = await Account.query(database().db).findOne({ providerAccountId: '202' });
    expect(account?.userId).toBe(existing.id);
    // The GitHub email changes later: the account link, not the email, identifies the person.
    await signInWith(person(202, [{ email: 'renamed@example.com', primary: true, verified: true }]));
    expect(await User.query(database().db).where('email', 'renamed@example.com').resultSize()).toBe(0);
    // Signing in again through the link stores no token either.
    expect(await Account.query(database().db).findOne({ providerAccountId: '202' })).toMatchObject({
      accessToken: null,
      refreshToken: null,
    });
    for (const token of github.issued) expect(await tablesHolding(database().db, token), token).toEqual([]);
  });

  it('refuses a GitHub account without a verified email', async () => {
    const { callback } = await signInWith(
      person(303, [{ email: 'unverified@example.com', primary: true, verified: false }]),
    );
    expect(callback.headers.location).toBe('/login?error=github-no-verified-email');
    expect(await User.query(database().db).where('email', 'unverified@example.com').resultSize()).toBe(0);
  });

  it('uses each state once, and fails when the verifier does not match', async () => {
    const who = person(404, [{ email: 'replay@example.com', primary: true, verified: true }]);
    const { authorize, callback, cookie } = await signInWith(who);
    expect(callback.headers.location).toBe('/devices');
    const code = github.authorize(authorize, who);
    const replay = await request(app())
      .get('/api/store/auth/github/callback')
      .set('Cookie', cookie)
      .query({ code, state: authorize.searchParams.get('state') });
    expect(replay.headers.location).toBe('/login?error=github-state-invalid');

    // A code bound to another challenge (an attacker's) fails the PKCE check at GitHub.
    const start = await request(app()).get('/api/store/auth/github');
    const ours = new URL(start.headers.location!);
    const foreign = new URL(ours);
    foreign.searchParams.set('code_challenge', 'A'.repeat(43));
    const stolen = github.authorize(foreign, who);
    const exchange = await request(app())
      .get('/api/store/auth/github/callback')
      .set('Cookie', stateCookie(start))
      .query({ code: stolen, state: ours.searchParams.get('state') });
    expect(exchange.headers.location).toBe('/login?error=github-exchange-failed');

    const denied = await request(app()).get('/api/store/auth/github');
    const deniedState = new URL(denied.headers.location!).searchParams.get('state');
    const back = await request(app())
      .get('/api/store/auth/github/callback')
      .set('Cookie', stateCookie(denied))
      .query({ error: 'access_denied', state: deniedState });
    expect(back.headers.location).toBe('/login?error=github-denied');
  });

  it('refuses a callback in a browser that did not start the sign-in (login CSRF)', async () => {
    // An attacker authorizes their own GitHub account and sends the victim the callback link.
    const attacker = await request(app()).get('/api/store/auth/github');
    const authorize = new URL(attacker.headers.location!);
    const code = github.authorize(
      authorize,
      person(505, [{ email: 'attacker@example.com', primary: true, verified: true }]),
    );
    const victim = await request(app())
      .get('/api/store/auth/github/callback')
      .query({ code, state: authorize.searchParams.get('state') });
    expect(victim.headers.location).toBe('/login?error=github-state-invalid');
    expect(victim.headers['set-cookie']?.toString() ?? '').not.toContain('lp_session=');
    expect(await User.query(database().db).where('email', 'attacker@example.com').resultSize()).toBe(0);
  });

  it('refuses a blocked person, linked or found by email, with no session', async () => {
    const db = database().db;
    const blocked = await createUser(db, { email: 'octo.blocked@example.com' });
    await db('users').where({ id: blocked.id }).update({ blockedAt: new Date(), blockedReason: 'Chargebacks' });
    const who = person(606, [{ email: 'Octo.Blocked@example.com', primary: true, verified: true }]);
    for (const linked of [false, true]) {
      // Found by their verified email the first time; through an account linked before the block the second.
      if (linked)
        await Account.query(db).insert({
          userId: blocked.id,
          type: 'oauth',
          provider: 'github',
          providerAccountId: '606',
        });
      const { callback } = await signInWith(who);
      expect(callback.status).toBe(302);
      expect(callback.headers.location).toBe('/login?error=github-account-blocked');
      const cookies = (callback.headers['set-cookie'] as unknown as string[]).map((c) => c.split(';')[0] ?? '');
      expect(cookies.some((c) => c.startsWith('lp_session=') && c !== 'lp_session=')).toBe(false);
    }
    expect(await db('sessions').where({ userId: blocked.id })).toHaveLength(0);
  });

  it('no longer signs in to an account through the GitHub of its old address once staff changed the address', async () => {
    const db = database().db;
    const support = await signedIn(db, ['support']);
    const owner = await createUser(db, { email: 'kept.account@example.com' });
    const formerGitHub = person(707, [{ email: 'kept.account@example.com', primary: true, verified: true }]);
    // Linked by the address the account had: it signs in as them.
    const before = await signInWith(formerGitHub);
    const signedInAs = async (callback: request.Response) => {
      const cookies = (callback.headers['set-cookie'] as unknown as string[]).map((c) => c.split(';')[0]).join('; ');
      return (await request(app()).get('/api/store/me').set('Cookie', cookies)).body.user as {
        id: string;
        email: string;
      };
    };
    expect((await signedInAs(before.callback)).id).toBe(owner.id);

    const changed = await as(support, request(app()).post(`/api/admin/users/${owner.id}/change-email`)).send({
      email: 'rightful.owner@example.com',
    });
    expect(changed.status).toBe(200);
    expect(await Account.query(db).where({ userId: owner.id })).toEqual([]);
    const entry = await db('auditLogs').where({ action: 'user.email-changed', recordId: owner.id }).first();
    expect(entry.after).toMatchObject({ accountsUnlinked: 1, sessionsEnded: 1 });

    // The same GitHub now reaches only an account of its own address, not the one it was linked to.
    const after = await signInWith(formerGitHub);
    expect(after.callback.headers.location).toBe('/devices');
    const stranger = await signedInAs(after.callback);
    expect(stranger).toMatchObject({ email: 'kept.account@example.com' });
    expect(stranger.id).not.toBe(owner.id);
    expect(await db('sessions').where({ userId: owner.id })).toHaveLength(0);

    // The rightful owner links their own GitHub again by its verified (new) address.
    const theirs = await signInWith(
      person(708, [{ email: 'rightful.owner@example.com', primary: true, verified: true }]),
    );
    expect((await signedInAs(theirs.callback)).id).toBe(owner.id);
  });

  it('is off, and says so, when no client id is configured', async () => {
    const plain = testApp(database().db);
    expect((await request(plain).get('/api/store/auth/providers')).body).toEqual({ email: true, github: false });
    const start = await request(plain).get('/api/store/auth/github');
    expect(start.status).toBe(404);
    expect(start.body.code).toBe('oauth-provider-not-configured');
    expect((await request(app()).get('/api/store/auth/providers')).body.github).toBe(true);
  });
});
