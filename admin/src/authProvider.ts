import type { ErrorBody, ErrorCode } from '@contract/shared/errors';
import type { PublicUser, SignInLinkSent as LinkSentAnswer } from '@contract/identity/schemas';
import type { Role } from '@contract/shared/roles';
import type { Wire } from '@contract/shared/wire';
import type { AuthProvider, UserIdentity } from 'react-admin';
import { safeRedirect } from '../../api/src/shared/safe-redirect';
import { SIGN_IN_REDIRECT } from './auth/returnTo';
import { csrfToken, withCsrf } from './csrf';

// The API's roles: the type from its identity module, the list from shared/ (the one folder apps import as values).
export { ROLES } from '../../api/src/shared/roles';
export type { Role };

/** The signed-in person, as GET /api/store/me answers (api/src/identity/schemas.ts). */
export type Me = Wire<PublicUser>;

/** The API's one error shape; any of it may be missing when the answer was not the API's (a proxy's page). */
type ApiErrorBody = Partial<ErrorBody>;

/** A failed sign-in-link request, with what the login page needs to explain it. */
export class SignInRequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: ErrorCode | undefined,
    readonly fieldErrors: Record<string, string> = {},
    /** Seconds to wait, from Retry-After on 429. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'SignInRequestError';
  }
}

/** What login() resolves with: the API's answer (the link was sent; nobody is signed in yet). */
export type SignInLinkSent = LinkSentAnswer & {
  /** Tells useLogin-style callers not to navigate anywhere. */
  redirectTo: false;
};

class Unauthenticated extends Error {}

// checkAuth, getIdentity and getPermissions all need /me, often within the same tick: share one request briefly.
const ME_CACHE_MS = 5_000;
let cached: { at: number; me: Promise<Me> } | undefined;

function forgetMe() {
  cached = undefined;
}

function fetchMe(): Promise<Me> {
  if (cached && Date.now() - cached.at < ME_CACHE_MS) return cached.me;
  const me = fetch('/api/store/me', { credentials: 'same-origin', headers: { Accept: 'application/json' } }).then(
    async (response) => {
      if (response.status === 401) throw new Unauthenticated('Sign in to continue.');
      if (!response.ok) throw new Error(`Could not check your session (HTTP ${response.status}).`);
      const body = (await response.json()) as { user: Me };
      return body.user;
    },
  );
  cached = { at: Date.now(), me };
  me.catch(() => forgetMe());
  return me;
}

async function readError(response: Response): Promise<ApiErrorBody> {
  try {
    return (await response.json()) as ApiErrorBody;
  } catch {
    return {};
  }
}

function retryAfter(response: Response): number | undefined {
  const header = response.headers.get('Retry-After');
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds));
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/** Sends a magic sign-in link that comes back to `redirectTo`; resolves once the API accepted the request (202). */
export async function requestSignInLink(email: string, redirectTo = SIGN_IN_REDIRECT): Promise<SignInLinkSent> {
  const response = await fetch('/api/store/auth/email', {
    method: 'POST',
    credentials: 'same-origin',
    headers: withCsrf({ Accept: 'application/json', 'Content-Type': 'application/json' }),
    body: JSON.stringify({ email, redirectTo: safeRedirect(redirectTo, SIGN_IN_REDIRECT) }),
  });
  if (!response.ok) {
    const body = await readError(response);
    throw new SignInRequestError(
      body.message || `The sign-in link could not be sent (HTTP ${response.status}).`,
      response.status,
      body.code,
      body.errors,
      response.status === 429 ? retryAfter(response) : undefined,
    );
  }
  const body = (await response.json().catch(() => ({}))) as Partial<LinkSentAnswer>;
  return { status: 'sent', email: body.email ?? email, redirectTo: false };
}

function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

export const authProvider: AuthProvider = {
  /** Email sign-in: asks for a magic link. It does not sign in by itself; the emailed link does (to `redirectTo`). */
  login: async ({ email, redirectTo }: { email: string; redirectTo?: string }) => {
    forgetMe();
    return requestSignInLink(email, redirectTo);
  },

  logout: async () => {
    forgetMe();
    // No CSRF cookie means no session: nothing to end on the server.
    if (csrfToken()) {
      await fetch('/api/store/auth/sign-out', {
        method: 'POST',
        credentials: 'same-origin',
        headers: withCsrf(undefined),
      }).catch(() => undefined);
    }
    return '/login';
  },

  checkAuth: async () => {
    try {
      await fetchMe();
    } catch (error) {
      // Signed out is the normal way to arrive at the console: go to the login page without an error toast.
      if (error instanceof Unauthenticated) throw { message: false };
      throw error;
    }
  },

  /** 401: the session ended, sign in again. 403: signed in but not allowed; stay and show the message. */
  checkError: async (error: unknown) => {
    if (statusOf(error) === 401) {
      forgetMe();
      throw { message: 'Your session has ended. Sign in again.' };
    }
  },

  getIdentity: async (): Promise<UserIdentity> => {
    const me = await fetchMe();
    return {
      id: me.id,
      fullName: me.name || me.email,
      avatar: me.image ?? undefined,
      email: me.email,
      roles: me.roles,
    };
  },

  getPermissions: async (): Promise<Role[]> => {
    try {
      return (await fetchMe()).roles;
    } catch (error) {
      if (error instanceof Unauthenticated) return [];
      throw error;
    }
  },
};
