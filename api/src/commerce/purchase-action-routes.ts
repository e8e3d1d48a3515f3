import Router from '@koa/router';
import { userOf } from '../http/auth';
import { IdParam } from '../http/params';
import type { Policies } from '../http/policy';
import type { PurchaseLifecycle } from './purchase-lifecycle';
import type { TeamService } from './teams';
import { BanBody, MemberParams, RefundBody, TransferBody } from './schemas';
import type { TransferService } from './transfers';

interface Deps {
  allow: Policies;
  lifecycle: PurchaseLifecycle;
  transfers: TransferService;
  teams: TeamService;
}

/** Console actions on purchases: refunds, bans (admins only), moving a purchase, transfers and team seats. */
export function purchaseActionRoutes({ allow, lifecycle, transfers, teams }: Deps) {
  const router = new Router();
  const actorOf = (ctx: Parameters<typeof userOf>[0]) => {
    const user = userOf(ctx);
    return { id: user.id, email: user.email };
  };

  router.post('/purchases/:id/refund', allow.roles('support'), async (ctx) => {
    const body = RefundBody.parse(ctx.request.body);
    ctx.body = {
      data: await lifecycle.refund(IdParam.parse(ctx.params).id, body, actorOf(ctx), ctx.state.requestId ?? null),
    };
  });

  router.post('/purchases/:id/ban', allow.roles(), async (ctx) => {
    const { reason } = BanBody.parse(ctx.request.body);
    ctx.body = {
      data: await lifecycle.ban(IdParam.parse(ctx.params).id, reason, actorOf(ctx), ctx.state.requestId ?? null),
    };
  });

  // A buyer who typed the wrong address: support moves the purchase, recorded as a completed transfer.
  router.post('/purchases/:id/move', allow.roles('support'), async (ctx) => {
    const { email } = TransferBody.parse(ctx.request.body);
    ctx.body = {
      data: await transfers.moveDirectly(
        actorOf(ctx),
        IdParam.parse(ctx.params).id,
        email,
        ctx.state.requestId ?? null,
      ),
    };
  });

  router.post('/purchase-user-transfers/:id/cancel', allow.roles('support'), async (ctx) => {
    ctx.body = {
      data: await transfers.cancel(
        { ...actorOf(ctx), staff: true },
        IdParam.parse(ctx.params).id,
        ctx.state.requestId ?? null,
      ),
    };
  });

  router.delete('/bulk-purchases/:id/members/:memberId', allow.roles('support'), async (ctx) => {
    const { id, memberId } = MemberParams.parse(ctx.params);
    ctx.body = {
      data: await teams.revoke(id, memberId, { ...actorOf(ctx), staff: true }, ctx.state.requestId ?? null),
    };
  });

  return router;
}
