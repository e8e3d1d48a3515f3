import Router from '@koa/router';
import { userOf } from '../identity/http/caller';
import { IdParam } from '../http/params';
import type { Policies } from '../identity/http/policy';
import type { CouponGenerator } from '../commerce/coupons/generator';
import type { DataAnswer, ListAnswer } from '../shared/wire';
import type { TreeNode } from '../learning/schemas';
import { GenerateCouponsBody, type GeneratedCoupon } from './schemas/commerce';
import { DashboardQuery } from './schemas/dashboard';
import { AddChildBody, ReorderBody } from './schemas/learning';
import type { ContentTree } from '../learning/content-tree';
import type { DashboardService } from './dashboard/dashboard';

interface Deps {
  allow: Policies;
  dashboard: DashboardService;
  tree: ContentTree;
  coupons: CouponGenerator;
}

/** Console endpoints beyond the REST contract: the dashboard, the course tree and the coupon generator. */
export function adminExtraRoutes({ allow, dashboard, tree, coupons }: Deps) {
  const router = new Router();

  router.post('/coupons/generate', allow.roles('support'), async (ctx) => {
    const input = GenerateCouponsBody.parse(ctx.request.body);
    const user = userOf(ctx);
    ctx.status = 201;
    ctx.body = {
      data: await coupons.generate(input, { id: user.id, email: user.email }, ctx.state.requestId ?? null),
    } satisfies ListAnswer<GeneratedCoupon>;
  });

  router.get('/dashboard', allow.roles('support', 'finance'), async (ctx) => {
    // Finance figures only for those who read the Finance page: support sees the work, counted.
    ctx.body = await dashboard.summary(DashboardQuery.parse(ctx.query), userOf(ctx));
  });

  router.get('/content-resources/:id/tree', allow.roles('support', 'finance', 'contributor'), async (ctx) => {
    ctx.body = await tree.tree(IdParam.parse(ctx.params).id, userOf(ctx));
  });

  router.post('/content-resources/:id/reorder', allow.roles('support', 'contributor'), async (ctx) => {
    const { childIds } = ReorderBody.parse(ctx.request.body);
    const user = userOf(ctx);
    await tree.reorder(
      IdParam.parse(ctx.params).id,
      childIds,
      { id: user.id, email: user.email, roles: user.roles },
      ctx.state.requestId ?? null,
    );
    ctx.status = 204;
  });

  // Building the outline in place: a new module, section or lesson, titled, linked under this content.
  router.post('/content-resources/:id/children', allow.roles('support', 'contributor'), async (ctx) => {
    const body = AddChildBody.parse(ctx.request.body);
    const user = userOf(ctx);
    ctx.status = 201;
    ctx.body = {
      data: await tree.addChild(
        IdParam.parse(ctx.params).id,
        body,
        { id: user.id, email: user.email, roles: user.roles },
        ctx.state.requestId ?? null,
      ),
    } satisfies DataAnswer<TreeNode>;
  });

  return router;
}
