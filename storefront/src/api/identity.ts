import { getJson, postJson } from './client';

export interface StoreUser {
  id: string;
  email: string;
  name: string | null;
  image: string | null;
  roles: string[];
  emailVerified: string | null;
}

export interface SignInProviders {
  email: boolean;
  github: boolean;
}

export async function getCurrentUser(): Promise<StoreUser> {
  return (await getJson<{ user: StoreUser }>('/api/store/me')).user;
}

export function getSignInProviders(): Promise<SignInProviders> {
  return getJson<SignInProviders>('/api/store/auth/providers');
}

export function requestSignInLink(email: string, redirectTo: string | null): Promise<{ status: 'sent'; email: string }> {
  return postJson('/api/store/auth/email', redirectTo ? { email, redirectTo } : { email });
}

export function consumeSignInLink(email: string, token: string): Promise<{ user: StoreUser; redirectTo: string }> {
  return postJson('/api/store/auth/email/consume', { email, token });
}

export function signOut(): Promise<void> {
  return postJson('/api/store/auth/sign-out');
}

/** Where "Continue with GitHub" goes: a full-page navigation, the server redirects to GitHub. */
export function gitHubSignInUrl(redirectTo: string | null): string {
  return `/api/store/auth/github?${new URLSearchParams({ redirectTo: redirectTo ?? '/' })}`;
}
