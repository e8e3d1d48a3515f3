export type OutboxStatus = 'pending' | 'sent' | 'failed';

export interface OutboxEmail {
  id: string;
  toAddress: string;
  subject: string;
  textBody: string;
  htmlBody: string | null;
  kind: string;
  status: OutboxStatus;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: string;
  sentAt: string | null;
  transport: 'smtp' | 'log' | null;
  createdAt: string;
}
