import Router from '@koa/router';
import type { Config } from '../../config';
import { actorOf, authOf } from '../http/caller';
import { clearViewAsCookie, setViewAsCookie, VIEW_AS_END_PATH } from '../../http/auth';
import { IdParam } from '../../http/params';
import type { Policies } from '../http/policy';
import { MY_LEARNING_PATH } from '../../shared/storefront-paths';
import { ViewAsBody, type ViewAsStarted } from '../schemas';
import { VIEW_AS_ROLES, type ViewAs } from './view-as';

/** Support's view of a learner's storefront: started from the console, ended from the storefront's banner. */
export function viewAsRoutes({
  allow,
  viewAs,
  config,
}: {
  allow: Policies;
  viewAs: ViewAs;
  config: Pick<Config, 'NODE_ENV'>;
}) {
  const admin = new Router();
  admin.post('/users/:id/view-as', allow.roles(...VIEW_AS_ROLES), async (ctx) => {
    const input = ViewAsBody.parse(ctx.request.body);
    const { token, expiresAt } = await viewAs.start(
      actorOf(ctx),
      IdParam.parse(ctx.params).id,
      input,
      ctx.state.requestId ?? null,
    );
    // Same origin: the cookie is set here, and the storefront the console opens is theirs until it ends.
    setViewAsCookie(ctx, token, expiresAt, config);
    ctx.status = 201;
    ctx.body = { path: MY_LEARNING_PATH, expiresAt } satisfies ViewAsStarted;
  });

  const store = new Router();
  // The one write a view allows. Signed in or not, the cookie goes.
  store.post(VIEW_AS_END_PATH.replace('/api/store', ''), allow.public(), async (ctx) => {
    const viewing = authOf(ctx);
    if (viewing?.method === 'session' && viewing.viewAs)
      await viewAs.end(viewing.viewAs.grant, { id: viewing.viewAs.staff.id, email: viewing.viewAs.staff.email });
    clearViewAsCookie(ctx, config);
    ctx.status = 204;
  });
  return { admin, store };
}
