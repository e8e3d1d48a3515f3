import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { precompressAssets } from '../../api/src/web/precompress';
import { testDeps } from '../support/app';
import { useTestDatabase } from '../support/db';

/** Text as repetitive as a built bundle, large enough to be worth compressing. */
const SCRIPT = `export const lines = [${Array.from({ length: 400 }, (_, n) => `"line ${n}"`).join(',')}];\n`;
const SHELL = `<!doctype html><title>storefront</title><div id="root"></div>${'<!-- padding -->'.repeat(100)}`;

describe('compression', () => {
  const database = useTestDatabase();
  const root = mkdtempSync(path.join(tmpdir(), 'lp-compress-'));
  const dist = { storefront: path.join(root, 'storefront'), admin: path.join(root, 'admin') };
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  beforeAll(async () => {
    for (const app of ['storefront', 'admin']) {
      mkdirSync(path.join(root, app, 'assets'), { recursive: true });
      writeFileSync(path.join(root, app, 'index.html'), SHELL);
      writeFileSync(path.join(root, app, 'assets', 'index-abc123.js'), SCRIPT);
      writeFileSync(path.join(root, app, 'assets', 'tiny-abc123.js'), 'export {};');
    }
    // The build writes .br and .gz beside each asset worth it (not the tiny one).
    expect(await precompressAssets(path.join(dist.storefront, 'assets'))).toBe(1);
  });

  const app = () => createApp(testDeps(database().db), { dist }).callback();

  it("serves the build's brotli or gzip file to a browser that accepts it, and the plain file otherwise", async () => {
    const asset = '/assets/index-abc123.js';
    const br = await request(app()).get(asset).set('Accept-Encoding', 'br, gzip');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/Accept-Encoding/);
    expect(Number(br.headers['content-length'])).toBeLessThan(SCRIPT.length / 4);
    expect(br.text).toBe(SCRIPT);

    const gz = await request(app()).get(asset).set('Accept-Encoding', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.text).toBe(SCRIPT);

    const plain = await request(app()).get(asset).set('Accept-Encoding', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.text).toBe(SCRIPT);
    expect(plain.headers['cache-control']).toMatch(/immutable/);
  });

  it('compresses pages and JSON as they are answered, and leaves small answers alone', async () => {
    const page = await request(app()).get('/activate').set('Accept-Encoding', 'gzip');
    expect(page.headers['content-encoding']).toBe('gzip');
    expect(page.text).toBe(SHELL.replace('storefront', 'Courses')); // titled with the school's name

    const health = await request(app()).get('/api/health/live').set('Accept-Encoding', 'br, gzip');
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(health.body).toMatchObject({ status: 'ok' });
  });
});
