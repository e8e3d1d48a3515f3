import Router from '@koa/router';
import type { Context } from 'koa';
import { actorOf } from '../identity/http/caller';
import { IdParam, NumericIdParam } from '../http/params';
import type { Policies } from '../identity/http/policy';
import { parseListQuery } from '../list-query/schemas';
import { parseCreate, updateRequest } from './schemas/write';
import type { AdminResource } from './resource';
import type { ListExports } from './lists/export';
import type { AdminService, WriteContext } from './records/service';

function writeContext(ctx: Context): WriteContext {
  return { actor: actorOf(ctx), requestId: (ctx.state.requestId as string) ?? null };
}

/** ra-data-simple-rest's contract for every resource; only the operations a resource defines are routed. */
export function adminRoutes({
  admin,
  exports,
  resources,
  allow,
}: {
  admin: AdminService;
  exports: ListExports;
  resources: readonly AdminResource[];
  allow: Policies;
}) {
  const router = new Router();
  for (const resource of resources) {
    const readers = allow.roles(...resource.read);
    const writers = () => allow.roles(...(resource.write ?? ['support']));
    const path = `/${resource.name}`;
    const idOf = (ctx: Context) =>
      (resource.idParam ?? (resource.filterable.id === 'number' ? NumericIdParam : IdParam)).parse(ctx.params).id;

    router.get(path, readers, async (ctx) => {
      const query = parseListQuery(resource, ctx.query);
      const { rows, total } = await admin.list(resource, query, actorOf(ctx));
      const last = query.offset + rows.length - 1;
      ctx.set('Content-Range', `${resource.name} ${rows.length ? `${query.offset}-${last}` : '*'}/${total.total}`);
      if (total.estimated) ctx.set('X-Total-Estimated', 'true');
      ctx.body = rows;
    });
    // The list as CSV: its filters, search and sort (no range: every row), streamed; before `/:id`.
    router.get(`${path}/export.csv`, readers, async (ctx) => {
      const query = parseListQuery(resource, ctx.query);
      const { filename, total, estimated, body } = await exports.open(resource, query, actorOf(ctx));
      // Sent as written, not compressed: the header goes out at once (a compressor holds it for more), and a
      // million rows cost no CPU to squeeze.
      ctx.compress = false;
      ctx.set('Content-Disposition', `attachment; filename="${filename}"`);
      // Past ten thousand rows the planner's estimate, as the list's own total: the progress says "about".
      ctx.set('X-Total-Rows', String(total));
      if (estimated) ctx.set('X-Total-Estimated', 'true');
      ctx.set('Cache-Control', 'no-store');
      ctx.type = 'text/csv; charset=utf-8';
      ctx.body = body;
    });
    router.get(`${path}/:id`, readers, async (ctx) => {
      ctx.body = await admin.getOne(resource, idOf(ctx), actorOf(ctx));
    });
    const { create, update } = resource;
    if (create) {
      router.post(path, writers(), async (ctx) => {
        const input = parseCreate(create, ctx.request.body);
        ctx.status = 201;
        ctx.body = await admin.create(resource, input, writeContext(ctx));
      });
    }
    if (update) {
      router.put(`${path}/:id`, writers(), async (ctx) => {
        const id = idOf(ctx);
        ctx.body = await admin.update(resource, id, updateRequest(update, ctx.request.body), writeContext(ctx));
      });
    }
    if (resource.remove) {
      router.delete(`${path}/:id`, writers(), async (ctx) => {
        ctx.body = await admin.remove(resource, idOf(ctx), writeContext(ctx));
      });
    }
  }
  return router;
}
