import { QueueJob } from '../../jobs/models';
import { defineResource } from '../resource';

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
  exactCount: true,
});
