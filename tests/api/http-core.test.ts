import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { testApp } from '../support/app';
import { useTestDatabase } from '../support/db';

describe('request handling', () => {
  const database = useTestDatabase();

  it('gives every response a request id, keeping a sane one from the caller', async () => {
    const app = testApp(database().db);
    const fresh = await request(app).get('/api/health');
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await request(app).get('/api/health').set('X-Request-Id', 'abc-123');
    expect(kept.headers['x-request-id']).toBe('abc-123');
    const replaced = await request(app).get('/api/health').set('X-Request-Id', 'bad id with spaces');
    expect(replaced.headers['x-request-id']).not.toBe('bad id with spaces');
  });

  it('answers unknown API paths with a JSON 404 in the error model', async () => {
    const response = await request(testApp(database().db)).get('/api/nope').set('X-Request-Id', 'req-1');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ code: 'route-not-found', message: 'No such endpoint.', requestId: 'req-1' });
  });

  it('answers a wrong method on a known path with 405', async () => {
    const response = await request(testApp(database().db)).delete('/api/health');
    expect(response.status).toBe(405);
  });
});
