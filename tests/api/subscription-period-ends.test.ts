import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createProduct } from '../../seeds/factories';
import { testConfig, testDeps } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { manualClock, onTheHour } from '../support/clock';
import { useTestDatabase } from '../support/db';
import { createApp } from '../../api/src/app';
import { createServices, type Services } from '../../api/src/services';
import type { Product } from '../../api/src/catalog/models';

const DAY = 86_400_000;

/**
 * A subscription set to end at its period's end is recorded ended by the every-minute subscriptions sweep once that
 * end has passed (docs/domain.md §22): once across replicas, audited, seen by the console's list and the churn.
 */
describe("subscriptions: an end at the period's end recorded by the sweep", () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const start = onTheHour();
  const clock = manualClock(start);
  const config = testConfig();
  let services: Services;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let membership: Product;

  beforeAll(async () => {
    const deps = testDeps(db(), { clock, config });
    services = createServices(deps);
    app = createApp(deps, { services }).callback();
    membership = await createProduct(db(), {
      name: 'Ends at its period',
      productType: 'membership',
      billingInterval: 'month',
      grantsWholeCatalog: true,
      unitAmount: 2900,
    });
  });

  const store = (who: SignedIn, method: 'get' | 'post', path: string, body?: object) =>
    as(who, request(app)[method](`/api/store${path}`)).send(body);
  const row = (id: string) => db()('subscriptions').where({ id }).first();
  const endsAudited = (id: string) =>
    db()('auditLogs').where({ recordId: id, action: 'subscription.ended-at-period-end' });

  async function subscribed(who: SignedIn): Promise<string> {
    const started = await store(who, 'post', '/subscriptions', { productId: membership.id });
    const { pathname } = new URL(started.body.data.url);
    expect((await request(app).post(`${pathname}/pay`)).status).toBe(303);
    return (await store(who, 'get', '/subscriptions')).body.data[0].id;
  }

  it('records each end once across replicas racing, audited, and leaves the rest as they are', async () => {
    clock.set(start);
    const leaving = await signedIn(db());
    const staying = await signedIn(db());
    const resumed = await signedIn(db());
    const [gone, kept, back] = [await subscribed(leaving), await subscribed(staying), await subscribed(resumed)];
    expect((await store(leaving, 'post', `/subscriptions/${gone}/cancel`)).status).toBe(200);
    expect((await store(resumed, 'post', `/subscriptions/${back}/cancel`)).status).toBe(200);
    expect((await store(resumed, 'post', `/subscriptions/${back}/resume`)).status).toBe(200);

    // Before its period ends nothing is recorded: the subscription still runs.
    expect(await services.subscriptions.sweepDunning()).toMatchObject({ ended: 0 });
    expect(await row(gone)).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });

    const { currentPeriodEnd } = await row(gone);
    clock.set(new Date(currentPeriodEnd.getTime() + 1000));
    const replicas = [services, createServices(testDeps(db(), { clock, config }))];
    const sweeps = await Promise.all([...replicas, ...replicas].map((s) => s.subscriptions.sweepDunning()));
    expect(sweeps.reduce((sum, s) => sum + s.ended, 0)).toBe(1);
    expect(await row(gone)).toMatchObject({ status: 'canceled', cancelAtPeriodEnd: true });
    const audited = await endsAudited(gone);
    expect(audited).toHaveLength(1);
    expect(audited[0]).toMatchObject({ actorEmail: 'system', resource: 'subscriptions' });
    // The others are left running, a resumed one too.
    expect((await row(kept)).status).toBe('active');
    expect((await row(back)).status).toBe('active');
    expect(await endsAudited(back)).toHaveLength(0);

    // Swept again: nothing more recorded.
    expect(await services.subscriptions.sweepDunning()).toMatchObject({ ended: 0 });
    expect(await endsAudited(gone)).toHaveLength(1);
    expect((await store(leaving, 'get', '/subscriptions')).body.data[0]).toMatchObject({ status: 'canceled' });
  });

  it('shows the recorded end in the console list, filtered by status, and in the churn', async () => {
    // Alone in its database: the churn counts this one subscription.
    await db()('subscriptions').update({ status: 'canceled' });
    await db()('subscriptionPeriods').delete();
    clock.set(start);
    const learner = await signedIn(db());
    const id = await subscribed(learner);
    expect((await store(learner, 'post', `/subscriptions/${id}/cancel`)).status).toBe(200);
    const { currentPeriodEnd } = await row(id);
    clock.set(new Date(currentPeriodEnd.getTime() + 60_000));
    expect((await services.subscriptions.sweepDunning()).ended).toBe(1);

    const staff = await signedIn(db(), ['finance']);
    const listed = await as(staff, request(app).get('/api/admin/subscriptions')).query({
      filter: JSON.stringify({ status: 'canceled' }),
    });
    expect(listed.status).toBe(200);
    expect(listed.body.map((s: { id: string }) => s.id)).toContain(id);
    const day = (at: Date) => at.toISOString().slice(0, 10);
    const figures = await as(staff, request(app).get('/api/admin/finance/subscriptions')).query({
      from: day(new Date(start.getTime() + DAY)),
      to: day(clock.now()),
    });
    expect(figures.status).toBe(200);
    expect(figures.body).toMatchObject({ activeAtStart: 1, churned: 1, churnRate: 1 });
  });
});
