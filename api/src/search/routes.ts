import Router from '@koa/router';
import type { Config } from '../config';
import { buyerCountry } from '../http/buyer-location';
import { authOf } from '../identity/http/caller';
import type { Policies } from '../identity/http/policy';
import { SearchParams } from './schemas';
import type { SearchService } from './search';

/** The storefront's search box: anyone may search; what each reader may read decides the snippets (§24). */
export function searchRoutes({ allow, config, search }: { allow: Policies; config: Config; search: SearchService }) {
  const router = new Router();
  router.get('/search', allow.public(), async (ctx) => {
    const { q } = SearchParams.parse(ctx.query);
    // The answer depends on who asks (their purchases open snippets): never kept by a shared cache.
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = {
      data: await search.search(q, { user: authOf(ctx)?.user ?? null, country: buyerCountry(ctx, config) }),
    };
  });
  return router;
}
