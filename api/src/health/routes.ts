import Router from '@koa/router';
import type { Policies } from '../http/policy';
import type { HealthService } from './service';

export function healthRoutes({ health, allow }: { health: HealthService; allow: Policies }) {
  const router = new Router();
  router.get('/health', allow.public(), async (ctx) => {
    const result = await health.check();
    ctx.status = result.status === 'ok' ? 200 : 503;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = result;
  });
  return router;
}
