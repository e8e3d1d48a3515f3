import Router from '@koa/router';
import { userOf } from '../../identity/http/caller';
import { IdParam } from '../../http/params';
import type { Policies } from '../../identity/http/policy';
import { TransferBody } from '../schemas';
import type { TransferService } from './transfers';

/** Giving a purchase to someone else: the owner's side and the recipient's. */
export function transferRoutes({ allow, transfers }: { allow: Policies; transfers: TransferService }) {
  const router = new Router();

  router.get('/purchases/:id/transfer', allow.signedIn(), async (ctx) => {
    ctx.body = { data: await transfers.forPurchase(userOf(ctx).id, IdParam.parse(ctx.params).id) };
  });

  router.post('/purchases/:id/transfer', allow.signedIn(), async (ctx) => {
    const { email } = TransferBody.parse(ctx.request.body);
    ctx.body = {
      data: await transfers.initiate(userOf(ctx).id, IdParam.parse(ctx.params).id, email, ctx.state.requestId ?? null),
    };
  });

  router.post('/transfers/:id/cancel', allow.signedIn(), async (ctx) => {
    const user = userOf(ctx);
    ctx.body = {
      data: await transfers.cancel(
        { id: user.id, email: user.email },
        IdParam.parse(ctx.params).id,
        ctx.state.requestId ?? null,
      ),
    };
  });

  // Before signing in: the sign-in page explains the offer and fills in the address it was sent to.
  router.get('/transfers/:id/preview', allow.public(), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { data: await transfers.preview(IdParam.parse(ctx.params).id) };
  });

  router.get('/transfers/:id', allow.signedIn(), async (ctx) => {
    ctx.body = { data: await transfers.forRecipient(userOf(ctx).id, IdParam.parse(ctx.params).id) };
  });

  router.post('/transfers/:id/verify', allow.signedIn(), async (ctx) => {
    ctx.body = { data: await transfers.verify(userOf(ctx).id, IdParam.parse(ctx.params).id) };
  });

  router.post('/transfers/:id/accept', allow.signedIn(), async (ctx) => {
    ctx.body = {
      data: await transfers.accept(userOf(ctx).id, IdParam.parse(ctx.params).id, ctx.state.requestId ?? null),
    };
  });

  return router;
}
