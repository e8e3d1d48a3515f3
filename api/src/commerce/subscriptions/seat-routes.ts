import Router from '@koa/router';
import { userOf } from '../../identity/http/caller';
import { IdParam } from '../../http/params';
import type { Policies } from '../../identity/http/policy';
import { AddSeatsBody, SeatCodeParam } from './subscriptions.schemas';
import type { SubscriptionService } from './subscriptions';

/** A team membership's seats: its subscriber's view and added seats, and a seat taken through the invite link. */
export function subscriptionSeatRoutes({
  allow,
  subscriptions,
}: {
  allow: Policies;
  subscriptions: SubscriptionService;
}) {
  const router = new Router();

  router.get('/subscriptions/:id/seats', allow.signedIn(), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { data: await subscriptions.seats(userOf(ctx).id, IdParam.parse(ctx.params).id) };
  });

  // What adding seats would charge now and each period, shown before the subscriber confirms.
  router.get('/subscriptions/:id/seats/quote', allow.signedIn(), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const { id } = IdParam.parse(ctx.params);
    const { quantity } = AddSeatsBody.parse({ quantity: Number(ctx.query.quantity) });
    ctx.body = { data: await subscriptions.quoteSeats(userOf(ctx).id, id, quantity) };
  });

  router.post('/subscriptions/:id/seats', allow.signedIn(), async (ctx) => {
    const { id } = IdParam.parse(ctx.params);
    const { quantity } = AddSeatsBody.parse(ctx.request.body);
    ctx.body = { data: await subscriptions.addSeats(userOf(ctx).id, id, quantity) };
  });

  router.post('/subscription-seats/:code', allow.signedIn(), async (ctx) => {
    const { code } = SeatCodeParam.parse(ctx.params);
    ctx.body = { data: await subscriptions.takeSeat(userOf(ctx).id, code) };
  });

  return router;
}
