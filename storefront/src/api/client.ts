import type { ErrorBody, ErrorCode } from '@contract/shared/errors';

/** The API's stable error codes, and the two this client gives when no error body came (unreachable, or not JSON). */
export type ApiErrorCode = ErrorCode | 'network-error' | 'http-error';

/** The API's error body: a stable code, a message for people, and the request id for support. */
export type ApiErrorBody = Omit<ErrorBody, 'code'> & { code: ApiErrorCode };

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody,
    /** From the Retry-After header of a 429, in seconds. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(body.message);
  }

  get code(): ApiErrorCode {
    return this.body.code;
  }
}

/** True when `error` is an API error with one of `codes`. */
export function isApiError(error: unknown, ...codes: ApiErrorCode[]): error is ApiError {
  return error instanceof ApiError && (codes.length === 0 || codes.includes(error.code));
}

/**
 * Whether this browser holds a session: its CSRF cookie comes and goes with the session's (which scripts cannot read),
 * so a visitor without one is signed out without asking the API (and without a 401 in the console).
 */
export function holdsSession(): boolean {
  return csrfToken() !== null;
}

/** The session's CSRF token: the server sets it in a script-readable cookie; state-changing requests echo it. */
function csrfToken(): string | null {
  for (const pair of document.cookie.split(';')) {
    const [name, ...value] = pair.trim().split('=');
    if (name === 'lp_csrf') return decodeURIComponent(value.join('='));
  }
  return null;
}

/** How requests reach the API: the browser's fetch; the server render puts its own in (see setTransport). */
type Transport = (path: string, init: RequestInit) => Promise<Response>;
let transport: Transport = (path, init) => fetch(path, init);

/**
 * The server render's way to the API (in-process, as a signed-out visitor): every request of this module goes there
 * from now on. Nothing of a visitor is in it, so one for the whole process is right.
 */
export function setTransport(next: Transport): void {
  transport = next;
}

async function request<T>(method: string, path: string, init: RequestInit = {}): Promise<T> {
  const headers = new Headers(init.headers);
  headers.set('Accept', 'application/json');
  if (method !== 'GET') {
    const token = csrfToken();
    if (token) headers.set('X-CSRF-Token', token);
  }
  let response: Response;
  try {
    response = await transport(path, { ...init, method, headers, credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, {
      code: 'network-error',
      message: 'Could not reach the server. Check your connection and try again.',
    });
  }
  const body = response.status === 204 ? null : await response.json().catch(() => null);
  if (!response.ok) {
    const retryAfter = Number(response.headers.get('Retry-After'));
    throw new ApiError(
      response.status,
      body ?? { code: 'http-error', message: `The server answered ${response.status}.` },
      Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
    );
  }
  return body as T;
}

export function getJson<T>(path: string, init?: RequestInit): Promise<T> {
  return request<T>('GET', path, init);
}

export function postJson<T>(path: string, body?: unknown): Promise<T> {
  return request<T>('POST', path, {
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  });
}

/** `keepalive`: the request outlives the page (a write sent as the page goes away). */
export function putJson<T>(path: string, body?: unknown, { keepalive = false } = {}): Promise<T> {
  return request<T>('PUT', path, {
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body ?? {}),
    keepalive,
  });
}

export function patchJson<T>(path: string, body: unknown): Promise<T> {
  return request<T>('PATCH', path, {
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** DELETE; most answer 204 (void), some answer the changed resource. A body only where the API reads one. */
export function deleteJson<T = void>(path: string, body?: unknown): Promise<T> {
  return request<T>(
    'DELETE',
    path,
    body === undefined ? {} : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) },
  );
}
