import Router from '@koa/router';
import { userOf } from '../http/caller';
import type { Policies } from '../http/policy';
import type { DisplayNames } from './display-name';
import { DisplayNameBody } from './display-name.schemas';

/** The learner's display name, shown on their comments. */
export function displayNameRoutes({ allow, displayNames }: { allow: Policies; displayNames: DisplayNames }) {
  const router = new Router();
  router.put('/me/name', allow.signedIn(), async (ctx) => {
    const { name } = DisplayNameBody.parse(ctx.request.body);
    ctx.body = await displayNames.set(userOf(ctx).id, name);
  });
  return router;
}
