import Router from '@koa/router';
import type { Policies } from '../http/policy';
import type { CatalogService } from './service';

export function catalogRoutes({ catalog, allow }: { catalog: CatalogService; allow: Policies }) {
  const router = new Router();
  router.get('/products', allow.public(), async (ctx) => {
    ctx.type = 'json';
    ctx.body = await catalog.activeProductsJson();
  });
  return router;
}
