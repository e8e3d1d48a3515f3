import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../api/src/db/connection';
import { testApp } from '../support/app';
import { useTestDatabase } from '../support/db';

describe('health checks', () => {
  const database = useTestDatabase();
  const unreachableDb = () => createDb('postgres://postgres@127.0.0.1:1/nowhere');

  it('answers ok when the database answers, on /api/health and /api/health/ready', async () => {
    for (const path of ['/api/health', '/api/health/ready']) {
      const response = await request(testApp(database().db)).get(path);
      expect(response.status, path).toBe(200);
      expect(response.body).toEqual({ status: 'ok', database: 'ok' });
      expect(response.headers['cache-control']).toBe('no-store');
    }
  });

  it('answers 503 from ready when the database is down, while live still answers ok (no database)', async () => {
    const unreachable = unreachableDb();
    try {
      const app = testApp(unreachable);
      for (const path of ['/api/health', '/api/health/ready']) {
        const response = await request(app).get(path);
        expect(response.status, path).toBe(503);
        expect(response.body).toEqual({ status: 'degraded', database: 'down' });
      }
      const live = await request(app).get('/api/health/live');
      expect(live.status).toBe(200);
      expect(live.body).toEqual({ status: 'ok' });
      expect(live.headers['cache-control']).toBe('no-store');
    } finally {
      await unreachable.destroy();
    }
  });

  it('stays ready while every request connection is busy: the check has a connection of its own', async () => {
    const url = database().url;
    const requests = createDb(url, { max: 1 });
    const probe = createDb(url, { max: 1 });
    let letGo = () => {};
    const released = new Promise<void>((resolve) => (letGo = resolve));
    try {
      // The only request connection is held, as under a spike or a long export.
      const holding = requests.transaction(async (trx) => {
        await trx.raw('select 1');
        await released;
      });
      await expect.poll(() => requests.client.pool.numUsed()).toBe(1);

      const app = testApp(requests, { probe });
      const ready = await request(app).get('/api/health/ready');
      expect(ready.status).toBe(200);
      expect(ready.body).toEqual({ status: 'ok', database: 'ok' });

      // Without its own connection the same check would wait behind the busy pool and answer 503.
      const shared = await request(testApp(requests)).get('/api/health/ready');
      expect(shared.status).toBe(503);
      letGo();
      await holding;
    } finally {
      letGo();
      await Promise.all([requests.destroy(), probe.destroy()]);
    }
  });
});
