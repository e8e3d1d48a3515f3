import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { allows } from '../../api/src/identity/access-policy';
import { allow, POLICY, type Policy } from '../../api/src/identity/http/policy';
import { schoolAdminRoutes } from '../../api/src/school/routes';
import { ROLES } from '../../api/src/shared/roles';

// The console offers the school's settings page to exactly the roles the API lets read and change them.

/** The policy of each of the console's routes of the settings (GET and PUT /api/admin/school). */
function policies(): Policy[] {
  const router = schoolAdminRoutes({ allow, school: {} as never });
  return router.stack
    .filter((layer) => layer.path === '/school')
    .map((layer) => (layer.stack.find((m) => POLICY in m) as unknown as { [POLICY]: Policy })[POLICY]);
}

describe('the school’s settings page in the console', () => {
  it('is offered to a role exactly when the API lets it read and save the settings', async () => {
    const { canEditSchool } = (await import(
      /* @vite-ignore */ path.resolve(import.meta.dirname, '../../admin/src/permissions.ts')
    )) as { canEditSchool: (permissions: unknown) => boolean };
    const found = policies();
    expect(found).toHaveLength(2);
    for (const role of ROLES) {
      const api = found.every((policy) => allows(policy, [role]));
      expect({ role, console: canEditSchool([role]) }).toEqual({ role, console: api });
    }
  });
});
