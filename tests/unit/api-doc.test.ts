import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRouter } from '../../api/src/app';
import { createDb } from '../../api/src/db/connection';
import { POLICY, type Policy } from '../../api/src/identity/http/policy';
import { createServices } from '../../api/src/services';
import { ERROR_STATUS } from '../../api/src/shared/errors';
import { testDeps } from '../support/app';

// docs/api.md lists every storefront and device-flow route with who may call it, and every error code with its
// status: this keeps those tables equal to the router and to ERROR_STATUS, so the document cannot drift.
const API_DOC = readFileSync(path.resolve(import.meta.dirname, '../../docs/api.md'), 'utf8');
const DOCUMENTED_TREES = /^\/(api\/store|oauth)\//;

/** `| \`GET /api/store/products\` | public | … |` rows of the document, as route → access. */
function documentedRoutes(doc: string): Record<string, string> {
  const rows = doc.matchAll(/^\|\s*`((?:GET|POST|PUT|PATCH|DELETE) \/\S+)`\s*\|\s*([^|]+?)\s*\|/gm);
  return Object.fromEntries([...rows].map(([, route, access]) => [route!, access!]));
}

/** `| \`sold-out\` | 409 |` rows of the document, as code → status. */
function documentedErrors(doc: string): Record<string, number> {
  const rows = doc.matchAll(/^\|\s*`([a-z][a-z-]*)`\s*\|\s*(\d{3})\s*\|/gm);
  return Object.fromEntries([...rows].map(([, code, status]) => [code!, Number(status)]));
}

function access(policy: Policy | undefined): string {
  if (!policy) return '(no policy)';
  const base = policy.kind === 'public' ? 'public' : policy.kind === 'signed-in' ? 'signed-in' : 'staff';
  return 'bearer' in policy && policy.bearer ? `${base} or device` : base;
}

describe('docs/api.md', () => {
  // The router is built as the server builds it; nothing here queries the database, so none need run.
  const db = createDb('postgres://nobody@127.0.0.1:1/none', { max: 1 });
  afterAll(() => db.destroy());

  it('lists exactly the storefront and device-flow routes the router serves, with their access', () => {
    const deps = testDeps(db);
    const router = createRouter(deps, createServices(deps));
    const served = Object.fromEntries(
      router.stack
        .filter((layer) => DOCUMENTED_TREES.test(String(layer.path)))
        .flatMap((layer) => {
          const policy = (layer.stack.find((m) => POLICY in m) as unknown as { [POLICY]: Policy } | undefined)?.[
            POLICY
          ];
          return layer.methods
            .filter((method) => method !== 'HEAD')
            .map((method) => [`${method} ${String(layer.path)}`, access(policy)]);
        }),
    );
    expect(Object.keys(served).length).toBeGreaterThan(50);
    const documented = Object.fromEntries(
      Object.entries(documentedRoutes(API_DOC)).filter(([route]) => DOCUMENTED_TREES.test(route.split(' ')[1]!)),
    );
    expect(documented).toEqual(served);
  });

  it('gives every error code the status the API answers it with', () => {
    expect(documentedErrors(API_DOC)).toEqual({ ...ERROR_STATUS });
  });

  it('reads the tables the way they are written', () => {
    const doc = [
      '| `GET /api/store/products` | public | the catalog |',
      '| `PUT /api/store/prefs`    | signed-in or device | saves |',
      '| `sold-out` | 409 |',
      'Not a row: `GET /api/store/other`',
    ].join('\n');
    expect(documentedRoutes(doc)).toEqual({
      'GET /api/store/products': 'public',
      'PUT /api/store/prefs': 'signed-in or device',
    });
    expect(documentedErrors(doc)).toEqual({ 'sold-out': 409 });
  });
});
