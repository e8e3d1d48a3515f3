import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import layers from '../../api/src/layers.json';
import { sourceFiles } from '../support/source-files';

// The API's folders as layers (api/src/layers.json, highest first): a folder may import folders below it, never one
// above, so the folders' graph has no cycle (import-x/no-cycle holds files; this holds domains, where a cycle hides
// which one is lower). eslint.config.js refuses an upward import with the same list; this test checks that the list
// names every folder and that no other import points up (type and dynamic imports too). Files at api/src's root are the composition root (app, services, server, cli) and its leaves (config, clock, logger): they are not a
// layer. Seeds build on everything and nothing in api/src imports them.
const LAYERS: readonly string[] = layers.layers;

/**
 * Imports that still point up, each to be turned around by moving the shared piece down (not added to): the test
 * fails on any other, and on one of these once it is gone, so the list only shrinks.
 */
const UPWARD_STILL = Object.keys(layers.upwardStill).sort();

const ROOT = path.resolve(import.meta.dirname, '../..');
const API = path.join(ROOT, 'api/src');

/** The file a relative import names (`./x` → x.ts, x.tsx or x/index.ts). */
function resolved(from: string, specifier: string): string | null {
  const base = path.resolve(path.dirname(from), specifier);
  const candidates = [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')];
  return candidates.find((c) => statSync(c, { throwIfNoEntry: false })?.isFile()) ?? null;
}

/** The layer of a file: its folder under api/src, 'seeds', or null for api/src's root and anything else. */
function layerOf(file: string): string | null {
  const relative = path.relative(ROOT, file).split(path.sep);
  if (relative[0] === 'seeds') return 'seeds';
  if (relative[0] === 'api' && relative[1] === 'src' && relative.length > 3) return relative[2]!;
  return null;
}

/** Every import (type imports and dynamic imports too) from one layer to another, as 'from -> to'. */
function layerImports(): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const file of [...sourceFiles(API), ...sourceFiles(path.join(ROOT, 'seeds'))]) {
    const from = layerOf(file);
    if (!from) continue;
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolved(file, fileName);
      const to = target && layerOf(target);
      if (!to || to === from) continue;
      const edge = `${from} -> ${to}`;
      edges.set(edge, [...(edges.get(edge) ?? []), path.relative(ROOT, file)]);
    }
  }
  return edges;
}

const rank = (layer: string) => (layer === 'seeds' ? -1 : LAYERS.indexOf(layer));

/** The imports ('from -> to') that point from a lower layer to a higher one. */
function upwardOf(edges: string[]): string[] {
  return edges.filter((edge) => {
    const [from, to] = edge.split(' -> ') as [string, string];
    return rank(to) < rank(from);
  });
}

describe('the API’s folders as layers', () => {
  const edges = layerImports();

  it('names every folder of api/src in the layers', () => {
    const folders = readdirSync(API, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect([...folders].sort()).toEqual([...LAYERS].sort());
  });

  it('imports only downwards, apart from the listed imports still to turn around', () => {
    const upward = upwardOf([...edges.keys()]);
    const unexpected = upward.filter((edge) => !UPWARD_STILL.includes(edge)).map((e) => `${e}: ${edges.get(e)}`);
    expect(unexpected).toEqual([]);
    expect(upward.sort()).toEqual(UPWARD_STILL);
  });

  it('refuses one direction of any cycle between two folders', () => {
    // whichever way the layers put them, one of the two imports of a cycle points up
    expect(upwardOf(['commerce -> learning', 'learning -> commerce'])).toEqual(['learning -> commerce']);
    expect(upwardOf(['seeds -> commerce', 'commerce -> seeds'])).toEqual(['commerce -> seeds']);
  });

  it('fails the lint on an upward import, naming both layers, and lets a downward one through', async () => {
    const eslint = new ESLint({ cwd: ROOT });
    const layerErrors = async (filePath: string, code: string) => {
      const [result] = await eslint.lintText(code, { filePath });
      return result!.messages.filter((m) => m.ruleId === 'import-x/no-restricted-paths').map((m) => m.message);
    };
    const certificateRow =
      "import type { CertificateRow } from '../certificates/queries';\nexport type C = CertificateRow;\n";
    expect(await layerErrors('api/src/mail/outbox.ts', certificateRow)).toEqual([
      expect.stringContaining('api/src/mail sits below api/src/certificates'),
    ]);
    expect(await layerErrors('api/src/commerce/models.ts', certificateRow)).toEqual([]);
    const seeds = "import { slugify } from '../../../seeds/factories';\nexport const s = slugify;\n";
    expect(await layerErrors('api/src/catalog/service.ts', seeds)).toEqual([expect.stringContaining('Seeds build on')]);
  });
});
