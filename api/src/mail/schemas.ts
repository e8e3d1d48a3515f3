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
