import { table } from '../db/base-model';

/** Append-only: the database refuses updates and deletes. */
export class AuditLog extends table('auditLogs', { jsonAttributes: ['before', 'after'] }) {
  declare id: number;
  declare actorId: string | null;
  declare actorEmail: string | null;
  declare action: string;
  declare resource: string;
  declare recordId: string | null;
  declare before: Record<string, unknown> | null;
  declare after: Record<string, unknown> | null;
  declare requestId: string | null;
  declare createdAt: Date;
}
