import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { EMBED_FRAME_SOURCES } from '../../api/src/shared/embeds';
import { testConfig, testDeps } from '../support/app';
import { useTestDatabase } from '../support/db';

/** Two tiny built apps, so these tests need no `npm run build`. */
function fakeDist() {
  const root = mkdtempSync(path.join(tmpdir(), 'lp-dist-'));
  for (const app of ['storefront', 'admin']) {
    mkdirSync(path.join(root, app, 'assets'), { recursive: true });
    writeFileSync(path.join(root, app, 'index.html'), `<!doctype html><title>${app}</title><div id="root"></div>`);
    writeFileSync(path.join(root, app, 'assets', 'index-abc123.js'), 'export {};');
  }
  return { root, dist: { storefront: path.join(root, 'storefront'), admin: path.join(root, 'admin') } };
}

/** The CSP header as directive → sources. */
function directives(header: string | undefined): Map<string, string[]> {
  expect(header, 'Content-Security-Policy').toBeTruthy();
  return new Map(
    header!
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name!, sources]),
  );
}

describe('security headers', () => {
  const database = useTestDatabase();
  const { root, dist } = fakeDist();
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const appWith = (env: Record<string, string> = {}) =>
    createApp(testDeps(database().db, { config: testConfig(env) }), { dist }).callback();

  const ANSWERS = [
    ['an API route (JSON)', '/api/health', /json/],
    ['an API error (JSON 404)', '/api/no-such-route', /json/],
    ['the storefront', '/', /html/],
    ['a storefront page (client route)', '/activate', /html/],
    ['the console', '/admin/', /html/],
    ['a static asset', '/assets/index-abc123.js', /javascript/],
    ["a console's static asset", '/admin/assets/index-abc123.js', /javascript/],
  ] as const;

  it.each(ANSWERS)('are on %s', async (_name, url, type) => {
    const response = await request(appWith()).get(url);
    expect(response.headers['content-type']).toMatch(type);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['referrer-policy']).toBe('same-origin');
    expect(response.headers['cross-origin-opener-policy']).toBe('same-origin');
    const csp = directives(response.headers['content-security-policy']);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('script-src')).toEqual(["'self'"]);
  });

  it('hold a CSP the two apps run under, and no more: own scripts only, inline styles, the API only', async () => {
    const csp = directives((await request(appWith()).get('/')).headers['content-security-policy']);
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('script-src')).toEqual(["'self'"]); // no 'unsafe-inline', no 'unsafe-eval', no other host
    expect(csp.get('script-src-attr')).toEqual(["'none'"]);
    expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]); // emotion (MUI) and the rich-text editor
    expect(csp.get('img-src')).toEqual(expect.arrayContaining(["'self'", 'data:', 'blob:', 'https:']));
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('form-action')).toEqual(["'self'"]);
    expect(csp.get('base-uri')).toEqual(["'self'"]);
    expect(csp.has('upgrade-insecure-requests')).toBe(false); // the site is plain HTTP outside production
  });

  it("let the storefront's pages frame exactly the embeds' hosts, and the console's none", async () => {
    for (const url of ['/', '/courses/any/lessons/any']) {
      const csp = directives((await request(appWith()).get(url)).headers['content-security-policy']);
      expect(csp.get('frame-src'), url).toEqual(["'self'", ...EMBED_FRAME_SOURCES]);
    }
    const consoleCsp = directives((await request(appWith()).get('/admin/')).headers['content-security-policy']);
    expect(consoleCsp.get('frame-src')).toEqual(["'self'"]);
  });

  it('send Strict-Transport-Security only in production', async () => {
    for (const env of [{}, { NODE_ENV: 'development' }] as Record<string, string>[]) {
      const response = await request(appWith(env)).get('/api/health');
      expect(response.headers['strict-transport-security'], JSON.stringify(env)).toBeUndefined();
    }
    const production = appWith({ NODE_ENV: 'production', ALLOW_TEST_PAYMENTS: 'true' });
    for (const url of ['/api/health', '/', '/admin/']) {
      const response = await request(production).get(url);
      expect(response.headers['strict-transport-security'], url).toBe('max-age=31536000; includeSubDomains');
      const csp = directives(response.headers['content-security-policy']);
      expect(csp.has('upgrade-insecure-requests')).toBe(true);
      expect(csp.get('img-src')).not.toContain('http:');
    }
  });

  it('are on answers that failed too (a wrong method, an unknown page of the built-in checkout)', async () => {
    for (const response of [
      await request(appWith()).delete('/api/health'),
      await request(appWith()).get('/test-provider/checkout/cs_test_000000000000000000000000'),
    ]) {
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    }
  });

  it('say where to report a vulnerability in /.well-known/security.txt (RFC 9116), with a contact and an expiry', async () => {
    const site = await request(appWith({ PUBLIC_URL: 'https://courses.example.com' })).get('/.well-known/security.txt');
    expect(site.status).toBe(200);
    expect(site.headers['content-type']).toBe('text/plain; charset=utf-8');
    const fields = new Map(
      site.text
        .trim()
        .split('\n')
        .map((line) => line.split(/: (.*)/).slice(0, 2) as [string, string]),
    );
    expect(fields.get('Contact')).toBe('mailto:security@courses.example.com');
    expect(fields.get('Canonical')).toBe('https://courses.example.com/.well-known/security.txt');
    const expires = Date.parse(fields.get('Expires')!);
    expect(expires - Date.now()).toBeGreaterThan(300 * 24 * 3_600_000); // RFC 9116: less than a year, never stale
    expect(expires - Date.now()).toBeLessThanOrEqual(366 * 24 * 3_600_000);

    const contact = 'https://courses.example.com/report-a-vulnerability';
    const configured = await request(appWith({ SECURITY_CONTACT: contact })).get('/.well-known/security.txt');
    expect(configured.text).toContain(`Contact: ${contact}\n`);
    expect(() => testConfig({ SECURITY_CONTACT: 'call us' })).toThrow(/SECURITY_CONTACT/);
  });
});
