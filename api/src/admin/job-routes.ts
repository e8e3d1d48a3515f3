import Router from '@koa/router';
import { adminResource } from './resources';
import { userOf } from '../identity/http/caller';
import { AppError } from '../shared/errors';
import { IdParam } from '../http/params';
import type { Policies } from '../identity/http/policy';
import type { JobQueue } from '../jobs/queue';

/** Console actions on the job queue beyond reading it: running a failed job again. */
export function jobAdminRoutes({ allow, jobs }: { allow: Policies; jobs: JobQueue }) {
  const router = new Router();

  router.post('/jobs/:id/retry', allow.roles(), async (ctx) => {
    const { id } = IdParam.parse(ctx.params);
    const user = userOf(ctx);
    const job = await jobs.retry(id, { id: user.id, email: user.email }, ctx.state.requestId ?? null);
    if (!job) throw new AppError('conflict', 'Only failed jobs can be retried.');
    ctx.body = adminResource('jobs').present?.({ ...job }) ?? job;
  });

  return router;
}
