import { Writable } from 'node:stream';
import { pino } from 'pino';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { testApp, testDeps } from '../support/app';
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

  it('logs a response that failed after it started, but not a client that went away', () => {
    const lines: string[] = [];
    const logger = pino({ level: 'error' }, new Writable({ write: (chunk, _encoding, done) => (lines.push(String(chunk)), done()) }));
    const app = createApp({ ...testDeps(database().db), logger });
    const gone = Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
    app.emit('error', gone);
    app.emit('error', Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    expect(lines).toEqual([]);
    app.emit('error', new Error('cursor lost'));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ msg: 'response failed', err: { message: 'cursor lost' } });
  });
});
