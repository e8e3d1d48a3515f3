import Router from '@koa/router';
import { userOf } from '../identity/http/caller';
import type { Policies } from '../identity/http/policy';
import type { ProductPages } from './product-page';
import { ProductPageParam } from './product-page.schemas';
import type { CatalogService } from './service';

export function catalogRoutes({ catalog, allow }: { catalog: CatalogService & ProductPages; allow: Policies }) {
  const router = new Router();
  router.get('/products', allow.public(), async (ctx) => {
    ctx.type = 'json';
    ctx.body = await catalog.activeProductsJson();
  });
  // The sales page in one answer; the same for every visitor (what a signed-in learner owns is asked apart).
  router.get('/products/:slugOrId', allow.public(), async (ctx) => {
    ctx.body = await catalog.productPage(ProductPageParam.parse(ctx.params).slugOrId);
  });
  router.get('/owned-products', allow.signedIn(), async (ctx) => {
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = { data: await catalog.ownedProductIds(userOf(ctx).id) };
  });
  return router;
}
