import type { Knex } from 'knex';
import type { AuditAction } from '../shared/audit-actions';
import { AuditLog } from './models';

export interface Actor {
  id: string | null;
  email: string | null;
}

export const SYSTEM_ACTOR: Actor = { id: null, email: 'system' };

export interface AuditEntry {
  actor: Actor;
  /** One of the list in shared/audit-actions.ts, which gives it words for the console. */
  action: AuditAction;
  resource: string;
  recordId: string | null;
  before?: object | null;
  after?: object | null;
  requestId?: string | null;
}

/** Appends to the audit log inside the caller's transaction: the change and its record commit together. */
export async function recordAudit(trx: Knex.Transaction | Knex, entry: AuditEntry): Promise<void> {
  await AuditLog.query(trx).insert({
    actorId: entry.actor.id,
    actorEmail: entry.actor.email,
    action: entry.action,
    resource: entry.resource,
    recordId: entry.recordId,
    before: (entry.before ?? null) as AuditLog['before'],
    after: (entry.after ?? null) as AuditLog['after'],
    requestId: entry.requestId ?? null,
  });
}
