import Router from '@koa/router';
import { IdParam } from '../../http/params';
import type { Policies } from '../../identity/http/policy';
import type { WaitlistService } from './waitlist';
import { JoinWaitlistBody, LeaveWaitlistBody } from './schemas';

/** Waitlists on the storefront: joining one (anyone, with an email) and leaving it from the email's link. */
export function waitlistRoutes({ allow, waitlist }: { allow: Policies; waitlist: WaitlistService }) {
  const router = new Router();

  router.post('/products/:id/waitlist', allow.public(), async (ctx) => {
    const { id } = IdParam.parse(ctx.params);
    const { email } = JoinWaitlistBody.parse(ctx.request.body);
    const joined = await waitlist.join({ productId: id, email, ip: ctx.ip || null });
    ctx.status = joined.status === 'joined' ? 201 : 200;
    ctx.body = joined;
  });

  router.post('/waitlist/leave', allow.public(), async (ctx) => {
    ctx.body = await waitlist.leave(LeaveWaitlistBody.parse(ctx.request.body));
  });

  return router;
}
