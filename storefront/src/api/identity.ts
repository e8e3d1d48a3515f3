import type * as Identity from '@contract/identity/schemas';
import type { Wire } from '@contract/shared/wire';
import { getJson, postJson } from './client';

export type StoreUser = Wire<Identity.PublicUser>;
type SignInProviders = Identity.SignInProviders;

/** Support viewing the storefront as this person (read-only), from GET /api/store/me. */
export type ViewAsInfo = NonNullable<Wire<Identity.MeAnswer>['viewAs']>;

/** Who is signed in and, when support is viewing as them, that view. */
export async function getCurrentUser(): Promise<{
  user: StoreUser;
  viewAs: ViewAsInfo | null;
  isPayee: boolean;
  hasSubscriptions: boolean;
}> {
  const me = await getJson<Wire<Identity.MeAnswer>>('/api/store/me');
  return {
    user: me.user,
    viewAs: me.viewAs ?? null,
    isPayee: me.isPayee === true,
    hasSubscriptions: me.hasSubscriptions === true,
  };
}

/** Ends support's view: this browser is its staff member again (the only write a view allows). */
export function endViewAs(): Promise<void> {
  return postJson('/api/store/view-as/end');
}

export function getSignInProviders(): Promise<SignInProviders> {
  return getJson<SignInProviders>('/api/store/auth/providers');
}

export function requestSignInLink(email: string, redirectTo: string | null): Promise<Identity.SignInLinkSent> {
  return postJson('/api/store/auth/email', redirectTo ? { email, redirectTo } : { email });
}

export function consumeSignInLink(email: string, token: string): Promise<Wire<Identity.SignedIn>> {
  return postJson('/api/store/auth/email/consume', { email, token });
}

export function signOut(): Promise<void> {
  return postJson('/api/store/auth/sign-out');
}

/** Where "Continue with GitHub" goes: a full-page navigation, the server redirects to GitHub. */
export function gitHubSignInUrl(redirectTo: string | null): string {
  return `/api/store/auth/github?${new URLSearchParams({ redirectTo: redirectTo ?? '/' })}`;
}
