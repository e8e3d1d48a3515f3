import Router from '@koa/router';
import type { Policies } from '../identity/http/policy';
import type { HealthService } from './service';

/**
 * `/health/live`: the process answers (restart it if not); no database. `/health/ready`: it can serve, the database
 * answering within a second on the health connection (take it out of the balancer if not). `/health` is ready's
 * older name.
 */
export function healthRoutes({ health, allow }: { health: HealthService; allow: Policies }) {
  const router = new Router();
  router.get('/health/live', allow.public(), (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { status: 'ok' };
  });
  for (const path of ['/health', '/health/ready']) {
    router.get(path, allow.public(), async (ctx) => {
      const result = await health.check();
      ctx.status = result.status === 'ok' ? 200 : 503;
      ctx.set('Cache-Control', 'no-store');
      ctx.body = result;
    });
  }
  return router;
}
