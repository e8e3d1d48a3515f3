import { AuditLog } from '../../audit/models';
import { defineResource } from '../resource';
import { instant, text } from '../../http/csv-columns';

/** Append-only: the console reads it; the database refuses changes. */
export const auditLogs = defineResource({
  name: 'audit-logs',
  model: AuditLog,
  read: ['support', 'finance'],
  filterable: { id: 'number', actorId: 'id', resource: 'enum', recordId: 'text', action: 'enum', createdAt: 'date' },
  sortable: ['id', 'createdAt'],
  searchable: ['actorEmail', 'recordId'],
  defaultSort: ['createdAt', 'DESC'],
  export: {
    columns: [
      instant('When', 'createdAt'),
      text('Who', 'actorEmail'),
      text('Action', 'action'),
      text('Resource', 'resource'),
      text('Record', 'recordId'),
      text('Request', 'requestId'),
      text('Entry id', 'id'),
    ],
  },
});
