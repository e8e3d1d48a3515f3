import type * as Identity from '@contract/identity/schemas';
import type { Wire } from '@contract/shared/wire';
import { getJson, postJson } from './client';

export type StoreUser = Wire<Identity.PublicUser>;
type SignInProviders = Identity.SignInProviders;

export async function getCurrentUser(): Promise<StoreUser> {
  return (await getJson<Wire<Identity.MeAnswer>>('/api/store/me')).user;
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
