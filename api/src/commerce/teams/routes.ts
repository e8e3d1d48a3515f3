import Router from '@koa/router';
import { userOf } from '../../identity/http/caller';
import { IdParam } from '../../http/params';
import type { Policies } from '../../identity/http/policy';
import { MemberParams, RevokedParams } from '../schemas';
import type { TeamService } from './teams';

/** The storefront's team pages: the owner's team, invites and seats. */
export function teamRoutes({ allow, teams }: { allow: Policies; teams: TeamService }) {
  const router = new Router();
  /** The signed-in user acting on their own team (an owner, never staff here). */
  const me = (ctx: Parameters<typeof userOf>[0]) => {
    const user = userOf(ctx);
    return { id: user.id, email: user.email, staff: false };
  };

  router.get('/teams', allow.signedIn(), async (ctx) => {
    ctx.body = { data: await teams.mine(userOf(ctx).id) };
  });

  router.get('/teams/:id', allow.signedIn(), async (ctx) => {
    ctx.body = await teams.get(IdParam.parse(ctx.params).id, me(ctx));
  });

  router.post('/teams/:id/claim', allow.signedIn(), async (ctx) => {
    ctx.body = await teams.claimForOwner(IdParam.parse(ctx.params).id, userOf(ctx).id);
  });

  router.delete('/teams/:id/members/:memberId', allow.signedIn(), async (ctx) => {
    const { id, memberId } = MemberParams.parse(ctx.params);
    ctx.body = await teams.revoke(id, memberId, me(ctx), ctx.state.requestId ?? null);
  });

  router.post('/teams/:id/revoked/:userId/readmit', allow.signedIn(), async (ctx) => {
    const { id, userId } = RevokedParams.parse(ctx.params);
    ctx.body = await teams.readmit(id, userId, me(ctx), ctx.state.requestId ?? null);
  });

  router.post('/teams/:id/invite/reset', allow.signedIn(), async (ctx) => {
    ctx.body = await teams.resetInvite(IdParam.parse(ctx.params).id, me(ctx), ctx.state.requestId ?? null);
  });

  // Anyone with the link sees which course it is for; taking the seat needs an account.
  router.get('/invites/:id', allow.public(), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await teams.invite(IdParam.parse(ctx.params).id);
  });

  router.post('/invites/:id/redeem', allow.signedIn(), async (ctx) => {
    ctx.status = 201;
    ctx.body = await teams.redeem(IdParam.parse(ctx.params).id, userOf(ctx).id);
  });

  return router;
}
