import Router from '@koa/router';
import { adminResource } from '../admin/resources';
import { userOf } from '../http/auth';
import { AppError } from '../http/errors';
import { IdParam } from '../http/params';
import type { Policies } from '../http/policy';
import type { Outbox } from '../mail/outbox';

/** Console actions beyond the generic REST contract: retrying a failed email. */
export function identityAdminRoutes({ allow, outbox }: { allow: Policies; outbox: Outbox }) {
  const router = new Router();

  router.post('/outbox-emails/:id/retry', allow.roles(), async (ctx) => {
    const { id } = IdParam.parse(ctx.params);
    const user = userOf(ctx);
    const email = await outbox.retry(id, { id: user.id, email: user.email }, ctx.state.requestId ?? null);
    if (!email) throw new AppError('conflict', 'Only failed emails can be retried.');
    outbox.flushInBackground();
    ctx.body = adminResource('outbox-emails').present!(email as unknown as Record<string, unknown>);
  });

  return router;
}
