import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { PURCHASE_STATUSES } from '../../api/src/shared/purchase-status';

// Purchase statuses are listed once, in api/src/shared/purchase-status.ts; the linter refuses a list written again.
const root = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });

async function statusListErrors(filePath: string, code: string): Promise<number[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.message.includes('list of purchase statuses')).map((m) => m.line);
}

describe('purchase status lists (eslint)', () => {
  it('refuses a list of statuses written out in the API and the apps, as receipts once had it', async () => {
    const receipts = "const OPEN = ['Valid', 'Restricted'];\nexport const open = (s: string) => OPEN.includes(s);\n";
    for (const file of [
      'api/src/commerce/purchases/receipt-again.ts',
      'admin/src/purchases/x.tsx',
      'storefront/src/x.ts',
    ]) {
      expect(await statusListErrors(file, receipts)).toEqual([1]);
    }
    // One status alone is a list too; so is a list inside a call or a map.
    expect(await statusListErrors('api/src/commerce/checkout/quotes.ts', "f({ statuses: ['Valid'] });\n")).toEqual([1]);
    expect(
      await statusListErrors('api/src/commerce/x.ts', "export const e = {\n  Valid: ['Refunded', 'Banned'],\n};\n"),
    ).toEqual([2]);
  });

  it('refuses the same list in SQL text, as the team roster once ordered its seats', async () => {
    const roster = "const HELD = `s.status IN ('Valid', 'Restricted')`;\nexport const held = HELD;\n";
    expect(await statusListErrors('api/src/commerce/teams/support.ts', roster)).toEqual([1]);
    expect(await statusListErrors('api/src/x.ts', "q.whereRaw(\"status in ('Refunded','Banned')\");\n")).toEqual([1]);
    expect(await statusListErrors('api/src/x.ts', "q.whereRaw('s.status = ANY(?)', [list]);\n")).toEqual([]);
  });

  it('takes the named lists, other words and the shared module itself', async () => {
    const named =
      "import { GRANTING_STATUSES } from '../shared/purchase-status';\nexport const s = [...GRANTING_STATUSES, 'Banned'];\n";
    expect(await statusListErrors('api/src/commerce/x.ts', named)).toEqual([]);
    expect(await statusListErrors('api/src/commerce/x.ts', "export const s = ['Valid', 'valid', 'open'];\n")).toEqual(
      [],
    );
    expect(await statusListErrors('api/src/commerce/x.ts', 'export const s: string[] = [];\n')).toEqual([]);
    expect(
      await statusListErrors('api/src/shared/purchase-status.ts', "export const S = ['Valid', 'Restricted'];\n"),
    ).toEqual([]);
  });

  it('knows the statuses the shared module lists, and finds none written out in the sources', async () => {
    for (const status of PURCHASE_STATUSES) {
      expect([status, await statusListErrors('api/src/commerce/x.ts', `f(['${status}']);\n`)]).toEqual([status, [1]]);
    }
    const files = [
      'api/src/commerce/purchases/receipt-again.ts',
      'api/src/commerce/checkout/quotes.ts',
      'api/src/commerce/purchases/status-edges.ts',
      'api/src/commerce/teams/support.ts',
    ];
    const results = await eslint.lintFiles(files.map((file) => path.join(root, file)));
    expect(results.flatMap((r) => r.messages.filter((m) => m.message.includes('list of purchase statuses')))).toEqual(
      [],
    );
  });
});
