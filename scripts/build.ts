// npm run build: compiles the server, the CLI, the release step and the migrations to JavaScript in api/dist (what
// `NODE_ENV=production npm start` runs, with no TypeScript tooling installed), and builds the storefront and the
// console (a development `npm start` builds them too when missing or stale).
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import { PROJECT_ROOT } from '../api/src/config';
import { BUILT_MIGRATIONS_DIR, MIGRATION_FILE, MIGRATIONS_DIR } from '../api/src/db/migrations';
import { APPS, buildApp } from '../api/src/web/build';

const API_DIST = path.join(PROJECT_ROOT, 'api', 'dist');
const ENTRIES = ['server', 'cli', 'migrate'];

async function buildApi(): Promise<void> {
  const migrations = (await readdir(MIGRATIONS_DIR)).filter((file) => MIGRATION_FILE.test(file));
  await rm(API_DIST, { recursive: true, force: true });
  await build({
    entryPoints: [
      ...ENTRIES.map((name) => ({ in: path.join(PROJECT_ROOT, 'api', 'src', `${name}.ts`), out: name })),
      ...migrations.map((file) => ({
        in: path.join(MIGRATIONS_DIR, file),
        out: path.join(path.relative(API_DIST, BUILT_MIGRATIONS_DIR), path.parse(file).name),
      })),
    ],
    outdir: API_DIST,
    bundle: true,
    // Packages load from node_modules (the production install); only our own code is bundled. Shared code goes into
    // chunks beside the entries, so the PROJECT_ROOT each computes from its own address stays the repository's.
    packages: 'external',
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    sourcemap: true,
    logLevel: 'warning',
  });
}

const steps: [string, () => Promise<void>][] = [
  ['api', buildApi],
  ...APPS.map((app): [string, () => Promise<void>] => [app, () => buildApp(app)]),
];
for (const [name, step] of steps) {
  const started = performance.now();
  await step();
  console.log(`built ${name} in ${Math.round(performance.now() - started)} ms`);
}
