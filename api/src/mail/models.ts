import { BaseModel } from '../db/base-model';

export type OutboxStatus = 'pending' | 'sent' | 'failed';

/** One email: written in the sender's transaction, delivered after commit, retried on failure. */
export class OutboxEmail extends BaseModel {
  static override tableName = 'outboxEmails';
  declare id: string;
  declare toAddress: string;
  declare subject: string;
  declare textBody: string;
  declare htmlBody: string | null;
  declare kind: string;
  declare status: OutboxStatus;
  declare attempts: number;
  declare lastError: string | null;
  declare nextAttemptAt: Date;
  declare sentAt: Date | null;
  declare transport: string | null;
  declare createdAt: Date;
  declare updatedAt: Date;
}
