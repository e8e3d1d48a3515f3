import { table } from '../db/base-model';
import type { Role } from '../shared/roles';

export class User extends table('users', { jsonAttributes: ['fields'] }) {
  declare id: string;
  declare name: string | null;
  declare email: string;
  declare emailVerified: Date | null;
  declare image: string | null;
  /** An avatar uploaded in the console (its key in the media storage); `image` is the sign-in provider's. */
  declare avatarKey: string | null;
  declare bio: string | null;
  declare roles: Role[];
  declare fields: Record<string, unknown>;
  /** Blocked by support: signed out, and refused at every sign-in and checkout (api/src/identity/staff/blocks.ts). */
  declare blockedAt: Date | null;
  declare blockedReason: string | null;
  declare blockedById: string | null;
  /** Deleted by the person (or support): the row stays for finance, erased (api/src/privacy/deletion.ts). */
  declare deletedAt: Date | null;
  declare createdAt: Date;
  declare updatedAt: Date;
}

export class Account extends table('accounts') {
  declare id: string;
  declare userId: string;
  declare type: string;
  declare provider: string;
  declare providerAccountId: string;
  // The token columns come from the original schema and stay null: provider tokens are not stored (accounts_keep_no_tokens).
  declare refreshToken: string | null;
  declare accessToken: string | null;
  declare expiresAt: number | null;
  declare tokenType: string | null;
  declare scope: string | null;
  declare idToken: string | null;
  declare sessionState: string | null;
  declare oauthTokenSecret: string | null;
  declare oauthToken: string | null;
  declare refreshTokenExpiresIn: number | null;
}

export class Session extends table('sessions') {
  declare id: string;
  declare sessionToken: string;
  declare userId: string;
  declare expires: Date;
  declare createdAt: Date;
  declare csrfToken: string;
  declare lastSeenAt: Date | null;
  declare userAgent: string | null;
}

/** One sign-in (email link, GitHub) or device approved, kept a year for the person's timeline. */
export class SignIn extends table('signIns') {
  declare id: string;
  declare userId: string;
  declare method: 'email' | 'github' | 'device';
  declare userAgent: string | null;
  declare createdAt: Date;
}

/** Support viewing the storefront as a learner (api/src/identity/staff/view-as.ts); the token is kept only hashed. */
export class ViewAsSession extends table('viewAsSessions') {
  declare id: string;
  declare tokenHash: string;
  declare staffUserId: string;
  declare learnerUserId: string;
  declare reason: string;
  declare createdAt: Date;
  declare expiresAt: Date;
  declare enteredAt: Date | null;
  declare endedAt: Date | null;
}

export class VerificationToken extends table('verificationTokens', { idColumn: 'token' }) {
  declare token: string; // a hash of the emailed secret
  declare id: string; // public handle for the console
  declare identifier: string;
  declare expires: Date;
  declare createdAt: Date;
  declare redirectTo: string | null;
}

export class DeviceVerification extends table('deviceVerifications', { idColumn: 'deviceCode' }) {
  declare deviceCode: string; // a hash of the device's secret
  declare id: string; // public handle for the console
  declare userCode: string;
  declare expires: Date;
  declare createdAt: Date;
  declare verifiedAt: Date | null;
  declare verifiedByUserId: string | null;
  declare clientId: string;
  declare intervalSeconds: number;
  declare lastPolledAt: Date | null;
  declare deniedAt: Date | null;
  declare tokenIssuedAt: Date | null;
}

/** An app registered for device login (RFC 8628 §5.4): people are shown its name, never a name the device sent. */
export class DeviceClient extends table('deviceClients', { idColumn: 'clientId' }) {
  declare clientId: string;
  declare name: string;
  declare createdAt: Date;
}

export class DeviceAccessToken extends table('deviceAccessTokens', { idColumn: 'token' }) {
  declare token: string;
  declare id: string; // public handle; `token` is the hash of the secret
  declare userId: string;
  declare clientId: string | null;
  declare createdAt: Date;
  declare lastUsedAt: Date | null;
}

export class UserPrefs extends table('userPrefs', { jsonAttributes: ['fields'] }) {
  declare id: string;
  declare userId: string;
  declare type: 'global' | 'local';
  declare resourceId: string | null; // set for 'local' (per-resource) preferences
  declare fields: Record<string, unknown>;
  declare createdAt: Date;
  declare updatedAt: Date;
}

/** A sign-in with an external provider in progress: state and PKCE verifier, single use. */
export class OAuthState extends table('oauthStates', { idColumn: 'stateHash' }) {
  declare stateHash: string;
  declare provider: string;
  declare codeVerifier: string;
  declare redirectTo: string | null;
  declare expires: Date;
  declare createdAt: Date;
}

/** Fixed-window rate-limit counters (see rate-limit.ts). */
export class RateLimitHit extends table('rateLimitHits', { idColumn: ['bucket', 'windowStart'] }) {
  declare bucket: string;
  declare windowStart: Date;
  declare hits: number;
}
