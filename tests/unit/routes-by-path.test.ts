import Router from '@koa/router';
import type { Context } from 'koa';
import { afterAll, describe, expect, it } from 'vitest';
import { createRouter } from '../../api/src/app';
import { createDb } from '../../api/src/db/connection';
import { routesByPath } from '../../api/src/http/routes-by-path';
import { createServices } from '../../api/src/services';
import { testDeps } from '../support/app';

// The dispatch by path must test exactly the layers the root router would match, in the root's order: a route it
// missed would answer 404, one it added would run where the root runs nothing.

/** The layers the dispatch matched for `path` (a method no route has: nothing runs, only the matching is kept). */
async function matchedBy(dispatch: ReturnType<typeof routesByPath>, path: string): Promise<Router['stack']> {
  const ctx = { path, method: 'PROPFIND', host: 'localhost' } as unknown as Context & { matched?: Router['stack'] };
  let passedOn = false;
  await dispatch(ctx, async () => {
    passedOn = true;
  });
  expect(passedOn).toBe(true);
  return ctx.matched ?? [];
}

/** A request path for a route's pattern: every parameter and wildcard filled in. */
const filled = (pattern: string) => pattern.replace(/\{[^}]*\}/g, '').replace(/[:*][A-Za-z0-9_]+/g, 'x1');

describe('routes dispatched by path', () => {
  const db = createDb('postgres://nobody@127.0.0.1:1/none', { max: 1 });
  afterAll(() => db.destroy());
  const deps = testDeps(db);
  const root = createRouter(deps, createServices(deps));
  const dispatch = routesByPath(root);

  it('matches every route of the API as the root router does, in any case and with a trailing slash', async () => {
    const patterns = root.stack.map((layer) => layer.path).filter((p): p is string => typeof p === 'string');
    expect(patterns.length).toBeGreaterThan(300);
    const paths = patterns.flatMap((pattern) => {
      const path = filled(pattern);
      return [path, `${path}/`, path.toUpperCase(), `${path}/more`, `${path}x`, path.split('/').slice(0, 3).join('/')];
    });
    paths.push('/', '/api', '/api/', '/api/admin', '/api/admin/', '/api//admin/purchases', '/nowhere/at/all/x');
    for (const path of paths) {
      const expected = root.match(path, 'PROPFIND').path;
      expect(await matchedBy(dispatch, path), path).toEqual(expected);
    }
  });

  it('keeps a route that may match anywhere in every group, in the order the root has it', async () => {
    const outer = new Router();
    const everywhere = async () => {};
    outer.get('/api/admin/things', async () => {});
    outer.use(everywhere); // a middleware layer without a path: it matches every path
    outer.get('/api/admin/things/:id', async () => {});
    outer.get('/api/:tree/things', async () => {});
    outer.get('/api/store/others', async () => {});
    const byPath = routesByPath(outer);
    for (const path of ['/api/admin/things', '/api/admin/things/7', '/API/Store/Others', '/api/store/things', '/x']) {
      expect(await matchedBy(byPath, path), path).toEqual(outer.match(path, 'PROPFIND').path);
    }
    // The middleware runs before the route, as under the root.
    const matched = await matchedBy(byPath, '/api/admin/things/7');
    expect(matched.map((layer) => layer.stack.at(-1) === everywhere || layer.path)).toEqual([
      true,
      '/api/admin/things/:id',
    ]);
  });
});
