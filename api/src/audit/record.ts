import type { Knex } from 'knex';
import type { AuditAction } from '../shared/audit-actions';

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
  // JSON text, so an array is stored as JSON rather than sent as a PostgreSQL array.
  const json = (value: object | null | undefined) => (value == null ? null : JSON.stringify(value));
  await trx('auditLogs').insert({
    actorId: entry.actor.id,
    actorEmail: entry.actor.email,
    action: entry.action,
    resource: entry.resource,
    recordId: entry.recordId,
    before: json(entry.before),
    after: json(entry.after),
    requestId: entry.requestId ?? null,
  });
}
