import Router from '@koa/router';
import { actorOf } from '../../identity/http/caller';
import { IdParam } from '../../http/params';
import type { Policies } from '../../identity/http/policy';
import { ResendBody } from '../../identity/schemas';
import type { PurchaseLifecycle } from './lifecycle';
import type { ReceiptAgain } from './receipt-again';
import type { TeamService } from '../teams/teams';
import { BanBody, MemberParams, RefundBody, TransferBody, type ReceiptAgainAnswer } from '../schemas';
import type { TransferService } from '../transfers/transfers';

interface Deps {
  allow: Policies;
  lifecycle: PurchaseLifecycle;
  transfers: TransferService;
  teams: TeamService;
  receipts: ReceiptAgain;
}

/**
 * Console actions on purchases: refunds, bans (admins only), moving a purchase, its receipt sent again, transfers
 * and team seats.
 */
export function purchaseActionRoutes({ allow, lifecycle, transfers, teams, receipts }: Deps) {
  const router = new Router();

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

  router.post('/purchases/:id/receipt', allow.roles('support'), async (ctx) => {
    const { requestKey } = ResendBody.parse(ctx.request.body);
    const { email, created } = await receipts.send(IdParam.parse(ctx.params).id, {
      key: requestKey,
      actor: actorOf(ctx),
      requestId: ctx.state.requestId ?? null,
    });
    ctx.status = created ? 201 : 200;
    ctx.body = { data: { emailId: email.id, toAddress: email.toAddress, created } satisfies ReceiptAgainAnswer };
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
