import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { AuditLog, DeviceAccessToken, User } from '../support/models';
import { hashSecret, newSecret } from '../../api/src/identity/secrets';
import { createUser } from '../../seeds/factories';
import { testApp } from '../support/app';
import { as, signedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';

describe('the console: users, sessions and devices', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const app = () => testApp(db());

  it('searches users by email or name and filters by role', async () => {
    const admin = await signedIn(db(), ['admin'], 'chief@example.com');
    await createUser(db(), { email: 'grace.hopper@example.com', name: 'Grace Hopper' });
    await createUser(db(), { email: 'ops@example.com', name: 'Kay Ops', roles: ['support'] });
    const byName = await as(
      admin,
      request(app())
        .get('/api/admin/users')
        .query({ filter: JSON.stringify({ q: 'hopper' }) }),
    );
    expect(byName.body.map((u: User) => u.email)).toEqual(['grace.hopper@example.com']);
    const byRole = await as(
      admin,
      request(app())
        .get('/api/admin/users')
        .query({ filter: JSON.stringify({ roles: 'support' }) }),
    );
    expect(byRole.body.map((u: User) => u.email)).toEqual(['ops@example.com']);
    expect(byRole.headers['content-range']).toBe('users 0-0/1');
  });

  it('lets admins change roles, audited; support may rename learners but not change roles', async () => {
    const admin = await signedIn(db(), ['admin']);
    const support = await signedIn(db(), ['support']);
    const target = await createUser(db());

    const promoted = await as(admin, request(app()).put(`/api/admin/users/${target.id}`)).send({
      roles: ['learner', 'finance'],
    });
    expect(promoted.status).toBe(200);
    expect(promoted.body.roles).toEqual(['finance', 'learner']);
    const entry = await AuditLog.query(db()).where({ resource: 'users', recordId: target.id }).first();
    expect(entry).toMatchObject({
      actorId: admin.user.id,
      action: 'update',
      before: { roles: ['learner'] },
      after: { roles: ['finance', 'learner'] },
    });

    const refused = await as(support, request(app()).put(`/api/admin/users/${target.id}`)).send({ roles: ['admin'] });
    expect(refused.status).toBe(403);
    expect(refused.body.errors).toHaveProperty('roles');
    expect((await User.query(db()).findById(target.id))?.roles).toEqual(['finance', 'learner']);

    // A learner's name is support's to change; a staff member's (as the rest of their account) an administrator's.
    const learner = await createUser(db());
    const renamed = await as(support, request(app()).put(`/api/admin/users/${learner.id}`)).send({ name: 'New Name' });
    expect(renamed.body.name).toBe('New Name');
    const staffRenamed = await as(support, request(app()).put(`/api/admin/users/${target.id}`)).send({ name: 'X' });
    expect(staffRenamed.status).toBe(403);

    const unknownKey = await as(admin, request(app()).put(`/api/admin/users/${target.id}`)).send({
      email: 'x@example.com',
    });
    expect(unknownKey.status).toBe(400);
    const badRole = await as(admin, request(app()).put(`/api/admin/users/${target.id}`)).send({ roles: ['wizard'] });
    expect(badRole.status).toBe(400);
    const selfDemotion = await as(admin, request(app()).put(`/api/admin/users/${admin.user.id}`)).send({
      roles: ['learner'],
    });
    expect(selfDemotion.status).toBe(400);
  });

  it('lists sessions and device tokens without their secrets, and revokes them', async () => {
    const support = await signedIn(db(), ['support']);
    const learner = await signedIn(db());
    const secret = newSecret();
    const device = await DeviceAccessToken.query(db()).insertAndFetch({
      token: hashSecret(secret),
      userId: learner.user.id,
      clientId: 'cli',
    });

    const filter = { filter: JSON.stringify({ userId: learner.user.id }) };
    const listed = await as(support, request(app()).get('/api/admin/sessions').query(filter));
    expect(listed.body).toHaveLength(1);
    expect(Object.keys(listed.body[0]).sort()).toEqual([
      'createdAt',
      'expires',
      'id',
      'lastSeenAt',
      'userAgent',
      'userId',
    ]);
    const devices = await as(support, request(app()).get('/api/admin/device-access-tokens').query(filter));
    expect(devices.body).toEqual([expect.objectContaining({ id: device.id, clientId: 'cli' })]);
    expect(devices.body[0]).not.toHaveProperty('token');

    const revoked = await as(support, request(app()).delete(`/api/admin/sessions/${listed.body[0].id}`));
    expect(revoked.status).toBe(200);
    expect((await as(learner, request(app()).get('/api/store/me'))).status).toBe(401);
    expect((await as(support, request(app()).delete(`/api/admin/device-access-tokens/${device.id}`))).status).toBe(200);
    expect((await request(app()).get('/oauth/userinfo').set('Authorization', `Bearer ${secret}`)).status).toBe(401);
    expect((await as(support, request(app()).delete(`/api/admin/sessions/${listed.body[0].id}`))).status).toBe(404);
    expect(
      await AuditLog.query(db())
        .where({ action: 'delete' })
        .whereIn('resource', ['sessions', 'device-access-tokens'])
        .resultSize(),
    ).toBe(2);
  });
});
