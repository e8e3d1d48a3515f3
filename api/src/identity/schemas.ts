import { z } from 'zod';
import type { Role } from '../shared/roles';
import { STAFF_REASON_MAX, STAFF_REASON_MIN } from '../shared/staff-reason';

export const EmailAddress = z
  .string()
  .trim()
  .max(254, 'is too long')
  .pipe(z.email('must be an email address'))
  .transform((email) => email.toLowerCase());

export const PrefsScope = z.discriminatedUnion('type', [
  z.object({ type: z.literal('global') }),
  z.object({ type: z.literal('local'), resourceId: z.uuid('must be a content resource id') }),
]);
export type PrefsScope = z.infer<typeof PrefsScope>;

export const PrefsFields = z
  .record(z.string().max(100), z.unknown())
  .refine((fields) => JSON.stringify(fields).length <= 16_384, 'preferences are limited to 16 KB');

export const RequestSignInLinkBody = z.object({
  email: EmailAddress,
  redirectTo: z.string().max(2000).optional(),
});

export const ConsumeSignInLinkBody = z.object({
  email: EmailAddress,
  token: z.string().min(1, 'is required').max(200),
});

export const UserCodeBody = z.object({
  userCode: z.string().trim().min(1, 'enter the code your device shows').max(20),
});

export const PrefsQuery = z.preprocess((q) => ({ type: 'global', ...(q as object) }), PrefsScope);
export const PutPrefsBody = z.intersection(PrefsScope, z.object({ fields: PrefsFields }));

// RFC 8628 / RFC 6749 requests are form-encoded; their errors use the RFC's JSON shape (see oauth-routes).
export const ClientId = z.string().regex(/^[A-Za-z0-9._:-]{1,100}$/);

// ─── Answers ───────────────────────────────────────────────────────────────────────────────────────────────────────
// What the identity endpoints answer, as the services build them (dates as `Date`); the apps read them as
// `Wire<…>` (api/src/shared/wire.ts). Type-only: the apps' typecheck reads this file, so no Node module here.

/** A person as they (and the apps) see their own account: no secrets. */
export interface PublicUser {
  id: string;
  email: string;
  name: string | null;
  image: string | null;
  roles: Role[];
  emailVerified: Date | null;
}

/** GET /api/store/me: the CSRF token is null for a bearer token (no cookies to protect). */
export interface MeAnswer {
  user: PublicUser;
  /** Paid from a product's revenue splits (an author or contributor): the storefront links their earnings. */
  isPayee: boolean;
  /** Has subscribed to a membership: the storefront links their subscriptions. */
  hasSubscriptions: boolean;
  csrfToken: string | null;
  /** Support viewing the storefront as this person (read-only), until `expiresAt`; null otherwise. */
  viewAs: { staffEmail: string; reason: string; expiresAt: Date } | null;
}

/** GET /api/store/auth/providers */
export interface SignInProviders {
  email: boolean;
  github: boolean;
}

/** POST /api/store/auth/email: the link is on its way. */
export interface SignInLinkSent {
  status: 'sent';
  email: string;
}

/** POST /api/store/auth/email/consume: signed in. */
export interface SignedIn {
  user: PublicUser;
  csrfToken: string;
  redirectTo: string;
}

/** What "sign out everywhere" ended: other browser sessions and device tokens. */
export interface SignedOut {
  /** Browser sessions ended. */
  sessions: number;
  /** Device tokens revoked. */
  devices: number;
}

/** POST /api/store/device: a device waiting for approval, as the /activate page shows it. */
export interface PendingDevice {
  userCode: string;
  clientId: string;
  /** The app's registered name. */
  clientName: string;
  createdAt: Date;
  expiresAt: Date;
}

/** POST /api/store/device/approve and /deny */
export interface DeviceDecision {
  status: 'approved' | 'denied';
}

/** A device signed in to the account (an access token issued through the device flow). */
export interface SignedInDevice {
  id: string;
  clientId: string | null;
  /** The app's registered name. */
  clientName: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  /** When it is signed out if it stays unused until then. */
  idleExpiresAt: Date;
}

/** GET /api/store/devices */
export interface DevicesAnswer {
  data: SignedInDevice[];
  /** Browser sessions of the account besides the one asking. */
  otherSessions: number;
}

/** GET and PUT /api/store/prefs: the scope asked for and every stored field (the caller's and other clients'). */
export type PrefsAnswer = PrefsScope & { fields: Record<string, unknown> };

/** An account as the console sees it (the `users` resource). */
export interface UserRecord {
  id: string;
  name: string | null;
  email: string;
  emailVerified: Date | null;
  image: string | null;
  /** Shown with their name on the sales pages of products they own or contribute to. */
  bio: string | null;
  /** The avatar uploaded in the console (PUT/DELETE /api/admin/users/:id/avatar); null without one. */
  avatarKey: string | null;
  roles: Role[];
  fields: Record<string, unknown>;
  /** Blocked by support (POST /api/admin/users/:id/block): signed out, cannot sign in or buy; null when not. */
  blockedAt: Date | null;
  blockedReason: string | null;
  blockedById: string | null;
  /** Deleted (api/src/privacy/deletion.ts): the row kept for finance, erased; null for a live account. */
  deletedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * Why staff act on a person (block them, view as them, give them a course): kept with the action and in the audit
 * log, so their timeline says it (the rule: api/src/shared/staff-reason.ts).
 */
export const StaffReason = z
  .string()
  .trim()
  .min(STAFF_REASON_MIN, 'Say why, in a few words.')
  .max(STAFF_REASON_MAX, `at most ${STAFF_REASON_MAX} characters`);

/** POST /api/admin/users/:id/block: why (kept with the block, shown to staff and on the person's timeline). */
export const BlockBody = z.strictObject({ reason: StaffReason });

/** POST /api/admin/users/:id/block and /unblock: the person's block as it now stands, and what the block ended. */
export interface BlockAnswer {
  id: string;
  blockedAt: Date | null;
  blockedReason: string | null;
  blockedById: string | null;
  /** Browser sessions and device tokens the block ended (0 on unblock). */
  signedOut: SignedOut;
}

/** POST /api/admin/users/:id/change-email */
export const ChangeEmailBody = z.strictObject({ email: EmailAddress });

/** POST /api/admin/users/:id/change-email: the new address, the old one, and the sign-ins it ended. */
export interface EmailChanged {
  id: string;
  email: string;
  previousEmail: string;
  signedOut: SignedOut;
}

/** A sign-in provider's link to an account (the `accounts` resource; its secrets are never selected). */
export interface AccountRecord {
  id: string;
  userId: string;
  type: string;
  provider: string;
  providerAccountId: string;
  /** Seconds since the epoch (a bigint column: may arrive as a string). */
  expiresAt: number | string | null;
  tokenType: string | null;
  scope: string | null;
}

/** POST /api/admin/users/:id/view-as: why, and for how long (at most 30 minutes). */
export const ViewAsBody = z.strictObject({
  reason: StaffReason,
  minutes: z.number().int().min(1).max(30).default(15),
});

/** POST /api/admin/users/:id/view-as: the browser now views the storefront as them (the console stays yours). */
export interface ViewAsStarted {
  path: string;
  expiresAt: Date;
}

/** GET /api/admin/users/:id/emails */
export const PersonEmailsQuery = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  perPage: z.coerce.number().int().min(1).max(100).default(10),
});

/**
 * POST /api/admin/users/:id/emails/:emailId/resend: the click's own key (a fresh one per click, the same on a retry
 * of that click), so a double click or a retried request sends one copy.
 */
export const ResendBody = z.strictObject({
  requestKey: z.string().trim().min(8, 'is too short').max(200, 'is too long'),
});

/** POST /api/admin/users/:id/emails/:emailId/resend */
export const PersonEmailParams = z.object({ id: z.uuid(), emailId: z.uuid() });
