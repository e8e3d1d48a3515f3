import Router from '@koa/router';
import { z } from 'zod';
import { userOf } from '../http/auth';
import { IdParam } from '../http/params';
import type { Policies } from '../http/policy';
import type { PurchaseLifecycle } from './purchase-lifecycle';

const Reason = z.string().trim().min(3, 'say why, in a few words').max(500);
const RefundBody = z.object({ amount: z.number().int('whole cents').positive('more than nothing').optional(), reason: Reason }).strict();
const BanBody = z.object({ reason: Reason }).strict();

/** Console actions on a purchase: refunds (support and admins) and bans (admins only). */
export function purchaseActionRoutes({ allow, lifecycle }: { allow: Policies; lifecycle: PurchaseLifecycle }) {
  const router = new Router();
  const actorOf = (ctx: Parameters<typeof userOf>[0]) => {
    const user = userOf(ctx);
    return { id: user.id, email: user.email };
  };

  router.post('/purchases/:id/refund', allow.roles('support'), async (ctx) => {
    const body = RefundBody.parse(ctx.request.body);
    ctx.body = { data: await lifecycle.refund(IdParam.parse(ctx.params).id, body, actorOf(ctx), ctx.state.requestId ?? null) };
  });

  router.post('/purchases/:id/ban', allow.roles(), async (ctx) => {
    const { reason } = BanBody.parse(ctx.request.body);
    ctx.body = { data: await lifecycle.ban(IdParam.parse(ctx.params).id, reason, actorOf(ctx), ctx.state.requestId ?? null) };
  });

  return router;
}
