import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_RESOURCES } from '../../api/src/admin/resources';
import { allow, POLICY, type Policy } from '../../api/src/identity/http/policy';
import { ROLES, STAFF_ROLES, type Role } from '../../api/src/shared/roles';
import { videoAdminRoutes } from '../../api/src/video/admin-routes';

// The console decides what to show from its registry; the API enforces its own policies. They must say the same,
// or the console offers screens the API refuses (or hides screens someone may use).

interface ConsoleSide {
  CONSOLE_RESOURCES: readonly { name: string; read: readonly Role[]; write?: readonly Role[] }[];
  ROLES: readonly Role[];
  STAFF_ROLES: readonly Role[];
}

/** The console's modules import its screens (TSX, typed by admin/tsconfig.json), so they load at run time. */
const consoleModule = (file: string) =>
  import(/* @vite-ignore */ path.resolve(import.meta.dirname, '../../admin/src', file));

/** Who reads and who writes; on both sides an absent `write` means support (admins always may). */
function policy(read: readonly Role[], write: readonly Role[] | undefined) {
  return { read: [...read].sort(), write: [...(write ?? ['support'])].sort() };
}

/** The roles of one route of a router (its policy middleware). */
function routeRoles(router: ReturnType<typeof videoAdminRoutes>, method: string, path: string): readonly Role[] {
  const layer = router.stack.find((l) => l.path === path && l.methods.includes(method));
  const found = layer?.stack.find((m) => POLICY in m) as unknown as { [POLICY]: Policy } | undefined;
  if (found?.[POLICY].kind !== 'roles') throw new Error(`${method} ${path} has no roles policy`);
  return found[POLICY].roles;
}

/** Resources the API serves with routes of their own (not ADMIN_RESOURCES): reading is the list, writing a delete. */
function ownRouteResources() {
  const videos = videoAdminRoutes({ allow, videos: {} as never, uploads: {} as never });
  return { videos: policy(routeRoles(videos, 'GET', '/videos'), routeRoles(videos, 'DELETE', '/videos/:id')) };
}

describe('the console’s role registry', () => {
  let app: ConsoleSide;
  beforeAll(async () => {
    const [registry, auth, permissions] = await Promise.all(
      ['registry/index.ts', 'authProvider.ts', 'permissions.ts'].map(consoleModule),
    );
    app = { ...registry, ...auth, ...permissions } as ConsoleSide;
  });

  it('gives every resource the read and write roles of the API’s policy, and knows exactly the API’s resources', () => {
    const api = {
      ...Object.fromEntries(ADMIN_RESOURCES.map((r) => [r.name, policy(r.read, r.write)])),
      ...ownRouteResources(),
    };
    const console = Object.fromEntries(app.CONSOLE_RESOURCES.map((r) => [r.name, policy(r.read, r.write)]));
    expect(app.CONSOLE_RESOURCES).toHaveLength(Object.keys(console).length); // each resource once
    expect(console).toEqual(api);
  });

  it('takes its role names from the API', () => {
    expect(app.ROLES).toBe(ROLES);
    expect(app.STAFF_ROLES).toBe(STAFF_ROLES);
  });
});
