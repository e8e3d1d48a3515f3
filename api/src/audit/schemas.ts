import type { AuditLog } from './models';

/** An audit entry as the console reads it (the `audit-logs` resource answers every column). */
export type AuditLogRecord = Pick<
  AuditLog,
  'id' | 'actorId' | 'actorEmail' | 'action' | 'resource' | 'recordId' | 'before' | 'after' | 'requestId' | 'createdAt'
>;
