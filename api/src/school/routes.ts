import Router from '@koa/router';
import type { Policies } from '../identity/http/policy';
import { userOf } from '../identity/http/caller';
import { SchoolBody, type School } from './schemas';
import type { SchoolSettings } from './settings';

/** The school as the storefront shows it: public, it is what every page's header, footer and legal pages say. */
export function schoolStoreRoutes({ allow, school }: { allow: Policies; school: SchoolSettings }) {
  const router = new Router();
  router.get('/school', allow.public(), async (ctx) => {
    ctx.body = (await school.get()) satisfies School;
  });
  return router;
}

/** The console's settings page: administrators change the school's name, brand, contact and legal texts. */
export function schoolAdminRoutes({ allow, school }: { allow: Policies; school: SchoolSettings }) {
  const router = new Router();
  router.get('/school', allow.roles('admin'), async (ctx) => {
    ctx.body = (await school.get()) satisfies School;
  });
  router.put('/school', allow.roles('admin'), async (ctx) => {
    const input = SchoolBody.parse(ctx.request.body);
    const user = userOf(ctx);
    ctx.body = (await school.update(input, {
      actor: { id: user.id, email: user.email },
      requestId: ctx.state.requestId ?? null,
    })) satisfies School;
  });
  return router;
}
