import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// docs/operations.md is where an operator learns every setting and every scheduled job: these checks fail when
// api/src/config.ts gains a variable, or a domain a schedule, that the document does not name.
const root = path.resolve(import.meta.dirname, '../..');
const OPERATIONS = readFileSync(path.join(root, 'docs/operations.md'), 'utf8');
const CONFIG = readFileSync(path.join(root, 'api/src/config.ts'), 'utf8');

/** The variables the config schema reads: its keys, one per line at the object's indentation. */
function configVariables(source: string): string[] {
  return [...source.matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1]!);
}

/** The variables named in the document's configuration table (first column, one or several per row). */
function documentedVariables(doc: string): Set<string> {
  const names = doc
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...line.split('|')[1]!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!));
  return new Set(names);
}

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(rel);
    else if (entry.name.endsWith('.ts')) yield rel;
  }
}

/** Every scheduled job of the API: `name: SOME_CONSTANT,` followed by `cron: '…'`, the constant resolved. */
function scheduledJobs(): Record<string, string> {
  const files = [...sources('api/src')].map((file) => readFileSync(path.join(root, file), 'utf8'));
  const constants = new Map(
    files.flatMap((text) => [...text.matchAll(/export const ([A-Z_]+) = '([a-z-]+)';/g)].map((m) => [m[1]!, m[2]!])),
  );
  return Object.fromEntries(
    files.flatMap((text) =>
      [...text.matchAll(/name: ([A-Z_]+|'[a-z-]+'),\s*cron: '([^']+)'/g)].map(([, name, cron]) => [
        constants.get(name!) ?? name!.replace(/'/g, ''),
        cron!,
      ]),
    ),
  );
}

describe('docs/operations.md', () => {
  it('names every variable the configuration reads', () => {
    const variables = configVariables(CONFIG);
    expect(variables.length).toBeGreaterThan(40);
    const documented = documentedVariables(OPERATIONS);
    expect(variables.filter((name) => !documented.has(name))).toEqual([]);
  });

  it('lists every scheduled job with its schedule', () => {
    const jobs = scheduledJobs();
    expect(Object.keys(jobs).length).toBeGreaterThanOrEqual(6);
    const rows = OPERATIONS.split('\n').filter((line) => line.startsWith('| `'));
    const missing = Object.entries(jobs).filter(([name, cron]) => {
      const row = rows.find((line) => line.startsWith(`| \`${name}\``));
      const said = cron === '* * * * *' ? 'every minute' : cron === '*/5 * * * *' ? 'every 5 minutes' : `\`${cron}\``;
      return !row?.includes(said);
    });
    expect(missing).toEqual([]);
  });

  it('reads the sources the way they are written', () => {
    expect(
      configVariables('const X = z.object({\n  PORT: z.number(),\n    nested: 1,\n  S3_BUCKET: z.string(),\n'),
    ).toEqual(['PORT', 'S3_BUCKET']);
    expect([...documentedVariables('| `S3_ENDPOINT`, `S3_REGION` | AWS | uses `PORT` |\n| `prune` | x |')]).toEqual([
      'S3_ENDPOINT',
      'S3_REGION',
    ]);
  });
});
