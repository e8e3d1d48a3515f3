import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { createServices, type Services } from '../../api/src/services';
import { DEMO_PRICING_SCENARIOS } from '../../seeds/demo';
import { runSeeds } from '../../seeds/run';
import { testDeps } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';

/**
 * Issue 19 §2: saved pricing scenarios. The demo's (seeds/pricing-scenarios.json, exported from the console with
 * `npm run cli -- export-pricing-scenarios`) are regression cases run here on every CI run; a scenario whose answer
 * changes is flagged until staff accept the new answer.
 */
describe('saved pricing scenarios', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let services: Services;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let staff: SignedIn;

  beforeAll(async () => {
    await runSeeds(db(), { demo: true });
    const deps = testDeps(db());
    services = createServices(deps);
    app = createApp(deps, { services }).callback();
    staff = await signedIn(db(), ['finance']);
  });

  const api = (method: 'get' | 'post', path: string, body?: object) =>
    as(staff, request(app)[method](`/api/admin${path}`)).send(body);

  it('prices every scenario of the demo data as expected', async () => {
    expect(DEMO_PRICING_SCENARIOS.length).toBeGreaterThanOrEqual(5);
    const results = await services.scenarios.check(DEMO_PRICING_SCENARIOS);
    expect(results.filter((r) => !r.matches)).toEqual([]);
    // The demo seeds them into the console's list too, and a run there agrees.
    const ran = await api('post', '/pricing-scenarios/run');
    expect(ran.body.data).toEqual({ ran: DEMO_PRICING_SCENARIOS.length, changed: [] });
  });

  it('flags a saved scenario whose answer changed after a price change, until the new answer is accepted', async () => {
    const pro = await db()('products').where({ key: 'typescript-pro' }).first('id');
    const saved = await api('post', '/pricing-scenarios/save', {
      name: 'Pro for a team of 6',
      query: { productId: pro.id, quantity: '6', team: 'true', country: 'US' },
    });
    expect(saved.status).toBe(201);
    expect(saved.body.data).toMatchObject({
      name: 'Pro for a team of 6',
      input: { productKey: 'typescript-pro', quantity: 6, team: true, country: 'US', customerEmail: null },
      lastMatches: true,
    });
    const id = saved.body.data.id as string;
    expect((await api('post', `/pricing-scenarios/${id}/run`)).body.data).toMatchObject({ matches: true });

    await db()('prices').where({ productId: pro.id, status: 'active' }).update({ unitAmount: 24_900 });
    const changed = await api('post', `/pricing-scenarios/${id}/run`);
    expect(changed.body.data).toMatchObject({ matches: false, error: null });
    expect(changed.body.data.expected.quote.unitAmount).toBe(19_900);
    expect(changed.body.data.actual.quote.unitAmount).toBe(24_900);
    const all = await api('post', '/pricing-scenarios/run');
    expect(all.body.data.changed.map((r: { name: string }) => r.name)).toContain('Pro for a team of 6');

    const accepted = await api('post', `/pricing-scenarios/${id}/accept`);
    expect(accepted.status).toBe(200);
    expect(accepted.body.data).toMatchObject({ lastMatches: true, expected: { quote: { unitAmount: 24_900 } } });
    expect((await api('post', `/pricing-scenarios/${id}/run`)).body.data.matches).toBe(true);
    expect(await db()('auditLogs').where({ action: 'pricing-scenario.accepted', recordId: id }).first()).toBeTruthy();
    await db()('prices').where({ productId: pro.id, status: 'active' }).update({ unitAmount: 19_900 });
  });

  it('flags a scenario only when something a buyer would see changed, and says what, in the run and the list', async () => {
    const pro = await db()('products').where({ key: 'typescript-pro' }).first('id');
    const saved = await api('post', '/pricing-scenarios/save', {
      name: 'Pro for a team of 12',
      query: { productId: pro.id, quantity: '12', team: 'true', country: 'US' },
    });
    const id = saved.body.data.id as string;
    expect(saved.body.data.expected.quote.notApplied).toContainEqual({ kind: 'default-coupon', reason: 'saves-less' });

    // The sale ends: the team's 25 % applied anyway, so the buyer sees the same quote (only the explanation differs).
    const sales = await db()('coupons').where({ default: true, status: 'active' }).pluck('id');
    await db()('coupons').whereIn('id', sales).update({ status: 'inactive' });
    const same = await api('post', `/pricing-scenarios/${id}/run`);
    expect(same.body.data).toMatchObject({ matches: true, changes: [] });
    expect(same.body.data.actual.quote.notApplied).not.toEqual(same.body.data.expected.quote.notApplied);

    // The price goes up: changed, each difference in words.
    await db()('prices').where({ productId: pro.id, status: 'active' }).update({ unitAmount: 24_900 });
    const changed = await api('post', `/pricing-scenarios/${id}/run`);
    const changes = [
      { what: 'Unit price', from: '$199.00', to: '$249.00' },
      { what: 'List price', from: '$2,388.00', to: '$2,988.00' },
      { what: 'Discount', from: 'Team seats discount 25% (−$597.00)', to: 'Team seats discount 25% (−$747.00)' },
      { what: 'Total', from: '$1,791.00', to: '$2,241.00' },
    ];
    expect(changed.body.data).toMatchObject({ matches: false, changes });
    const listed = await api('get', `/pricing-scenarios/${id}`);
    expect(listed.body).toMatchObject({ lastMatches: false, changes });

    await db()('prices').where({ productId: pro.id, status: 'active' }).update({ unitAmount: 19_900 });
    await db()('coupons').whereIn('id', sales).update({ status: 'active' });
    await api('post', `/pricing-scenarios/${id}/run`);
    expect((await api('get', `/pricing-scenarios/${id}`)).body).toMatchObject({ lastMatches: true, changes: [] });
  });

  it('refuses a second scenario of the same name and a query it cannot price, saving nothing', async () => {
    const basics = await db()('products').where({ key: 'typescript-fundamentals' }).first('id');
    const first = await api('post', '/pricing-scenarios/save', { name: 'Twice', query: { productId: basics.id } });
    expect(first.status).toBe(201);
    const again = await api('post', '/pricing-scenarios/save', { name: 'Twice', query: { productId: basics.id } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('already-exists');
    const bad = await api('post', '/pricing-scenarios/save', {
      name: 'Bad',
      query: { productId: basics.id, quantity: '0' },
    });
    expect(bad.status).toBe(400);
    const nameless = await api('post', '/pricing-scenarios/save', { name: ' ', query: { productId: basics.id } });
    expect(nameless.status).toBe(400);
    expect(await db()('pricingScenarios').whereIn('name', ['Bad', ' ', '']).first()).toBeUndefined();
    expect((await db()('pricingScenarios').where({ name: 'Twice' })).length).toBe(1);
  });
});
