import { table } from '../db/base-model';

/** The schema pg-boss keeps its tables in (created by a migration, like every other table). */
export const JOBS_SCHEMA = 'pgboss';

/** One job in the queue (pg-boss's table): read by the console; written only through the queue. */
export class QueueJob extends table(`${JOBS_SCHEMA}.job`, { jsonAttributes: ['data', 'output'] }) {
  declare id: string;
  declare name: string;
  declare state: 'created' | 'retry' | 'active' | 'completed' | 'cancelled' | 'failed';
  declare data: Record<string, unknown> | null;
  declare output: Record<string, unknown> | null;
  declare retryCount: number;
  declare retryLimit: number;
  declare startAfter: Date;
  declare startedOn: Date | null;
  declare completedOn: Date | null;
  declare createdOn: Date;
}
