import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../api/src/db/connection';
import { testApp } from '../support/app';
import { useTestDatabase } from '../support/db';

describe('GET /api/health', () => {
  const database = useTestDatabase();

  it('answers ok when the database answers', async () => {
    const response = await request(testApp(database().db)).get('/api/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok', database: 'ok' });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('answers 503 when the database is down', async () => {
    const unreachable = createDb('postgres://postgres@127.0.0.1:1/nowhere');
    try {
      const response = await request(testApp(unreachable)).get('/api/health');
      expect(response.status).toBe(503);
      expect(response.body).toEqual({ status: 'degraded', database: 'down' });
    } finally {
      await unreachable.destroy();
    }
  });
});
