import type { OutboxStatus } from '../shared/outbox-status';

// ─── Answers ───────────────────────────────────────────────────────────────────────────────────────────────────────
// What the console reads of the outbox; it takes them as `Wire<…>` (api/src/shared/wire.ts). Type-only: the apps'
// typecheck reads this file, so no Node module here.

export type { OutboxStatus };

/** An email in the outbox (the `outbox-emails` resource, and what a retry answers). */
export interface OutboxEmailRecord {
  id: string;
  toAddress: string;
  subject: string;
  /** `[redacted]` where a sign-in link's token goes; null once dropped after the retention period. */
  textBody: string | null;
  htmlBody: string | null;
  /** The school's name and support address as the email was written with them (null: the configured sender's). */
  fromName: string | null;
  replyTo: string | null;
  kind: string;
  status: OutboxStatus;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: Date;
  sentAt: Date | null;
  transport: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * An email sent to a person, as their page in the console lists it (GET /api/admin/users/:id/emails): what and when,
 * never the body. `resendable` says whether Resend may copy it (`whyNot` when not: a one-time link, a dropped body).
 */
export interface PersonEmail {
  id: string;
  toAddress: string;
  subject: string;
  kind: string;
  status: OutboxStatus;
  attempts: number;
  lastError: string | null;
  sentAt: Date | null;
  createdAt: Date;
  /** The email this one is a copy of, when it was resent from the console. */
  resentFromId: string | null;
  resendable: boolean;
  whyNot: string | null;
}

/** GET /api/admin/users/:id/emails: newest first, a page at a time. */
export interface PersonEmailsPage {
  data: PersonEmail[];
  total: number;
  page: number;
  perPage: number;
}

/** POST /api/admin/users/:id/emails/:emailId/resend: the copy, and whether this request made it (false: a repeat). */
export interface ResendAnswer {
  email: PersonEmail;
  created: boolean;
}
