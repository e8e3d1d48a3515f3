/** The session's CSRF cookie (set next to the httpOnly session cookie, readable by our scripts). */
export const CSRF_COOKIE = 'lp_csrf';
export const CSRF_HEADER = 'X-CSRF-Token';

export function readCookie(name: string): string | undefined {
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

export function csrfToken(): string | undefined {
  return readCookie(CSRF_COOKIE) || undefined;
}

/** Adds the X-CSRF-Token header the API requires on every non-GET request (harmless on GETs). */
export function withCsrf(headers: HeadersInit | undefined): Headers {
  const result = new Headers(headers ?? { Accept: 'application/json' });
  if (!result.has('Accept')) result.set('Accept', 'application/json');
  const token = csrfToken();
  if (token) result.set(CSRF_HEADER, token);
  return result;
}
