import { existsSync, statSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { PROJECT_ROOT } from '../config';
import type { Logger } from '../logger';
import { precompressAssets } from './precompress';
import { SSR_ENTRY } from './storefront-pages';

export const APPS = ['storefront', 'admin'] as const;
export type AppName = (typeof APPS)[number];

const SOURCES = ['src', 'index.html', 'vite.config.ts', 'package.json'];

async function newestSourceTime(appDir: string): Promise<number> {
  let newest = 0;
  const visit = async (entry: string): Promise<void> => {
    if (!existsSync(entry)) return;
    const info = await stat(entry);
    if (info.isDirectory()) {
      await Promise.all((await readdir(entry)).map((child) => visit(path.join(entry, child))));
    } else {
      newest = Math.max(newest, info.mtimeMs);
    }
  };
  await Promise.all(SOURCES.map((s) => visit(path.join(appDir, s))));
  return newest;
}

const builtPage = (app: AppName) => path.join(PROJECT_ROOT, app, 'dist', 'index.html');

/** Whether the app has a whole build: its page, and the storefront's server render. */
function hasBuild(app: AppName): boolean {
  if (!existsSync(builtPage(app))) return false;
  return app !== 'storefront' || existsSync(path.join(PROJECT_ROOT, app, 'dist', SSR_ENTRY));
}

/** An app needs building when it has no build or its sources changed after the last one. */
export async function needsBuild(app: AppName): Promise<boolean> {
  if (!hasBuild(app)) return true;
  return (await newestSourceTime(path.join(PROJECT_ROOT, app))) > statSync(builtPage(app)).mtimeMs;
}

export async function buildApp(app: AppName): Promise<void> {
  const { build } = await import('vite');
  const root = path.join(PROJECT_ROOT, app);
  // Libraries such as React pick their development builds from NODE_ENV, which the server ('development') and the
  // test runner ('test') set: the apps are always built as what is served, production.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    const configFile = path.join(root, 'vite.config.ts');
    await build({ root, configFile, logLevel: 'warn', mode: 'production' });
    // The storefront's public pages are rendered on the server too: its render's bundle (vite build --ssr).
    if (app === 'storefront') {
      await build({ root, configFile, logLevel: 'warn', mode: 'production', build: { ssr: 'src/entry-server.tsx' } });
    }
    await precompressAssets(path.join(root, 'dist', 'assets'));
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}

/** Builds whichever of the two apps is missing or stale; does nothing (fast) otherwise. */
export async function ensureAppsBuilt(logger: Pick<Logger, 'info'>): Promise<void> {
  for (const app of APPS) {
    if (!(await needsBuild(app))) continue;
    const started = performance.now();
    logger.info({ app }, `building the ${app} (first start or changed sources)…`);
    await buildApp(app);
    logger.info({ app, ms: Math.round(performance.now() - started) }, `built the ${app}`);
  }
}

/** A production start whose apps were never built (production serves `npm run build`'s output and has no Vite). */
export class AppsNotBuiltError extends Error {}

export function assertAppsBuilt(): void {
  const missing = APPS.filter((app) => !hasBuild(app));
  if (missing.length)
    throw new AppsNotBuiltError(
      `No build of the ${missing.join(' and ')}: run \`npm run build\` first (NODE_ENV=production serves what it built).`,
    );
}
