import { table } from '../db/base-model';
import type { OutboxStatus } from './schemas';
import type { EmailAttachment } from './transport';

/** One email: written in the sender's transaction, delivered after commit, retried on failure. */
export class OutboxEmail extends table('outboxEmails', { jsonAttributes: ['attachments'] }) {
  declare id: string;
  declare toAddress: string;
  /** The sender's name and the Reply-To address as they were when the email was written (the school's). */
  declare fromName: string | null;
  declare replyTo: string | null;
  declare subject: string;
  /** The bodies with `[redacted]` where the secret goes; null once dropped after the retention period. */
  declare textBody: string | null;
  declare htmlBody: string | null;
  /** What the body's `[redacted]` stands for (a sign-in link's token), kept only until the email is sent. */
  declare secret: string | null;
  /** Files sent with the email (a calendar invite); dropped with the bodies after the retention period. */
  declare attachments: EmailAttachment[] | null;
  declare kind: string;
  declare status: OutboxStatus;
  declare attempts: number;
  declare lastError: string | null;
  declare nextAttemptAt: Date;
  declare sentAt: Date | null;
  declare transport: string | null;
  /** A copy resent from the console: the email it copies, and the request that made it (one copy per key). */
  declare resentFromId: string | null;
  declare resendKey: string | null;
  /** The one-click unsubscribe address (RFC 8058) its List-Unsubscribe headers name; null for most emails. */
  declare listUnsubscribeUrl: string | null;
  declare createdAt: Date;
  declare updatedAt: Date;
}
