import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The layers of docs/architecture.md §4 as the linter applies them: each case is code at a path in the tree.
const eslint = new ESLint({ cwd: path.resolve(import.meta.dirname, '../..') });

async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports').map((m) => m.message);
}

describe('layer boundaries (eslint)', () => {
  it('keeps the database out of route files', async () => {
    for (const file of ['api/src/commerce/routes.ts', 'api/src/commerce/teams/routes.ts']) {
      expect(await boundaryErrors(file, "import knex from 'knex';\nexport const k = knex;\n")).toEqual([
        expect.stringContaining('Routes never touch the database'),
      ]);
      expect(await boundaryErrors(file, "import { Purchase } from './models';\nexport const p = Purchase;\n")).toEqual([
        expect.stringContaining('Routes never touch models'),
      ]);
    }
    expect(
      await boundaryErrors(
        'api/src/commerce/teams/teams.ts',
        "import { Purchase } from './models';\nexport const p = Purchase;\n",
      ),
    ).toEqual([]);
    // not even for a type: a route that names a model is one step from querying it
    expect(
      await boundaryErrors(
        'api/src/identity/routes.ts',
        "import type { User } from './models';\nexport type U = User;\n",
      ),
    ).toEqual([expect.stringContaining('Routes never touch models')]);
  });

  it('keeps Koa out of services', async () => {
    const code = "import type { Context } from 'koa';\nexport type C = Context;\n";
    expect(await boundaryErrors('api/src/commerce/pricing/prices.ts', code)).toEqual([
      expect.stringContaining('Services never see Koa'),
    ]);
    expect(await boundaryErrors('api/src/commerce/routes.ts', code)).toEqual([]);
    expect(await boundaryErrors('api/src/http/auth.ts', code)).toEqual([]);
  });

  it('keeps the HTTP layer out of services, which raise errors from shared/errors', async () => {
    const httpErrors = "import { toAppError } from '../http/errors';\nexport const t = toAppError;\n";
    expect(await boundaryErrors('api/src/commerce/teams/teams.ts', httpErrors)).toEqual([
      expect.stringContaining('Services never import the HTTP layer'),
    ]);
    expect(await boundaryErrors('api/src/commerce/routes.ts', httpErrors)).toEqual([]);
    const shared = "import { AppError } from '../shared/errors';\nexport const e = AppError;\n";
    expect(await boundaryErrors('api/src/commerce/teams/teams.ts', shared)).toEqual([]);
    // the CSV writers know no request
    const csv = "import { csvCell } from '../http/csv';\nexport const c = csvCell;\n";
    expect(await boundaryErrors('api/src/finance/exports.ts', csv)).toEqual([]);
  });

  it('allows zod at the edge only', async () => {
    const code = "import { z } from 'zod';\nexport const s = z.string();\n";
    for (const edge of ['api/src/commerce/schemas.ts', 'api/src/http/params.ts', 'api/src/config.ts']) {
      expect(await boundaryErrors(edge, code)).toEqual([]);
    }
    for (const inner of [
      'api/src/finance/exports.ts',
      'api/src/finance/routes.ts',
      'admin/src/x.ts',
      'storefront/src/x.ts',
    ]) {
      expect(await boundaryErrors(inner, code)).toEqual([expect.stringMatching(/zod/)]);
    }
  });

  it('lets the apps take only types from the API, and values from its shared rules', async () => {
    const typeOnly = "import type { Quote } from '../../api/src/commerce/schemas';\nexport type Q = Quote;\n";
    const value =
      "import { PRICE_TIERS } from '../../api/src/commerce/pricing/prices';\nexport const t = PRICE_TIERS;\n";
    const shared =
      "import { safeRedirect } from '../../api/src/shared/safe-redirect';\nexport const r = safeRedirect;\n";
    expect(await boundaryErrors('storefront/src/x.ts', typeOnly)).toEqual([]);
    expect(await boundaryErrors('storefront/src/x.ts', value)).toEqual([expect.stringContaining('import only types')]);
    expect(await boundaryErrors('admin/src/x.ts', value)).toEqual([expect.stringContaining('import only types')]);
    expect(await boundaryErrors('storefront/src/x.ts', shared)).toEqual([]);
  });

  it('refuses an import that closes a cycle, in the API and in the console', async () => {
    // csv-columns.ts imports csv.ts, and the console's permissions import registry/access: either way back is a cycle.
    const cycles = async (filePath: string, code: string) => {
      const [result] = await eslint.lintText(code, { filePath });
      return result!.messages.filter((m) => m.ruleId === 'import-x/no-cycle');
    };
    const backToColumns = "import { text } from './csv-columns';\nexport const t = text;\n";
    expect(await cycles('api/src/http/csv.ts', backToColumns)).toEqual([
      expect.objectContaining({ message: expect.stringContaining('Dependency cycle') }),
    ]);
    expect(await cycles('api/src/http/paged-csv.ts', backToColumns)).toEqual([]);
    const backToPermissions = "import { isAdmin } from '../permissions';\nexport const a = isAdmin;\n";
    expect(await cycles('admin/src/registry/access.ts', backToPermissions)).toEqual([
      expect.objectContaining({ message: expect.stringContaining('Dependency cycle') }),
    ]);
    expect(await cycles('admin/src/registry/index.ts', backToPermissions)).toEqual([]);
  });
});
