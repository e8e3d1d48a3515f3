import Router from '@koa/router';
import { userOf } from '../http/caller';
import type { Policies } from '../http/policy';
import type { UserPrefsService } from './prefs';
import { TimeZoneBody, type TimeZoneAnswer } from './time-zone.schemas';

/** The zone dates in emails to the signed-in person are written in. */
export function timeZoneRoutes({ allow, prefs }: { allow: Policies; prefs: UserPrefsService }) {
  const router = new Router();
  router.put('/me/time-zone', allow.signedIn(), async (ctx) => {
    const { timeZone, onlyIfUnset } = TimeZoneBody.parse(ctx.request.body);
    ctx.body = {
      timeZone: await prefs.setTimeZone(userOf(ctx).id, timeZone, { onlyIfUnset }),
    } satisfies TimeZoneAnswer;
  });
  return router;
}
