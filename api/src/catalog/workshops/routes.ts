import Router from '@koa/router';
import type { Context } from 'koa';
import { userOf } from '../../identity/http/caller';
import { IdParam } from '../../http/params';
import type { Policies } from '../../identity/http/policy';
import type { WorkshopService } from './workshops';
import { InviteFileParam } from './schemas';

/** Live workshops on the storefront: the public schedule, the holder's sessions with join links, and invites. */
export function workshopRoutes({ allow, workshops }: { allow: Policies; workshops: WorkshopService }) {
  const router = new Router();

  router.get('/products/:id/schedule', allow.public(), async (ctx) => {
    ctx.body = { data: await workshops.schedule(IdParam.parse(ctx.params).id) };
  });

  // Join links: only for the signed-in holder, never cached on the way.
  router.get('/workshops', allow.signedIn(), async (ctx) => {
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = { data: await workshops.mine(userOf(ctx).id) };
  });

  router.get('/workshops/:file', allow.signedIn(), async (ctx) => {
    const { file } = InviteFileParam.parse(ctx.params);
    sendCalendar(ctx, await workshops.invite(userOf(ctx).id, file));
  });

  // Every session in one file, for the holder (it carries the join links).
  router.get('/products/:id/calendar.ics', allow.signedIn(), async (ctx) => {
    sendCalendar(ctx, await workshops.calendar(userOf(ctx).id, IdParam.parse(ctx.params).id));
  });

  return router;
}

function sendCalendar(ctx: Context, file: { filename: string; content: string }): void {
  ctx.set('Cache-Control', 'private, no-store');
  ctx.set('Content-Disposition', `attachment; filename="${file.filename}"`);
  ctx.type = 'text/calendar; charset=utf-8';
  ctx.body = file.content;
}
