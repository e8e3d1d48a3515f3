import { QueueJob } from '../../jobs/models';
import { defineResource } from '../resource';
import { derived, instant, number, text } from '../../http/csv-columns';

/** The job queue as operations see it: what ran, what waits, what failed and why (pg-boss's own jobs left out). */
export const jobs = defineResource({
  name: 'jobs',
  model: QueueJob,
  read: [],
  columns: [
    'id',
    'name',
    'state',
    'data',
    'output',
    'retryCount',
    'retryLimit',
    'startAfter',
    'startedOn',
    'completedOn',
    'createdOn',
  ],
  scope: (query) => void query.whereNot('name', 'like', '\\_\\_pgboss\\_\\_%'),
  filterable: { id: 'id', name: 'enum', state: 'enum', createdOn: 'date' },
  sortable: ['createdOn', 'startAfter', 'completedOn', 'name', 'state', 'retryCount'],
  searchable: [],
  defaultSort: ['createdOn', 'DESC'],
  export: {
    columns: [
      text('Job', 'name'),
      text('State', 'state'),
      number('Retries', 'retryCount'),
      number('Retry limit', 'retryLimit'),
      derived('Error', (job) => (job.output as { message?: unknown } | null)?.message ?? null),
      instant('Created', 'createdOn'),
      instant('Next run', 'startAfter'),
      instant('Started', 'startedOn'),
      instant('Completed', 'completedOn'),
      text('Job id', 'id'),
    ],
  },
  exactCount: true,
});
