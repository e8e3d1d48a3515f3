import Router from '@koa/router';
import type { Middleware } from 'koa';

/** How many leading segments name a group of routes: `/api/admin/purchases`. */
const SEGMENTS = 3;

/** Where a path stops being literal text (a parameter, a wildcard, an optional or a group). */
const SPECIAL = /[:*{}()?+\\]/;

type Layer = Router['stack'][number];

/**
 * The first SEGMENTS segments of a route's path when its pattern spells them out, lower-cased (routes match in any
 * case); null when a parameter or a wildcard comes sooner, the path is shorter or a regular expression (a route that
 * may match anywhere).
 */
function groupOfLayer({ path }: Layer): string | null {
  if (typeof path !== 'string') return null;
  const special = path.search(SPECIAL);
  const literal = special === -1 ? path : path.slice(0, special);
  const segments = literal.split('/').slice(1);
  // A segment is whole when a slash follows it, or when it ends the pattern.
  const whole = special === -1 ? segments.length : segments.length - 1;
  if (whole < SEGMENTS) return null;
  return `/${segments.slice(0, SEGMENTS).join('/')}`.toLowerCase();
}

/** A request path's group, as `groupOfLayer` names it. */
function groupOfPath(path: string): string {
  let end = 0;
  for (let n = 0; n < SEGMENTS && end !== -1; n++) end = path.indexOf('/', end + 1);
  return (end === -1 ? path : path.slice(0, end)).toLowerCase();
}

/**
 * The root router's routes, dispatched by the first segments of the path. The router tests a request against each
 * of its routes in turn, some four hundred: a request under `/api/admin/purchases` is tested against that group's
 * routes and the few that may match anywhere, in the root's order, and runs exactly the layers the root would run.
 * The root's own `allowedMethods` still answers 405 and OPTIONS (it reads what was matched).
 */
export function routesByPath(root: Router): Middleware {
  const groups = new Map<string, Layer[]>();
  const anywhere: Layer[] = [];
  for (const layer of root.stack) {
    const group = groupOfLayer(layer);
    if (group === null) {
      anywhere.push(layer);
      // A route that may match anywhere is tested in every group too, where the root has it.
      for (const layers of groups.values()) layers.push(layer);
    } else {
      if (!groups.has(group)) groups.set(group, [...anywhere]);
      groups.get(group)!.push(layer);
    }
  }
  const dispatchOf = (stack: Layer[]) => {
    const router = new Router(root.opts);
    router.stack = stack;
    return router.routes() as Middleware;
  };
  const dispatch = new Map([...groups].map(([group, layers]) => [group, dispatchOf(layers)]));
  const elsewhere = dispatchOf(anywhere);
  return (ctx, next) => (dispatch.get(groupOfPath(ctx.path)) ?? elsewhere)(ctx, next);
}
