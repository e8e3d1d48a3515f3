import Router from '@koa/router';
import { actorOf } from '../../identity/http/caller';
import { IdParam } from '../../http/params';
import type { Policies } from '../../identity/http/policy';
import type { DataAnswer } from '../../shared/wire';
import { AddSeatsBody, RevokedParams, type SeatsAdded, type TeamRoster, type TeamView } from '../schemas';
import type { TeamSupport } from './support';
import type { TeamService } from './teams';

interface Deps {
  allow: Policies;
  teams: TeamService;
  support: TeamSupport;
}

/**
 * Support's team management in the console (/api/admin/bulk-purchases/:id/…): the roster with ended seats, seats
 * added without a charge, a new invite link, a removed member let back in. Revoking a seat is in
 * purchase-action-routes.ts.
 */
export function teamAdminRoutes({ allow, teams, support }: Deps) {
  const router = new Router();
  const staff = (ctx: Parameters<typeof actorOf>[0]) => {
    const { id, email } = actorOf(ctx);
    return { id, email, staff: true };
  };

  router.get('/bulk-purchases/:id/members', allow.roles('support', 'finance'), async (ctx) => {
    ctx.body = { data: await support.roster(IdParam.parse(ctx.params).id) } satisfies DataAnswer<TeamRoster>;
  });

  router.post('/bulk-purchases/:id/seats', allow.roles('support'), async (ctx) => {
    const { id } = IdParam.parse(ctx.params);
    const body = AddSeatsBody.parse(ctx.request.body);
    const { id: actorId, email } = actorOf(ctx);
    ctx.body = {
      data: await support.addSeats(id, body, { id: actorId, email }, ctx.state.requestId ?? null),
    } satisfies DataAnswer<SeatsAdded>;
  });

  router.post('/bulk-purchases/:id/invite/rotate', allow.roles('support'), async (ctx) => {
    const { id } = IdParam.parse(ctx.params);
    ctx.body = {
      data: await teams.resetInvite(id, staff(ctx), ctx.state.requestId ?? null),
    } satisfies DataAnswer<TeamView>;
  });

  router.post('/bulk-purchases/:id/kept-out/:userId/readmit', allow.roles('support'), async (ctx) => {
    const { id, userId } = RevokedParams.parse(ctx.params);
    ctx.body = {
      data: await teams.readmit(id, userId, staff(ctx), ctx.state.requestId ?? null),
    } satisfies DataAnswer<TeamView>;
  });

  return router;
}
