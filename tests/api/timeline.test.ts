import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import type { Product } from '../support/models';
import { createServices, type Services } from '../../api/src/services';
import { createProduct } from '../../seeds/factories';
import { testDeps } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { boughtWithTestProvider } from '../support/checkout';
import { useTestDatabase } from '../support/db';

/** Issue 19 §1: a person's and a purchase's timeline, with internal notes, for the console and integrators. */
describe('timelines and internal notes', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let services: Services;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let course: Product;
  let support: SignedIn;

  beforeAll(async () => {
    const deps = testDeps(db());
    services = createServices(deps);
    app = createApp(deps, { services }).callback();
    course = await createProduct(db(), { name: 'Timeline Course', unitAmount: 4_900 });
    support = await signedIn(db(), ['support']);
  });

  const admin = (who: SignedIn, method: 'get' | 'post', path: string, body?: object) =>
    as(who, request(app)[method](`/api/admin${path}`)).send(body);

  it('lists what happened to a person newest first, with notes, a refund, sign-ins and emails, page by page', async () => {
    const learner = await signedIn(db());
    const purchaseId = await boughtWithTestProvider(services, db(), { buyer: learner.user, productId: course.id });
    const refunded = await admin(support, 'post', `/purchases/${purchaseId}/refund`, {
      amount: 900,
      reasonCode: 'customer-request',
      reason: 'Late access',
    });
    expect(refunded.status).toBe(200);
    const note = await admin(support, 'post', `/users/${learner.user.id}/notes`, { body: 'Called about an invoice.' });
    expect(note.status).toBe(201);
    expect(note.body).toMatchObject({ userId: learner.user.id, purchaseId: null, authorEmail: support.user.email });

    const answer = await admin(support, 'get', `/users/${learner.user.id}/timeline`);
    expect(answer.status).toBe(200);
    const kinds = answer.body.data.map((e: { kind: string }) => e.kind);
    expect(kinds).toEqual(expect.arrayContaining(['purchase', 'payment', 'refund', 'sign-in', 'email', 'note']));
    // Newest first, the note (added last) on top.
    const times = answer.body.data.map((e: { at: string }) => Date.parse(e.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(answer.body.data[0]).toMatchObject({
      kind: 'note',
      summary: 'Internal note',
      detail: 'Called about an invoice.',
      by: support.user.email,
    });
    const refund = answer.body.data.find((e: { kind: string }) => e.kind === 'refund');
    expect(refund).toMatchObject({
      summary: 'Refund of $9.00 (succeeded)',
      detail: 'Reason: Requested by the customer: Late access',
      by: support.user.email,
      link: { resource: 'merchant-refunds' },
    });
    expect(answer.body.data.find((e: { kind: string }) => e.kind === 'purchase')).toMatchObject({
      summary: 'Bought Timeline Course for $49.00',
      link: { resource: 'purchases', id: purchaseId },
    });
    expect(answer.body.data.find((e: { kind: string }) => e.kind === 'email').summary).toMatch(/^Email “.+”: /);

    // Pages: two at a time, the same events in the same order, nothing twice.
    const total = answer.body.total as number;
    expect(total).toBe(answer.body.data.length);
    const paged: string[] = [];
    for (let page = 1; page <= Math.ceil(total / 2); page++) {
      const part = await admin(support, 'get', `/users/${learner.user.id}/timeline?page=${page}&perPage=2`);
      expect(part.body).toMatchObject({ total, page, perPage: 2 });
      paged.push(...part.body.data.map((e: { id: string }) => e.id));
    }
    expect(paged).toEqual(answer.body.data.map((e: { id: string }) => e.id));
    const past = await admin(support, 'get', `/users/${learner.user.id}/timeline?page=99&perPage=2`);
    expect(past.body).toMatchObject({ data: [], total });
  });

  it('keeps a purchase’s own story, with notes on it and a seat revoked from its team', async () => {
    const owner = await signedIn(db());
    const teamId = await boughtWithTestProvider(services, db(), {
      buyer: owner.user,
      productId: course.id,
      quantity: 2,
      team: true,
    });
    const { inviteCode } = await db()('coupons').where({ bulkPurchaseId: teamId }).first('inviteCode');
    const member = await signedIn(db());
    const seat = await as(member, request(app).post(`/api/store/invites/${inviteCode}/redeem`)).send();
    expect(seat.status).toBe(201);
    expect(
      (await as(owner, request(app).delete(`/api/store/teams/${teamId}/members/${seat.body.purchaseId}`)).send())
        .status,
    ).toBe(200);
    await admin(support, 'post', `/purchases/${teamId}/notes`, { body: 'Asked for an invoice per seat.' });

    const answer = await admin(support, 'get', `/purchases/${teamId}/timeline`);
    expect(answer.status).toBe(200);
    const summaries = answer.body.data.map((e: { summary: string }) => e.summary);
    expect(summaries).toEqual(
      expect.arrayContaining([
        'Internal note',
        'Team seat revoked',
        `${member.user.email} took a team seat of Timeline Course`,
      ]),
    );
    expect(summaries.some((s: string) => /^Bought seats of Timeline Course for a team \(\$[\d.,]+\)$/.test(s))).toBe(
      true,
    );
    // The note is the purchase's and its buyer's, and nobody else's.
    const ownerTimeline = await admin(support, 'get', `/users/${owner.user.id}/timeline`);
    expect(ownerTimeline.body.data.filter((e: { kind: string }) => e.kind === 'note')).toHaveLength(1);
    const memberTimeline = await admin(support, 'get', `/users/${member.user.id}/timeline`);
    expect(memberTimeline.body.data.some((e: { kind: string }) => e.kind === 'note')).toBe(false);
    expect(memberTimeline.body.data.map((e: { summary: string }) => e.summary)).toContain('Team seat revoked');
  });

  it('says which role a change granted or revoked, and by whom, from the console’s edit and the command line', async () => {
    const person = await signedIn(db(), ['support']);
    const boss = await signedIn(db(), ['admin']);
    // The console's edit sends the whole form: the address is on both sides of its audit entry, unchanged.
    const edited = await as(boss, request(app).put(`/api/admin/users/${person.user.id}`)).send({
      name: 'Role Person',
      bio: null,
      roles: ['finance'],
    });
    expect(edited.status).toBe(200);
    const cli = { id: null, email: 'cli' };
    await services.roles.grant(person.user.email, 'contributor', cli);
    await services.roles.revoke(person.user.email, 'contributor', cli);

    const answer = await admin(support, 'get', `/users/${person.user.id}/timeline`);
    const actions = answer.body.data.filter((e: { kind: string }) => e.kind === 'staff-action');
    expect(actions.map((e: object) => ({ ...e }))).toMatchObject([
      { summary: 'Role revoked: contributor', by: 'cli', detail: null },
      { summary: 'Role granted: contributor', by: 'cli', detail: null },
      { summary: 'Role granted: finance · Role revoked: support', by: boss.user.email, detail: null },
    ]);
    const cliEntries = await db()('auditLogs').where({ recordId: person.user.id, actorEmail: 'cli' }).pluck('action');
    expect(cliEntries).toEqual(['user.roles-changed', 'user.roles-changed']);
  });

  it('refuses learners, empty notes, unknown people and pages too large, and writes nothing then', async () => {
    const learner = await signedIn(db());
    expect((await admin(learner, 'get', `/users/${learner.user.id}/timeline`)).status).toBe(403);
    expect((await admin(learner, 'post', `/users/${learner.user.id}/notes`, { body: 'Hi' })).status).toBe(403);
    const empty = await admin(support, 'post', `/users/${learner.user.id}/notes`, { body: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.body.code).toBe('validation-failed');
    const long = await admin(support, 'post', `/users/${learner.user.id}/notes`, { body: 'x'.repeat(5001) });
    expect(long.status).toBe(400);
    const nobody = '00000000-0000-4000-8000-000000000000';
    expect((await admin(support, 'post', `/users/${nobody}/notes`, { body: 'Hello' })).status).toBe(404);
    expect((await admin(support, 'get', `/users/${nobody}/timeline`)).status).toBe(404);
    expect((await admin(support, 'get', `/purchases/${nobody}/timeline`)).status).toBe(404);
    expect((await admin(support, 'get', `/users/${learner.user.id}/timeline?perPage=500`)).status).toBe(400);
    expect(await db()('staffNotes').where({ userId: learner.user.id })).toHaveLength(0);
  });
});
