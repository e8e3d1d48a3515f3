import Router from '@koa/router';
import { adminResource } from './resources';
import { authOf, userOf } from '../identity/http/caller';
import { AppError } from '../shared/errors';
import { IdParam } from '../http/params';
import type { Policies } from '../identity/http/policy';
import type { Outbox } from '../mail/outbox';
import type { SignOutEverywhere } from '../identity/sign-in/sign-out-everywhere';

/** Console actions beyond the generic REST contract: retrying a failed email, signing a person out everywhere. */
export function identityAdminRoutes({
  allow,
  outbox,
  signOut,
}: {
  allow: Policies;
  outbox: Outbox;
  signOut: SignOutEverywhere;
}) {
  const router = new Router();

  // Every browser session and device token of the person, audited; only administrators may do it to staff.
  router.post('/users/:id/sign-out-everywhere', allow.roles('support'), async (ctx) => {
    const { id } = IdParam.parse(ctx.params);
    const auth = authOf(ctx)!;
    ctx.body = await signOut.byStaff(id, {
      actor: { id: auth.user.id, email: auth.user.email, roles: auth.user.roles },
      currentSessionId: auth.method === 'session' ? auth.session.id : null,
      requestId: ctx.state.requestId ?? null,
    });
  });

  router.post('/outbox-emails/:id/retry', allow.roles('support'), async (ctx) => {
    const { id } = IdParam.parse(ctx.params);
    const user = userOf(ctx);
    const email = await outbox.retry(id, { id: user.id, email: user.email }, ctx.state.requestId ?? null);
    if (!email) throw new AppError('conflict', 'Only failed emails can be retried.');
    outbox.flushInBackground();
    ctx.body = adminResource('outbox-emails').present!(email as unknown as Record<string, unknown>);
  });

  return router;
}
