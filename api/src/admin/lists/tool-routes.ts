import Router from '@koa/router';
import type { Context } from 'koa';
import { actorOf } from '../../identity/http/caller';
import { IdParam } from '../../http/params';
import type { Policies } from '../../identity/http/policy';
import type { DataAnswer, ListAnswer } from '../../shared/wire';
import type { BulkActions } from './bulk-actions';
import type { SavedFilters } from './saved-filters';
import {
  BulkIds,
  SavedFilterBody,
  SavedFiltersQuery,
  type BulkOutcome,
  type SavedFilterRecord,
} from '../schemas/list-tools';

const bulkContext = (ctx: Context) => ({ actor: actorOf(ctx), requestId: (ctx.state.requestId as string) ?? null });

/**
 * What the console's lists offer beyond reading: bulk actions on the selected rows (each answers how many were done
 * and which were left alone, and why), and each staff member's saved filters. A list's CSV export is one of the
 * resource's own routes (admin/routes.ts).
 */
export function listToolRoutes({ allow, bulk, saved }: { allow: Policies; bulk: BulkActions; saved: SavedFilters }) {
  const router = new Router();

  router.post('/coupons/deactivate', allow.roles('support'), async (ctx) => {
    const { ids } = BulkIds.parse(ctx.request.body);
    ctx.body = { data: await bulk.deactivateCoupons(ids, bulkContext(ctx)) } satisfies DataAnswer<BulkOutcome>;
  });

  router.post('/outbox-emails/resend', allow.roles('support'), async (ctx) => {
    const { ids } = BulkIds.parse(ctx.request.body);
    ctx.body = { data: await bulk.resendEmails(ids, bulkContext(ctx)) } satisfies DataAnswer<BulkOutcome>;
  });

  router.post('/jobs/retry', allow.roles(), async (ctx) => {
    const { ids } = BulkIds.parse(ctx.request.body);
    ctx.body = { data: await bulk.retryJobs(ids, bulkContext(ctx)) } satisfies DataAnswer<BulkOutcome>;
  });

  // Any staff member who reads console lists keeps their own; the service checks they may read that list.
  const staff = allow.roles('support', 'finance', 'contributor');

  router.get('/saved-filters', staff, async (ctx) => {
    const { resource } = SavedFiltersQuery.parse(ctx.query);
    ctx.body = { data: await saved.list(resource, actorOf(ctx)) } satisfies ListAnswer<SavedFilterRecord>;
  });

  router.post('/saved-filters', staff, async (ctx) => {
    const input = SavedFilterBody.parse(ctx.request.body);
    ctx.status = 201;
    ctx.body = { data: await saved.save(input, actorOf(ctx)) } satisfies DataAnswer<SavedFilterRecord>;
  });

  router.delete('/saved-filters/:id', staff, async (ctx) => {
    const { id } = IdParam.parse(ctx.params);
    ctx.body = { data: await saved.remove(id, actorOf(ctx)) } satisfies DataAnswer<SavedFilterRecord>;
  });

  return router;
}
