import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { createServices } from '../../api/src/services';
import { createProduct, createResource } from '../../seeds/factories';
import { testDeps } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { manualClock } from '../support/clock';
import { useTestDatabase } from '../support/db';

const MINUTE = 60_000;

/** Issue 19 §3: support views the storefront as a learner, read-only, at most 30 minutes, audited. */
describe('safe view-as', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const clock = manualClock();
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let support: SignedIn;
  let learner: SignedIn;

  beforeAll(async () => {
    const deps = testDeps(db(), { clock });
    app = createApp(deps, { services: createServices(deps) }).callback();
    support = await signedIn(db(), ['support']);
    learner = await signedIn(db());
  });

  /** Starts a view and answers the staff member's cookies with the view's added, as their browser holds them. */
  async function startView(who: SignedIn, of: string, body: object = { reason: 'Ticket 4411: cannot find lesson 3' }) {
    const answer = await as(who, request(app).post(`/api/admin/users/${of}/view-as`)).send(body);
    const cookie = ([] as string[]).concat(answer.headers['set-cookie'] ?? []).find((c) => c.startsWith('lp_view_as='));
    const token = cookie?.split(';')[0];
    return { answer, viewing: token ? { ...who, cookie: `${who.cookie}; ${token}` } : null };
  }

  it('shows the storefront as the learner, refuses every write there, keeps the console the staff member’s, and audits it', async () => {
    const { answer, viewing } = await startView(support, learner.user.id);
    expect(answer.status).toBe(201);
    expect(answer.body.path).toBe('/learning');
    expect(Date.parse(answer.body.expiresAt) - clock.now().getTime()).toBe(15 * MINUTE);

    const me = await as(viewing!, request(app).get('/api/store/me'));
    expect(me.body.user.id).toBe(learner.user.id);
    expect(me.body.viewAs).toMatchObject({
      staffEmail: support.user.email,
      reason: 'Ticket 4411: cannot find lesson 3',
    });

    const product = await createProduct(db(), { name: 'View-as Course' });
    const lesson = await createResource(db(), 'lesson', { title: 'A lesson' });
    const writes = [
      as(viewing!, request(app).put(`/api/store/progress/lessons/${lesson.id}`)).send({ completed: true }),
      as(viewing!, request(app).put(`/api/store/bookmarks/${lesson.id}`)).send({}),
      as(viewing!, request(app).post(`/api/store/lessons/${lesson.id}/comments`)).send({ text: 'Hello' }),
      as(viewing!, request(app).post('/api/store/checkout')).send({ productId: product.id }),
      as(viewing!, request(app).put('/api/store/prefs')).send({ type: 'global', fields: { theme: 'dark' } }),
      as(viewing!, request(app).post('/api/store/auth/sign-out')).send({}),
    ];
    for (const refused of await Promise.all(writes)) {
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('view-as-read-only');
    }
    for (const table of ['lessonProgress', 'bookmarks', 'comments', 'checkouts', 'userPrefs'])
      expect(
        await db()(table).where({ [table === 'checkouts' ? 'buyerUserId' : 'userId']: learner.user.id }),
        table,
      ).toEqual([]);

    // The console is still the staff member's, in the same browser.
    const users = await as(viewing!, request(app).get(`/api/admin/users/${learner.user.id}`));
    expect(users.status).toBe(200);

    // Audited under the learner, and on their timeline.
    const audits = await db()('auditLogs').where({ resource: 'users', recordId: learner.user.id }).orderBy('id');
    expect(audits.map((a) => a.action)).toEqual(['view-as.started', 'view-as.entered']);
    expect(audits[0]).toMatchObject({
      actorId: support.user.id,
      after: { reason: 'Ticket 4411: cannot find lesson 3' },
    });
    const timeline = await as(support, request(app).get(`/api/admin/users/${learner.user.id}/timeline`));
    expect(timeline.body.data.map((e: { summary: string }) => e.summary)).toEqual(
      expect.arrayContaining(['View as started', 'View as entered']),
    );

    // Ending it: the one write allowed; the browser is the staff member again.
    const ended = await as(viewing!, request(app).post('/api/store/view-as/end')).send({});
    expect(ended.status).toBe(204);
    expect(String(ended.headers['set-cookie'])).toMatch(/lp_view_as=;/);
    const after = await as(viewing!, request(app).get('/api/store/me'));
    expect(after.body).toMatchObject({ user: { id: support.user.id }, viewAs: null });
    expect(await db()('auditLogs').where({ action: 'view-as.ended', recordId: learner.user.id })).toHaveLength(1);
  });

  it('ends by itself after its time, and opens nothing for anyone but the staff member who started it', async () => {
    const { viewing } = await startView(support, learner.user.id, { reason: 'Checking the outline', minutes: 5 });
    const token = viewing!.cookie.split('; ').find((c) => c.startsWith('lp_view_as='))!;
    // Another staff member, or the learner, holding the same token: their own account, nothing else.
    const colleague = await signedIn(db(), ['support']);
    const forwarded = await as(
      { ...colleague, cookie: `${colleague.cookie}; ${token}` },
      request(app).get('/api/store/me'),
    );
    expect(forwarded.body).toMatchObject({ user: { id: colleague.user.id }, viewAs: null });

    expect((await as(viewing!, request(app).get('/api/store/me'))).body.user.id).toBe(learner.user.id);
    clock.advance(5 * MINUTE + 1);
    const lapsed = await as(viewing!, request(app).get('/api/store/me'));
    expect(lapsed.body).toMatchObject({ user: { id: support.user.id }, viewAs: null });
  });

  it('ends at once for a staff member who lost the role that views as, however the role was taken away', async () => {
    const colleague = await signedIn(db(), ['support']);
    const { viewing } = await startView(colleague, learner.user.id);
    expect((await as(viewing!, request(app).get('/api/store/me'))).body.user.id).toBe(learner.user.id);

    // As the command line does, from another process: no cache here heard of it.
    await db()('users')
      .where({ id: colleague.user.id })
      .update({ roles: ['learner'] });
    const after = await as(viewing!, request(app).get('/api/store/me'));
    expect(after.body).toMatchObject({ user: { id: colleague.user.id }, viewAs: null });
  });

  it('is refused for staff accounts, oneself, learners, no reason and more than 30 minutes, writing nothing', async () => {
    const finance = await signedIn(db(), ['finance']);
    const contributor = await signedIn(db(), ['contributor']);
    const cases: [SignedIn, string, object, number, string][] = [
      [support, finance.user.id, { reason: 'Looking at it' }, 403, 'view-as-staff'],
      // A contributor opens the console too: viewing as them would act in it as them.
      [support, contributor.user.id, { reason: 'Looking at it' }, 403, 'view-as-staff'],
      [support, support.user.id, { reason: 'Looking at it' }, 403, 'view-as-staff'],
      [learner, contributor.user.id, { reason: 'Looking at it' }, 403, 'forbidden'],
      [support, learner.user.id, { reason: 'x' }, 400, 'validation-failed'],
      [support, learner.user.id, { reason: 'Looking at it', minutes: 31 }, 400, 'validation-failed'],
      [support, '00000000-0000-4000-8000-000000000000', { reason: 'Looking at it' }, 404, 'not-found'],
    ];
    const before = await db()('viewAsSessions').count({ n: '*' }).first();
    for (const [who, of, body, status, code] of cases) {
      const { answer, viewing } = await startView(who, of, body);
      expect(answer.status, code).toBe(status);
      expect(answer.body.code).toBe(code);
      expect(viewing).toBeNull();
    }
    expect(await db()('viewAsSessions').count({ n: '*' }).first()).toEqual(before);
  });
});
