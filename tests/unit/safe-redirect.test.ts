import { describe, expect, it } from 'vitest';
import { pageBeforeLogin, signInRedirectFor } from '../../admin/src/auth/returnTo';
import { safeRedirect as apiRule } from '../../api/src/shared/safe-redirect';
import { MAX_REDIRECT_LENGTH, safeRedirect } from '../../api/src/shared/safe-redirect';
import { safeRedirect as storefrontRule } from '../../storefront/src/redirects';

/** Targets that would lead a browser (or a page or server that decodes them once more) off the site. */
const ATTACKS: [string, unknown][] = [
  ['tab after the slash (browsers drop it: //evil.example)', '/\t/evil.example'],
  ['newline after the slash', '/\n/evil.example'],
  ['carriage return after the slash', '/\r/evil.example'],
  ['CRLF (header splitting)', '/\r\nSet-Cookie: a=b'],
  ['NUL', '/\u0000/evil.example'],
  ['DEL', '/\u007f/evil.example'],
  ['C1 control (NEL)', '/\u0085/evil.example'],
  ['tab before the slashes', '\t//evil.example'],
  ['leading space', ' //evil.example'],
  ['protocol-relative', '//evil.example'],
  ['protocol-relative with a path', '//evil.example/login'],
  ['three slashes', '///evil.example'],
  ['slash backslash', '/\\evil.example'],
  ['backslash slash', '\\/evil.example'],
  ['two backslashes', '\\\\evil.example'],
  ['backslash later in the path', '/login\\@evil.example'],
  ['%2F%2F (not a path at all)', '%2F%2Fevil.example'],
  ['%2F%2F decoded by the query string', decodeURIComponent('%2F%2Fevil.example')],
  ['%2F%09%2F decoded by the query string', decodeURIComponent('%2F%09%2Fevil.example')],
  ['/%2F%2F: decoded once more it is ///evil.example', '/%2F%2Fevil.example'],
  ['/%2F: decoded once more it is //evil.example', '/%2Fevil.example'],
  ['/%5C: decoded once more it is /\\evil.example', '/%5Cevil.example'],
  ['/%09/: decoded once more it is /\\t/evil.example', '/%09/evil.example'],
  ['/%0A: decoded once more a newline', '/%0A/evil.example'],
  ['double-encoded %252F%252F', '%252F%252Fevil.example'],
  ['malformed escape', '/%E0%A4%A'],
  ['javascript:', 'javascript:alert(document.cookie)'],
  ['JavaScript: in mixed case', 'JavaScript:alert(1)'],
  ['javascript: with a tab inside', 'java\tscript:alert(1)'],
  ['data: URL', 'data:text/html,<script>alert(1)</script>'],
  ['absolute https URL', 'https://evil.example/'],
  ['absolute http URL', 'http://evil.example'],
  ['absolute URL in capitals', 'HTTPS://EVIL.EXAMPLE'],
  ['scheme without slashes', 'https:evil.example'],
  ['relative path', 'evil.example'],
  ['over-long path', `/${'a'.repeat(MAX_REDIRECT_LENGTH)}`],
  ['empty', ''],
  ['null', null],
  ['undefined', undefined],
  ['a number', 42],
  ['an array (repeated query parameter)', ['/a', '//evil.example']],
  ['an object', { toString: () => '/' }],
];

/** Paths on the site that the apps really make: kept as they are. */
const PATHS = [
  '/',
  '/products/typescript-fundamentals',
  '/products/typescript-fundamentals?code=SAVE10',
  '/products/x?code=50%25OFF',
  '/login?redirectTo=%2Fadmin%2F',
  '/courses/caf%C3%A9',
  '/lessons/why-types#comments',
  '/admin/',
  '/admin/#/products/42/show',
  '/activate?user_code=WDJB-MJHT',
  '/javascript:alert(1)', // a path on this site named so, not a scheme
  `/${'a'.repeat(MAX_REDIRECT_LENGTH - 1)}`,
];

describe('safeRedirect: the one rule for where a sign-in comes back to', () => {
  it('is the same function for the API, the storefront and the console', () => {
    expect(apiRule).toBe(safeRedirect);
    expect(storefrontRule).toBe(safeRedirect);
  });

  it.each(ATTACKS)('refuses %s', (_name, target) => {
    expect(safeRedirect(target)).toBe('/');
    expect(safeRedirect(target, null)).toBeNull();
    expect(safeRedirect(target, '/admin/')).toBe('/admin/');
  });

  it.each(PATHS)('keeps %s', (target) => {
    expect(safeRedirect(target)).toBe(target);
    expect(safeRedirect(target, null)).toBe(target);
  });

  it('never answers anything that resolves to another origin', () => {
    for (const [, target] of ATTACKS) {
      const kept = safeRedirect(target);
      expect(new URL(kept, 'https://site.example').origin).toBe('https://site.example');
    }
  });
});

describe("the console's sign-in comes back to the page it was left for", () => {
  it("takes the page from the login page's location state, through the same rule", () => {
    expect(pageBeforeLogin({ nextPathname: '/products/42/show', nextSearch: '?tab=1' })).toBe(
      '/products/42/show?tab=1',
    );
    expect(pageBeforeLogin(undefined)).toBe('/');
    expect(pageBeforeLogin({ nextPathname: '/login' })).toBe('/');
    expect(pageBeforeLogin({ nextPathname: '//evil.example' })).toBe('/');
    expect(pageBeforeLogin({ nextPathname: '/\t/evil.example' })).toBe('/');
    expect(pageBeforeLogin({ nextPathname: 'https://evil.example' })).toBe('/');
  });

  it('asks the emailed link to come back to that page in the console', () => {
    expect(signInRedirectFor('/')).toBe('/admin/');
    expect(signInRedirectFor('/products/42/show')).toBe('/admin/#/products/42/show');
    expect(signInRedirectFor('/\n/x')).toBe('/admin/');
  });
});
