import request from 'supertest';
import { describe, expect, it } from 'vitest';
import type { Role } from '../../api/src/shared/roles';
import { hashSecret, newSecret } from '../../api/src/identity/secrets';
import { createUser } from '../../seeds/factories';
import { testApp } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';

/** A person's tools in the console act on learners for support; on anyone who can open the console, for admins only. */
describe('staff accounts and what support may do to them', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const app = () => testApp(db());
  const count = async (table: string, where: Record<string, unknown>) =>
    Number((await db()(table).where(where).count({ n: '*' }))[0]!.n);
  const post = (who: SignedIn, url: string, body: object = {}) => as(who, request(app()).post(url)).send(body);

  /** Everything a person's sign-ins leave behind, as the console lists it: one of each. */
  async function signInsOf(person: SignedIn) {
    const [account] = await db()('accounts')
      .insert({ userId: person.user.id, type: 'oauth', provider: 'github', providerAccountId: newSecret() })
      .returning('id');
    const session = await db()('sessions').where({ userId: person.user.id }).first('id');
    const [link] = await db()('verificationTokens')
      .insert({ token: hashSecret(newSecret()), identifier: person.user.email, expires: new Date(Date.now() + 60_000) })
      .returning('id');
    const [device] = await db()('deviceAccessTokens')
      .insert({ token: hashSecret(newSecret()), userId: person.user.id, clientId: 'cli' })
      .returning('id');
    const [approval] = await db()('deviceVerifications')
      .insert({
        deviceCode: hashSecret(newSecret()),
        userCode: Array.from({ length: 8 }, () => 'BCDFGHJKLMNPQRSTVWXZ'[Math.floor(Math.random() * 20)]).join(''),
        expires: new Date(Date.now() + 60_000),
        verifiedAt: new Date(),
        verifiedByUserId: person.user.id,
      })
      .returning('id');
    return {
      accounts: account.id as string,
      sessions: session.id as string,
      'verification-tokens': link.id as string,
      'device-access-tokens': device.id as string,
      'device-verifications': approval.id as string,
    };
  }
  const TABLES = {
    accounts: 'accounts',
    sessions: 'sessions',
    'verification-tokens': 'verificationTokens',
    'device-access-tokens': 'deviceAccessTokens',
    'device-verifications': 'deviceVerifications',
  } as const;

  it.each<[Role]>([['contributor'], ['finance'], ['admin']])(
    'support may not change the email of, block, sign out, delete or view as a %s; an admin may',
    async (role) => {
      const support = await signedIn(db(), ['support']);
      const admin = await signedIn(db(), ['admin']);
      const staff = await signedIn(db(), [role], `${role}.member@example.com`);
      const id = staff.user.id;
      const audits = await count('auditLogs', { recordId: id });

      const refusals = [
        await post(support, `/api/admin/users/${id}/change-email`, { email: 'taken.over@example.com' }),
        await post(support, `/api/admin/users/${id}/block`, { reason: 'Taking the account over' }),
        await post(support, `/api/admin/users/${id}/sign-out-everywhere`),
        await as(support, request(app()).delete(`/api/admin/users/${id}`)),
        await as(support, request(app()).put(`/api/admin/users/${id}`)).send({ name: 'Renamed by support' }),
      ];
      for (const refused of refusals) {
        expect(refused.status, refused.request.url).toBe(403);
        expect(refused.body.code).toBe('forbidden');
        expect(refused.body.message).toMatch(/^Only administrators can .* staff accounts\.$/);
      }
      const viewAs = await post(support, `/api/admin/users/${id}/view-as`, { reason: 'Checking their lessons' });
      expect(viewAs.status).toBe(403);
      expect(viewAs.body.code).toBe('view-as-staff');

      // Nothing happened to them: same address, not blocked, still signed in, nobody viewing, nothing audited.
      expect(await db()('users').where({ id }).first()).toMatchObject({
        email: `${role}.member@example.com`,
        blockedAt: null,
        name: staff.user.name,
      });
      expect((await as(staff, request(app()).get('/api/store/me'))).status).toBe(200);
      expect(await count('viewAsSessions', { learnerUserId: id })).toBe(0);
      expect(await count('auditLogs', { recordId: id })).toBe(audits);

      // Their bio is the sales page's copy beside their courses: support keeps it, on its own.
      const bio = await as(support, request(app()).put(`/api/admin/users/${id}`)).send({ bio: 'Teaches generics.' });
      expect(bio.status).toBe(200);
      expect(await db()('users').where({ id }).first()).toMatchObject({
        bio: 'Teaches generics.',
        name: staff.user.name,
      });
      const bioAndName = await as(support, request(app()).put(`/api/admin/users/${id}`)).send({
        bio: 'Teaches conditional types.',
        name: 'Renamed by support',
      });
      expect(bioAndName.status).toBe(403);
      expect((await db()('users').where({ id }).first()).bio).toBe('Teaches generics.');

      // An administrator may (blocking last: it signs them out).
      if (role !== 'admin') {
        expect(
          (await post(admin, `/api/admin/users/${id}/change-email`, { email: `${role}.new@example.com` })).status,
        ).toBe(200);
        expect((await post(admin, `/api/admin/users/${id}/block`, { reason: 'Left the company' })).status).toBe(200);
      }
    },
  );

  it('support may not remove a staff member’s sessions, links, devices or linked GitHub, one by one or several at once', async () => {
    const support = await signedIn(db(), ['support']);
    const chief = await signedIn(db(), ['admin']);
    const writer = await signedIn(db(), ['contributor']);
    const learner = await signedIn(db());
    const ofChief = await signInsOf(chief);
    const ofWriter = await signInsOf(writer);
    const ofLearner = await signInsOf(learner);

    for (const [resource, table] of Object.entries(TABLES) as [keyof typeof TABLES, string][]) {
      // The console's bulk delete is one DELETE per selected row: each refused, none removed.
      const answers = await Promise.all(
        [ofChief[resource], ofWriter[resource]].map((rowId) =>
          as(support, request(app()).delete(`/api/admin/${resource}/${rowId}`)),
        ),
      );
      for (const refused of answers) {
        expect(refused.status, resource).toBe(403);
        expect(refused.body.code, resource).toBe('forbidden');
      }
      expect(await count(table, { id: ofChief[resource] }), resource).toBe(1);
      expect(await count(table, { id: ofWriter[resource] }), resource).toBe(1);

      // A learner's are support's to remove; a staff member's an administrator's.
      expect((await as(support, request(app()).delete(`/api/admin/${resource}/${ofLearner[resource]}`))).status).toBe(
        200,
      );
      expect((await as(chief, request(app()).delete(`/api/admin/${resource}/${ofWriter[resource]}`))).status).toBe(200);
    }
    // Still signed in, both of them (the admin's own session was never touched).
    expect((await as(chief, request(app()).get('/api/store/me'))).status).toBe(200);
    expect(await count('sessions', { userId: writer.user.id })).toBe(0);
    expect(await count('auditLogs', { actorId: support.user.id, action: 'delete' })).toBe(5);
  });

  it('support may not change a staff member’s picture, but may their own and a learner’s', async () => {
    const support = await signedIn(db(), ['support']);
    const writer = await createUser(db(), { roles: ['contributor'] });
    const removed = await as(support, request(app()).delete(`/api/admin/users/${writer.id}/avatar`));
    expect(removed.status).toBe(403);
    expect(removed.body.code).toBe('forbidden');
    const learner = await createUser(db());
    expect((await as(support, request(app()).delete(`/api/admin/users/${learner.id}/avatar`))).status).toBe(200);
    expect((await as(support, request(app()).delete(`/api/admin/users/${support.user.id}/avatar`))).status).toBe(200);
  });
});
