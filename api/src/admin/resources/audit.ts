import { AuditLog } from '../../audit/models';
import { defineResource } from '../resource';

/** Append-only: the console reads it; the database refuses changes. */
export const auditLogs = defineResource({
  name: 'audit-logs',
  model: AuditLog,
  read: ['support', 'finance'],
  filterable: { id: 'number', actorId: 'id', resource: 'enum', recordId: 'text', action: 'enum', createdAt: 'date' },
  sortable: ['id', 'createdAt'],
  searchable: ['actorEmail', 'recordId'],
  defaultSort: ['createdAt', 'DESC'],
});
